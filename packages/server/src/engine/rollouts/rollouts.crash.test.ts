/**
 * Workers killed during an approval, a bake and a rollback (issue 25: "a wave is
 * approved, baked, released and rolled back exactly once across restarts and
 * workers"; `README.md`): the real server process (`main.ts`, `ROLE=worker`,
 * `test/worker-processes.ts`) on a fresh copy of the demo fleet, its deploy
 * controller and simulated agent (no delay) deploying a real software update
 * (launcher Select) to 2 machines in waves of 1 with `approval: perWave`, a
 * 5-minute bake and `onHalt: 'rollback'`.
 *
 * 1. Worker A applies wave 1; its deploy waits for approval; A is killed
 *    (SIGKILL) while the wave waits. Wave 1 is approved meanwhile (the route's
 *    own transaction, as `lead`).
 * 2. Worker B deploys wave 1 and starts its bake; B is killed during the bake. A
 *    probe issue is raised on the machine.
 * 3. Worker C fails the target, halts the rollout and starts its rollback; C is
 *    killed as soon as the rollback exists.
 * 4. Worker D finishes: the rollback's wave waits for approval too (the same
 *    rules) and is approved; the machine runs its old version again.
 *
 * Expected: one decision per wave, one bake, one rollback, one RolloutWave per
 * applied wave, one UpdateSoftware per machine per rollout, wave 2 never
 * released. Duration: four worker starts (about 5–15 s each) and two deploys.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZSoftwareUpdateConfig } from '@fleet/contracts';
import { raiseIssue } from '../issues/raise.js';
import { waitingJson } from '../operations/start-rules.js';
import { approveWave } from './approvals.js';
import { lockRollout } from './rollouts.repository.js';
import { useRolloutWorkers } from './rollouts.fixtures.js';

/** Longest wait for each step, ms. */
const STEP_TIMEOUT_MS = 90_000;

// First: its afterAll hooks (the workers killed, the database dropped) run after the file's own.
const { database, workers, data } = useRolloutWorkers('fleet-crash-rollback-');

const db = () => database.db;
const one = async <T,>(query: ReturnType<typeof sql>) => (await db().execute<T & Record<string, unknown>>(query)).rows[0];

/** Approves the current wave of rollout `id` as `lead`, as the route does (its own transaction holding the rollout's row). */
async function approve(id: number, wave: number) {
  await db().transaction(async (tx) => {
    const r = (await lockRollout(tx, id))!;
    await approveWave(tx, r, { wave, user: 'lead', reason: 'checked' });
  });
}

const awaitingApproval = (id: number, wave: number) => async () =>
  (await one<{ n: number }>(sql`select count(*)::int as n from rollout_targets where rollout_id = ${id} and wave = ${wave} and state = 'AwaitingApproval'`))!.n > 0 ||
  undefined;

/**
 * What a step waited on, for its failure message: the targets of the test's
 * rollouts and every operation of `machineIds`, each with why it has not started
 * (the start rules the agent applies) or how it ended.
 */
const explain = (machineIds: number[]) => async () => {
  const { rows: targets } = await db().execute(sql`
    select rt.rollout_id, r.status as rollout, r.current_wave, rt.wave, rt.target_id, rt.state, rt.detail, rt.activity_id
    from rollout_targets rt join rollouts r on r.id = rt.rollout_id where rt.target_id = any(${sql.param(machineIds)}::int[]) order by rt.rollout_id, rt.wave`);
  const { rows: operations } = await db().execute(sql`
    select o.id, o.machine_id, o.type_name, o.activity_id, o.status, o.pending, o.decision, o.decided_by, o.attempts,
      o.queued_at, o.started_at, o.finished_at, ${waitingJson} as waiting,
      m.obsolete, m.current_versions->>'launcher' as current, m.desired_versions->>'launcher' as desired
    from operations o join machines m on m.id = o.machine_id where o.machine_id = any(${sql.param(machineIds)}::int[]) order by o.id`);
  return [...targets, ...operations].map((row) => JSON.stringify(row)).join('\n');
};

describe('workers killed during an approval, a bake and a rollback', () => {
  it('approves, bakes and rolls back exactly once; the machine ends on its old version', async () => {
    const ids = await data.freshMachines(2);
    // Only these machines deploy: the fleet's other obsolete machines would keep the agent busy.
    await db().execute(sql`update machines set managed = false where not (id = any(${sql.param(ids)}::int[]))`);
    const versions = sql`select current_versions->>'launcher' as launcher, version_overrides as overrides from machines where id = ${ids[0]}`;
    const before = await one<{ launcher: string | null; overrides: Record<string, unknown> }>(versions);
    const config = ZSoftwareUpdateConfig.parse({ launcherVersionMode: 'Select', launcherVersion: await data.launcherVersionForAll(ids) });
    const plan = { waves: [{ kind: 'count' as const, value: 1 }], approval: 'perWave' as const, bakeMinutes: 5, onHalt: 'rollback' as const };

    // 1. A killed while wave 1 waits for approval; the approval comes while no worker runs.
    const a = await workers.start();
    const id = await data.start(ids, plan, 'operator', config);
    await workers.until('wave 1 awaiting approval', STEP_TIMEOUT_MS, awaitingApproval(id, 0), explain(ids));
    await workers.kill(a, 'SIGKILL');
    await approve(id, 0);

    // 2. B deploys and bakes wave 1; killed during the bake; a probe issue opens on the machine.
    const b = await workers.start();
    await workers.until(
      'the bake of wave 1',
      STEP_TIMEOUT_MS,
      async () => one<{ result: string | null }>(sql`select result from rollout_wave_bakes where rollout_id = ${id} and wave = 0`),
      explain(ids),
    );
    await workers.kill(b, 'SIGKILL');
    await raiseIssue(db(), { machineId: ids[0]!, source: 'probe', description: 'Launcher probe of https://x.example failed: HTTP 503', tags: ['probe'], content: '503' });

    // 3. C halts the rollout and starts its rollback; killed as soon as the rollback exists.
    const c = await workers.start();
    const rollback = await workers.until(
      'the rollback',
      STEP_TIMEOUT_MS,
      async () => one<{ id: number }>(sql`select id from rollouts where rollback_of = ${id}`),
      explain(ids),
    );
    await workers.kill(c, 'SIGKILL');

    // 4. D finishes the rollback (its wave approved by the same rules).
    const d = await workers.start();
    await workers.until("the rollback's wave awaiting approval", STEP_TIMEOUT_MS, awaitingApproval(rollback.id, 0), explain(ids));
    await approve(rollback.id, 0);
    const done = await workers.until(
      'the rollback ended',
      STEP_TIMEOUT_MS,
      async () => {
        const r = await one<{ status: string; reason: string | null }>(sql`select status, reason from rollouts where id = ${rollback.id}`);
        return r && r.status !== 'Running' ? r : undefined;
      },
      explain(ids),
    );
    expect(done, done.reason ?? '').toEqual({ status: 'Completed', reason: null });

    const original = await one<{ status: string; reason: string }>(sql`select status, reason from rollouts where id = ${id}`);
    expect(original!.status).toBe('Halted');
    expect(original!.reason).toMatch(/^Wave 1: 1 of 1 targets failed/);
    const count = async (query: ReturnType<typeof sql>) => (await one<{ n: number }>(query))!.n;
    expect(await count(sql`select count(*)::int as n from rollouts where rollback_of = ${id}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from rollout_wave_decisions where rollout_id in (${id}, ${rollback.id})`)).toBe(2);
    expect(await count(sql`select count(*)::int as n from rollout_wave_bakes where rollout_id = ${id}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from rollout_wave_bakes where rollout_id = ${rollback.id}`)).toBe(0);
    expect((await data.waveActivities(id)).map((w) => w.wave)).toEqual([0]);
    expect((await data.waveActivities(rollback.id)).map((w) => w.wave)).toEqual([0]);
    // Wave 2 was never released: its machine has no UpdateSoftware of either rollout.
    const { rows: updates } = await db().execute<{ machine_id: number; rollout: number; n: number }>(sql`
      select o.machine_id, (a.params->>'rolloutId')::int as rollout, count(*)::int as n from operations o join audit_activities a on a.id = o.activity_id
      where o.machine_id = any(${sql.param(ids)}::int[]) and o.type_name = 'UpdateSoftware' and a.action = 'RolloutWave'
      group by 1, 2 order by 2`);
    expect(updates).toEqual([
      { machine_id: ids[0], rollout: id, n: 1 },
      { machine_id: ids[0], rollout: rollback.id, n: 1 },
    ]);
    expect(await one(versions)).toEqual(before);
    await workers.kill(d, 'SIGTERM');
    expect(await d.exited).toBe(0);
  }, 420_000);
});
