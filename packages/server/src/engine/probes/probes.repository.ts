/**
 * All SQL of the probe worker (DESIGN §14, `README.md` here): the cursor of the
 * schedule, the due targets of a tick, storing a tick's samples with the
 * request statistics in one statement, the hourly partitions of the raw
 * samples, the hourly rollup and retention.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TProbeKind } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { ProbeResult, ProbeTarget } from './endpoint.js';
import type { DueWindow } from './schedule.js';

/** A machine's phase in the interval (`schedule.ts`): the expression of the index `machines_probe_phase_idx` (keep them equal). */
export const PROBE_PHASE = sql`(((m.id / 8)::float8 * 0.6180339887498949) - floor((m.id / 8)::float8 * 0.6180339887498949))`;

/** `kind` column values. */
export const KIND_CODE: Record<TProbeKind, number> = { launcher: 0, siteMaster: 1 };
export const KIND_OF_CODE: TProbeKind[] = ['launcher', 'siteMaster'];

const HOUR_MS = 3_600_000;
/** The start of the clock hour (UTC) of `at`. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
export const addHours = (at: Date, hours: number) => new Date(at.getTime() + hours * HOUR_MS);

/**
 * Locks the schedule's cursor for this transaction and answers how far it has
 * run, or undefined when another worker's tick holds it (`skip locked`).
 */
export async function lockCursor(tx: DbOrTx): Promise<Date | undefined> {
  const { rows } = await tx.execute<{ through: Date | string }>(sql`select through from probe_cursor where id = 1 for update skip locked`);
  const row = rows[0];
  return row ? new Date(row.through) : undefined;
}

/** Moves the cursor (inside the transaction that locked it). */
export async function setCursor(tx: DbOrTx, through: Date): Promise<void> {
  await tx.execute(sql`update probe_cursor set through = ${through.toISOString()} where id = 1`);
}

/**
 * The URLs to probe in a tick: of live machines whose phase is in the window,
 * that are meant to run (not stop, not idle, not terminate) and have an
 * active instance that is not starting (pending), with each machine's facts.
 * A launcher contributes its `launcher.publicUrl`, a site master its
 * `siteMaster.siteUrl` (as `TMachine` builds launcherUrl and siteMasterUrl);
 * a machine that is both, both. The instance status is settled to `at` (a
 * transition whose time has come counts as done, as the simulated cloud does).
 */
export async function selectDueTargets(db: DbOrTx, q: { window: DueWindow; at: Date }): Promise<ProbeTarget[]> {
  if (!q.window.all && q.window.ranges.length === 0) return [];
  const phase: SQL = q.window.all
    ? sql`true`
    : sql`(${sql.join(
        q.window.ranges.map(([lo, hi]) => sql`(${PROBE_PHASE} > ${lo}::float8 and ${PROBE_PHASE} <= ${hi}::float8)`),
        sql` or `,
      )})`;
  const at = q.at.toISOString();
  const { rows } = await db.execute<{
    id: number;
    name: string;
    launcher_url: string | null;
    site_master_url: string | null;
    needs_admin: boolean;
    status: string;
    busy: boolean;
    credit_cost: number | null;
  }>(sql`
    select m.id, m.name, m.needs_admin,
      case when m.is_launcher then m.component_config->>'launcher.publicUrl' end as launcher_url,
      case when m.is_site_master then m.component_config->>'siteMaster.siteUrl' end as site_master_url,
      i.status, it.cloud_credit_cost as credit_cost,
      exists (select 1 from operations o where o.machine_id = m.id and o.status = 'RUNNING') as busy
    from machines m
    join lateral (
      select case when ci.next_status is not null and ci.settles_at <= ${at}::timestamptz then ci.next_status else ci.status end as status
      from cloud_instances ci where ci.machine_id = m.id and ci.active order by ci.id desc limit 1
    ) i on true
    left join instance_types it on it.id = m.instance_type_id
    where m.deleted_at is null and ${phase}
      and not m.stop and not m.idle and not m.terminate and (m.is_launcher or m.is_site_master)
      and i.status <> 'pending'`);
  const targets: ProbeTarget[] = [];
  for (const r of rows) {
    const facts = { machineId: r.id, machineName: r.name, instanceStatus: r.status, needsAdmin: r.needs_admin, busy: r.busy, creditCost: r.credit_cost };
    if (r.launcher_url) targets.push({ ...facts, kind: 'launcher', url: r.launcher_url });
    if (r.site_master_url) targets.push({ ...facts, kind: 'siteMaster', url: r.site_master_url });
  }
  return targets;
}

/**
 * Stores a tick's probes in one statement: the raw samples (into the hour's
 * partition, which must exist) and each URL's `request_statistics` row (last
 * probe, failing streak, the clock-hour accumulators: a probe in a new hour
 * moves the accumulator to `prev*` and starts a new one; `failing_since` is
 * the first failure of the current streak, null after a success).
 */
export async function storeSamples(db: DbOrTx, q: { at: Date; targets: readonly ProbeTarget[]; results: readonly ProbeResult[] }): Promise<void> {
  if (q.targets.length === 0) return;
  const at = q.at.toISOString();
  const hour = hourOf(q.at).toISOString();
  const ids = q.targets.map((t) => t.machineId);
  const kinds = q.targets.map((t) => KIND_CODE[t.kind]);
  const urls = q.targets.map((t) => t.url);
  const latencies = q.results.map((r) => r.latencyMs);
  const oks = q.results.map((r) => r.ok);
  const same = sql`rs.acc_hour = excluded.acc_hour`;
  await db.execute(sql`
    with s as (
      select * from unnest(${sql.param(ids)}::int[], ${sql.param(kinds)}::int2[], ${sql.param(latencies)}::float8[], ${sql.param(oks)}::bool[], ${sql.param(urls)}::text[])
        as t(machine_id, kind, latency_ms, ok, url)
    ), raw as (
      insert into probe_samples (at, machine_id, latency_ms, kind, ok)
      select ${at}::timestamptz, machine_id, latency_ms, kind, ok from s
    )
    insert into request_statistics as rs
      (machine_id, kind, url, last_at, last_latency_ms, last_ok, failing_since, acc_hour, acc_n, acc_ok, acc_lat_sum)
    select machine_id, kind, url, ${at}::timestamptz, latency_ms, ok,
      case when ok then null else ${at}::timestamptz end, ${hour}::timestamptz, 1, ok::int, coalesce(latency_ms, 0)
    from s
    on conflict (machine_id, kind) do update set
      url = excluded.url,
      last_at = excluded.last_at,
      last_latency_ms = excluded.last_latency_ms,
      last_ok = excluded.last_ok,
      failing_since = case when excluded.last_ok then null else coalesce(rs.failing_since, excluded.last_at) end,
      prev_hour = case when ${same} then rs.prev_hour else rs.acc_hour end,
      prev_n = case when ${same} then rs.prev_n else rs.acc_n end,
      prev_ok = case when ${same} then rs.prev_ok else rs.acc_ok end,
      prev_lat_sum = case when ${same} then rs.prev_lat_sum else rs.acc_lat_sum end,
      acc_n = case when ${same} then rs.acc_n + 1 else 1 end,
      acc_ok = case when ${same} then rs.acc_ok + excluded.acc_ok else excluded.acc_ok end,
      acc_lat_sum = case when ${same} then rs.acc_lat_sum + excluded.acc_lat_sum else excluded.acc_lat_sum end,
      acc_hour = excluded.acc_hour`);
}

/** The name of the raw samples' partition of the clock hour `hour` (UTC): `probe_samples_pYYYYMMDDHH`. */
export function partitionName(hour: Date): string {
  return `probe_samples_p${hour.toISOString().slice(0, 13).replace(/[-T]/g, '')}`;
}

/** The clock hour of a partition name, or undefined for another table. */
export function partitionHour(name: string): Date | undefined {
  const m = /^probe_samples_p(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(name);
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:00:00.000Z`) : undefined;
}

/** The hours that have a raw samples partition, oldest first. */
export async function selectPartitionHours(db: DbOrTx): Promise<Date[]> {
  const { rows } = await db.execute<{ relname: string }>(sql`
    select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'probe_samples'::regclass`);
  return rows
    .map((r) => partitionHour(r.relname))
    .filter((h): h is Date => h !== undefined)
    .sort((a, b) => a.getTime() - b.getTime());
}

/**
 * Creates the raw samples partition of each clock hour in `hours` that has
 * none. Autovacuum is off on them: they are only inserted into, read once by
 * the rollup and dropped. Serialised by an advisory lock, so two workers do
 * not race on the catalogue.
 */
export async function ensurePartitions(db: DbOrTx, hours: readonly Date[]): Promise<void> {
  if (hours.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(4006, 1)`);
    for (const hour of hours) {
      const from = hourOf(hour);
      // DDL takes no bind parameters: the name and bounds are made from a Date here, never from input.
      await tx.execute(
        sql.raw(
          `create table if not exists ${partitionName(from)} partition of probe_samples ` +
            `for values from ('${from.toISOString()}') to ('${addHours(from, 1).toISOString()}') with (autovacuum_enabled = false)`,
        ),
      );
    }
  });
}

/** Drops the raw samples partition of a clock hour (retention). */
export async function dropPartition(db: DbOrTx, hour: Date): Promise<void> {
  await db.execute(sql.raw(`drop table if exists ${partitionName(hourOf(hour))}`));
}

/** The hours (of `hours`) already rolled up. */
export async function selectRolledUpHours(db: DbOrTx, hours: readonly Date[]): Promise<Set<number>> {
  if (hours.length === 0) return new Set();
  const { rows } = await db.execute<{ hour: Date | string }>(sql`
    select hour from probe_rollups where hour = any(${sql.param(hours.map((h) => h.toISOString()))}::timestamptz[])`);
  return new Set(rows.map((r) => new Date(r.hour).getTime()));
}

/**
 * Rolls the raw samples of one clock hour up into `probe_hourly` and records
 * the hour in `probe_rollups`, in one transaction. The hour's rows are
 * replaced, not added to, so a rollup that runs twice (a retry, two workers)
 * leaves the same rows; the marker is taken first (`on conflict do nothing`),
 * so a second worker that finds it skips the work. `force` redoes an hour
 * already marked. Answers the number of samples, or undefined when skipped.
 */
export async function rollUpHour(db: DbOrTx, hour: Date, o: { force?: boolean } = {}): Promise<number | undefined> {
  const from = hourOf(hour).toISOString();
  const to = addHours(hourOf(hour), 1).toISOString();
  return db.transaction(async (tx) => {
    const marked = await tx.execute<{ hour: Date }>(sql`
      insert into probe_rollups (hour, samples) values (${from}::timestamptz, 0) on conflict (hour) do nothing returning hour`);
    if (marked.rows.length === 0 && !o.force) return undefined;
    const { rows } = await tx.execute<{ samples: number }>(sql`
      with r as (
        insert into probe_hourly (machine_id, kind, hour, n, ok, lat_sum)
        select machine_id, kind, ${from}::timestamptz, count(*), count(*) filter (where ok), coalesce(sum(latency_ms) filter (where ok), 0)
        from probe_samples where at >= ${from}::timestamptz and at < ${to}::timestamptz
        group by machine_id, kind
        on conflict (machine_id, kind, hour) do update set n = excluded.n, ok = excluded.ok, lat_sum = excluded.lat_sum
        returning n
      )
      select coalesce(sum(n), 0)::int as samples from r`);
    const samples = rows[0]?.samples ?? 0;
    await tx.execute(sql`update probe_rollups set samples = ${samples}, rolled_at = now() where hour = ${from}::timestamptz`);
    return samples;
  });
}

/** Deletes hourly rollups of hours before `before`, and rollup markers a day older than that. Answers the rollup rows deleted. */
export async function deleteRollupsBefore(db: DbOrTx, before: Date): Promise<number> {
  const { rowCount } = await db.execute(sql`delete from probe_hourly where hour < ${before.toISOString()}::timestamptz`);
  await db.execute(sql`delete from probe_rollups where hour < ${addHours(before, -24).toISOString()}::timestamptz`);
  return rowCount ?? 0;
}

/** Bytes of the raw samples (every partition), the rollups and the statistics rows, with their indexes. */
export async function probeStorageBytes(db: DbOrTx): Promise<{ samples: number; hourly: number; statistics: number }> {
  const { rows } = await db.execute<{ samples: string; hourly: string; statistics: string }>(sql`
    select
      coalesce((select sum(pg_total_relation_size(i.inhrelid)) from pg_inherits i where i.inhparent = 'probe_samples'::regclass), 0)::text as samples,
      pg_total_relation_size('probe_hourly')::text as hourly,
      pg_total_relation_size('request_statistics')::text as statistics`);
  const r = rows[0]!;
  return { samples: Number(r.samples), hourly: Number(r.hourly), statistics: Number(r.statistics) };
}
