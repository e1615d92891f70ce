/**
 * SQL of the bake of rollout waves (issue 25 point 2; `bake.ts`, `README.md`
 * Bake): the bake rows, the machines of a wave's Succeeded targets, their
 * probe and server-status issues during the bake, their probes' success during
 * it (the raw samples of the bake's window, partitions pruned by time) and the
 * probes failing now. One statement each, set-based over the wave.
 */
import { sql } from 'drizzle-orm';
import type { TProbeKind } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { KIND_OF_CODE } from '../probes/probes.repository.js';

/** A wave's bake row. */
export type BakeRow = { wave: number; startedAt: Date; endsAt: Date; result: 'Passed' | 'Failed' | null; unhealthy: number };

const BAKE_COLUMNS = sql`wave, started_at as "startedAt", ends_at as "endsAt", result, unhealthy`;

/** The bakes of a rollout's waves, by wave. */
export async function selectBakes(db: DbOrTx, rolloutId: number): Promise<Map<number, BakeRow>> {
  const { rows } = await db.execute<BakeRow>(sql`select ${BAKE_COLUMNS} from rollout_wave_bakes where rollout_id = ${rolloutId}`);
  return new Map(rows.map((r) => [r.wave, { ...r, startedAt: new Date(r.startedAt), endsAt: new Date(r.endsAt) }]));
}

/** Starts the bake of a wave at `now` for `minutes` (once: a second call finds the row); answers the bake. */
export async function startBake(tx: DbOrTx, o: { rolloutId: number; wave: number; now: Date; minutes: number }): Promise<BakeRow> {
  await tx.execute(sql`
    insert into rollout_wave_bakes (rollout_id, wave, started_at, ends_at)
    values (${o.rolloutId}, ${o.wave}, ${o.now.toISOString()}::timestamptz, ${o.now.toISOString()}::timestamptz + ${o.minutes} * interval '1 minute')
    on conflict (rollout_id, wave) do nothing`);
  return (await selectBakes(tx, o.rolloutId)).get(o.wave)!;
}

/** Ends a bake with its result, adding `unhealthy` targets to its count. */
export async function finishBake(tx: DbOrTx, o: { rolloutId: number; wave: number; result: 'Passed' | 'Failed' | null; unhealthy: number }): Promise<void> {
  await tx.execute(sql`
    update rollout_wave_bakes set result = coalesce(${o.result}, result), unhealthy = unhealthy + ${o.unhealthy}
    where rollout_id = ${o.rolloutId} and wave = ${o.wave}`);
}

/** The wave's bake in progress ends Failed when it found unhealthy targets (the rollout halts on them). */
export async function failBakeOnHalt(tx: DbOrTx, rolloutId: number, wave: number): Promise<void> {
  await tx.execute(sql`update rollout_wave_bakes set result = 'Failed' where rollout_id = ${rolloutId} and wave = ${wave} and result is null and unhealthy > 0`);
}

/** One machine of a Succeeded target of a baking wave. */
export type BakedMachine = { targetId: number; machineId: number; machineName: string };

/** The machines of the wave's Succeeded targets (live ones). */
export async function selectBakedMachines(tx: DbOrTx, rolloutId: number, wave: number): Promise<BakedMachine[]> {
  const { rows } = await tx.execute<BakedMachine>(sql`
    select rt.target_id as "targetId", m.id as "machineId", m.name as "machineName"
    from rollout_targets rt cross join lateral unnest(rt.machine_ids) as mid(id) join machines m on m.id = mid.id
    where rt.rollout_id = ${rolloutId} and rt.wave = ${wave} and rt.state = 'Succeeded' and m.deleted_at is null
    order by rt.position, m.id`);
  return rows;
}

/** The open probe and server-status issues of `machineIds` that occurred since `since`: per machine, the first one's words. */
export async function selectBakeIssues(tx: DbOrTx, machineIds: number[], since: Date): Promise<Map<number, string>> {
  if (machineIds.length === 0) return new Map();
  const { rows } = await tx.execute<{ machineId: number; text: string }>(sql`
    select distinct on (i.machine_id) i.machine_id as "machineId", i.source || ': ' || i.description as text
    from issues i
    where i.machine_id = any(${sql.param(machineIds)}::int[]) and i.source in ('probe', 'server-status')
      and not i.is_resolved and i.last_occurrence_time >= ${since.toISOString()}::timestamptz
    order by i.machine_id, i.last_occurrence_time`);
  return new Map(rows.map((r) => [r.machineId, r.text]));
}

/** Per machine and probe kind, the probes and successes of `machineIds` between `from` and `to` (the raw samples). */
export async function selectProbeSuccess(
  tx: DbOrTx,
  machineIds: number[],
  from: Date,
  to: Date,
): Promise<{ machineId: number; kind: TProbeKind; n: number; ok: number }[]> {
  if (machineIds.length === 0) return [];
  const { rows } = await tx.execute<{ machineId: number; kind: number; n: number; ok: number }>(sql`
    select machine_id as "machineId", kind, count(*)::int as n, count(*) filter (where ok)::int as ok
    from probe_samples
    where at >= ${from.toISOString()}::timestamptz and at < ${to.toISOString()}::timestamptz and machine_id = any(${sql.param(machineIds)}::int[])
    group by machine_id, kind`);
  return rows.map((r) => ({ ...r, kind: KIND_OF_CODE[r.kind]! }));
}

/** The probes of the wave's machines failing now, longest failing first (at most `limit`). */
export async function selectFailingProbes(db: DbOrTx, rolloutId: number, wave: number, limit: number) {
  const { rows } = await db.execute<{ machineId: number; machineName: string; kind: number; url: string; since: Date }>(sql`
    select rs.machine_id as "machineId", m.name as "machineName", rs.kind, rs.url, rs.failing_since as since
    from rollout_targets rt cross join lateral unnest(rt.machine_ids) as mid(id)
    join request_statistics rs on rs.machine_id = mid.id join machines m on m.id = mid.id
    where rt.rollout_id = ${rolloutId} and rt.wave = ${wave} and not rs.last_ok and rs.failing_since is not null
    order by rs.failing_since, rs.machine_id, rs.kind limit ${limit}`);
  return rows.map((r) => ({ ...r, kind: KIND_OF_CODE[r.kind]!, since: new Date(r.since).toISOString() }));
}
