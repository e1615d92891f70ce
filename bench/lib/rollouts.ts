/**
 * What bench/updater needs to drive and measure a rollout: a signed-in client of
 * the API (the software update, the rollout's progress) and the reads of the
 * bench database that the API does not answer (a wave's releases under
 * `maxConcurrent`, what was released after a wave passed its threshold).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { TBatchResult, TRollout, TRolloutPlanInput } from '@fleet/contracts';
import { apiClient, root, type BenchServer } from './server.js';

/** A client of the bench server's API as `admin`, and a connection to its database. */
export interface Bench {
  baseUrl: string;
  headers: Record<string, string>;
  db: pg.Client;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function connectBench(server: BenchServer): Promise<Bench> {
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8').trim() });
  await db.connect();
  const api = await apiClient(server.baseUrl);
  return {
    baseUrl: server.baseUrl,
    headers: api.headers,
    db,
    get: api.get,
    post: api.post,
    close: () => db.end(),
  };
}

/** Aborts the rollouts an earlier, interrupted run left Running or Paused: they would deploy beside the measured one. */
export async function abortLeftRollouts(b: Bench): Promise<void> {
  const left = await b.get<{ items: TRollout[] }>('/rollouts?limit=1000');
  for (const r of left.items.filter((x) => x.status === 'Running' || x.status === 'Paused')) await b.post(`/rollouts/${r.id}/abort`);
}

/**
 * Machines that can deploy at once, by id: managed, not in manual maintenance,
 * no Panic, not in operation mode Anomaly, instance running, no operation
 * unfinished, a class whose deploys need no approval and is not on standby (a
 * deploy that waits for approval would hold its wave until the wave's timeout).
 */
export async function deployableMachines(db: pg.Client, limit: number): Promise<{ id: number; name: string }[]> {
  const { rows } = await db.query<{ id: number; name: string }>(
    `select m.id, m.name from machines m
       join mma_classes c on c.id = m.class_id and not c.is_production
       join mma_instances mi on mi.class_id = m.class_id and not mi.standby
       join cloud_instances i on i.machine_id = m.id and i.active and i.status = 'running'
     where m.deleted_at is null and m.managed and not m.manual_maintenance and not m.needs_admin and not m.terminate
       and m.operation_mode <> 2
       and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
     order by m.id limit $1`,
    [limit],
  );
  return rows;
}

/**
 * The newest siteMaster commit no machine is meant to run (`{branch}|{shortHash}`),
 * so that every target changes, and that no UpdateSoftware was ever cancelled
 * for: the deploy controller does not queue a machine whose latest
 * UpdateSoftware was cancelled for the versions it is now meant to run, even
 * when they changed in between (a halted rollout's cancelled deploys left 123
 * targets of a later rollout to the same commit Deploying until its wave
 * timed out).
 */
export async function unusedSiteMasterCommit(db: pg.Client): Promise<string> {
  const { rows } = await db.query<{ ref: string }>(
    `select b.name || '|' || c.short_hash as ref from software_commits c join software_branches b on b.id = c.branch_id
     where c.software = 'siteMaster'
       and not exists (select 1 from machines m where m.desired_versions->>'siteMaster' = b.name || '|' || c.short_hash)
       and not exists (select 1 from operations o where o.type_name = 'UpdateSoftware' and o.decision = 'CANCEL'
                         and o.params->'versions'->>'siteMaster' = b.name || '|' || c.short_hash)
     order by c.timestamp desc limit 1`,
  );
  if (!rows[0]) throw new Error('no siteMaster commit to roll out');
  return rows[0].ref;
}

/** `POST /software-update/update-machines` setting siteMaster to `ref` on `machines`, as a rollout with `plan` (or a dry run). */
export function updateSiteMaster(b: Bench, o: { machines: number[]; ref: string; plan?: TRolloutPlanInput; dryRun?: boolean }): Promise<TBatchResult> {
  return b.post<TBatchResult>('/software-update/update-machines', {
    machines: o.machines,
    siteMasterVersionMode: 'Select',
    siteMasterVersion: o.ref,
    ...(o.dryRun ? { dryRun: true } : {}),
    ...(o.plan ? { rollout: o.plan } : {}),
  });
}

/** A running rollout whose progress (counts, wave, bakes) has not moved this long is aborted as stalled, ms. */
const STALL_MS = 300_000;

/**
 * Polls `GET /rollouts/{id}` every 500 ms while it runs (`onPoll` is awaited
 * after each read) and answers the last read. A rollout that makes no
 * progress for 5 minutes (longer than a bench bake) is reported and aborted. A
 * halted or aborted rollout is followed on while targets it released still
 * deploy (the engine follows them to their end), at most `settleMs` more.
 */
export async function followRollout(b: Bench, id: number, o: { onPoll?: (r: TRollout) => Promise<void>; settleMs?: number } = {}): Promise<TRollout> {
  let r = await b.get<TRollout>(`/rollouts/${id}`);
  const progress = (x: TRollout) => JSON.stringify([x.currentWave, x.waves.map((w) => [w.counts, w.bake?.result])]);
  let last = { progress: progress(r), at: Date.now() };
  while (r.status === 'Running') {
    await o.onPoll?.(r);
    await new Promise((done) => setTimeout(done, 500));
    r = await b.get<TRollout>(`/rollouts/${id}`);
    if (progress(r) !== last.progress) last = { progress: progress(r), at: Date.now() };
    else if (Date.now() - last.at > STALL_MS) {
      const w = r.waves[r.currentWave];
      console.log(`| rollout ${id} STALLED: no progress for ${STALL_MS / 60_000} minutes in wave ${r.currentWave + 1} (${JSON.stringify(w?.counts)}); aborted |`);
      await b.post(`/rollouts/${id}/abort`);
      return b.get<TRollout>(`/rollouts/${id}`);
    }
  }
  const until = Date.now() + (o.settleMs ?? 0);
  while (r.counts.Deploying + r.counts.AwaitingApproval > 0 && Date.now() < until) {
    await new Promise((done) => setTimeout(done, 500));
    r = await b.get<TRollout>(`/rollouts/${id}`);
  }
  return r;
}

/** How many releases (RolloutWave activities) applied each wave (index = wave from 0). */
export async function releasesPerWave(db: pg.Client, rolloutId: number): Promise<Map<number, number>> {
  const { rows } = await db.query<{ wave: number; releases: number }>(
    `select wave, count(distinct activity_id)::int as releases from rollout_targets where rollout_id = $1 group by wave`,
    [rolloutId],
  );
  return new Map(rows.map((r) => [r.wave, r.releases]));
}

/** Seconds from `a` to `b` (ISO times), one decimal; '—' when either is missing. */
export function seconds(a: string | null | undefined, b: string | null | undefined): string {
  return a && b ? `${((Date.parse(b) - Date.parse(a)) / 1000).toFixed(1)} s` : '—';
}

/** What was released after a wave passed its threshold (see {@link THRESHOLD_SQL}). */
export interface AfterThreshold {
  /**
   * The target whose failure exceeded the threshold, when it became Failed
   * (`rollout_targets.updated_at`: the start of the engine's transaction that
   * found it, ISO), and when its UpdateSoftware ended FAILURE.
   */
  crossing: { name: string; failedAt: string; operationFinishedAt: string | null } | null;
  /** Targets whose release (RolloutWave activity) is later than `failedAt`. */
  releasedAfter: number;
  /** Targets released in the very transaction that marked it Failed and halted (the activity's time equals `failedAt`). */
  releasedWith: number;
  /** The final states of the targets released at `failedAt` or later, `state: count`. */
  statesOfThose: Record<string, number>;
  /** The halt (its RolloutHalted activity's time, ISO). */
  haltedAt: string | null;
  /**
   * UpdateSoftware caused by the rollout's releases, queued after the halt
   * (`queued_at`) and not cancelled: the deploys it caused once it had given
   * up, by final status (`SUCCESS`, `FAILURE`, `unfinished`), and on how many
   * machines.
   */
  queuedAfterHalt: Record<string, number>;
  machinesQueuedAfterHalt: number;
}

/**
 * One statement, so that the times compare at PostgreSQL's microseconds (a JS
 * Date keeps milliseconds): the `$3`-th target of wave `$2` of rollout `$1` to
 * become Failed (by `updated_at`, then request order) is the one that exceeded
 * the threshold; the wave's targets are counted by the time of the RolloutWave
 * activity that released them (`rollout_targets.activity_id`).
 */
const THRESHOLD_SQL = `
  with crossing as (
    select target_id, name, activity_id, updated_at as at from rollout_targets
    where rollout_id = $1 and wave = $2 and state = 'Failed' order by updated_at, position offset $3 - 1 limit 1
  ), failure as (
    select min(o.finished_at) as at from operations o join crossing c on o.activity_id = c.activity_id and o.machine_id = c.target_id
    where o.type_name = 'UpdateSoftware' and o.status = 'FAILURE'
  ), released as (
    select rt.target_id, rt.state, a.time from rollout_targets rt join audit_activities a on a.id = rt.activity_id
    where rt.rollout_id = $1 and rt.wave = $2
  ), halt as (
    select min(time) as at from audit_activities where action = 'RolloutHalted' and params->>'rolloutId' = $1::text
  ), deploys as (
    select o.machine_id, coalesce(o.status, 'unfinished') as status from operations o, halt h
    where o.activity_id in (select activity_id from rollout_targets where rollout_id = $1 and activity_id is not null)
      and o.type_name = 'UpdateSoftware' and o.queued_at > h.at and o.decision is distinct from 'CANCEL'
  )
  select (select name from crossing) as name,
    (select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from crossing) as "failedAt",
    (select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from failure) as "operationFinishedAt",
    (select count(*)::int from released r, crossing c where r.time > c.at) as "releasedAfter",
    (select count(*)::int from released r, crossing c where r.time = c.at) as "releasedWith",
    (select coalesce(jsonb_object_agg(state, n), '{}') from (
       select r.state, count(*)::int as n from released r, crossing c where r.time >= c.at group by r.state) s) as "statesOfThose",
    (select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from halt) as "haltedAt",
    (select coalesce(jsonb_object_agg(status, n), '{}') from (select status, count(*)::int as n from deploys group by status) s) as "queuedAfterHalt",
    (select count(distinct machine_id)::int from deploys) as "machinesQueuedAfterHalt"`;

/**
 * What wave `wave` of rollout `rolloutId` released once its `nth` failure (the
 * one that exceeded the threshold) happened.
 */
export async function releasedAfterThreshold(db: pg.Client, o: { rolloutId: number; wave: number; nth: number }): Promise<AfterThreshold> {
  type Row = Omit<AfterThreshold, 'crossing'> & { name: string | null; failedAt: string | null; operationFinishedAt: string | null };
  const { rows } = await db.query<Row>(THRESHOLD_SQL, [o.rolloutId, o.wave, o.nth]);
  const { name, failedAt, operationFinishedAt, ...r } = rows[0]!;
  return {
    ...r,
    crossing: name && failedAt ? { name, failedAt, operationFinishedAt } : null,
  };
}
