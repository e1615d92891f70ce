/**
 * Rollouts (DESIGN §15; `README.md`) against a real PostgreSQL with the demo
 * fleet, the simulated agent (zero delays) running the UpdateSoftware the deploy
 * controller queues, and the rollout engine: waves in order (1, 10 %, the rest),
 * each applied once and after the previous one's deploys ended; the halt
 * threshold (failures injected through the agent's `failNext`); the wave
 * timeout; pause, resume and abort through the API (409 for a transition the
 * status refuses); an engine stopped mid-rollout and a new one finishing it with
 * no target applied twice; Customer Production rollouts hidden from an operator
 * without the group.
 *
 * The software update a wave applies is a stand-in (`applier` below): it moves
 * each machine's desired launcher version to another real commit, with the
 * wave's activity as the cause, as `software-update.apply.ts` does for a real
 * update; what is tested here is the engine around it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_WAVES, ZRolloutPlan, ZSoftwareUpdateConfig, type TRollout, type TRolloutPlanInput, type TRolloutTarget } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import type { Principal } from '../../auth/principal.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createOperationEngine, type OperationEngine } from '../operations/agent.js';
import { createSimulatedAgent, type SimulatedAgent } from '../operations/simulated-agent.js';
import { createDeployEffects } from '../desired-state/deploy-effects.js';
import { startDeployController, type DeployController } from '../desired-state/controller.js';
import { createTaskEvents, type FleetEvent } from '../push/events.js';
import { rolloutPass, startRolloutEngine, type RolloutEngine, type SoftwareUpdateApplier } from './engine.js';
import { startRollout } from './start.js';
import { SOFTWARE_UPDATE_APPLIER } from './software-update-applier.js';
import { HttpProblem } from '../../lib/problem.js';
import { splitWaves } from './waves.js';

let t: TestApp;
let agent: SimulatedAgent;
let operations: OperationEngine;
let deploys: DeployController;
const events = createTaskEvents();
const seen: FleetEvent[] = [];
/** Per machine, the desired launcher version the stand-in update moves it to. */
const targetVersion = new Map<number, string>();

const db = () => t.database.db;

const applier: SoftwareUpdateApplier = {
  async plan(tx, o) {
    const { rows } = await tx.execute<{ id: number; name: string; launcher: string | null }>(
      sql`select id, name, desired_versions->>'launcher' as launcher from machines where id = any(${sql.param(o.targetIds)}::int[]) order by id`,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, refused: null, changes: [{ field: 'launcherVersion', oldValue: r.launcher, newValue: targetVersion.get(r.id) }] }));
  },
  async apply(tx, o) {
    const ids = o.targetIds.filter((id) => targetVersion.has(id));
    const { rows } = await tx.execute<{ id: number }>(sql`
      update machines m set desired_versions = m.desired_versions || jsonb_build_object('launcher', t.v), desired_activity_id = ${o.activityId}
      from unnest(${sql.param(ids)}::int[], ${sql.param(ids.map((id) => targetVersion.get(id)!))}::text[]) as t(id, v)
      where m.id = t.id and m.desired_versions->>'launcher' is distinct from t.v returning m.id`);
    return { machineIds: rows.map((r) => r.id) };
  },
};

beforeAll(async () => {
  t = await startTestApp();
  events.subscribe((e) => seen.push(e));
  agent = createSimulatedAgent({ effects: createDeployEffects() });
  operations = createOperationEngine({
    db: db(),
    cloud: createSimulatedCloud({ db: db(), delayMs: 0 }),
    agent,
    events,
    simDelayMs: 0,
    passMs: 100,
    panicFailures: 1000,
    anomalyFailures: 1000,
  });
  await operations.start();
  deploys = startDeployController({ db: db(), queue: t.app.deps.operations, everyMs: 100, listen: false });
  await deploys.pass();
}, 60_000);
afterAll(async () => {
  await deploys?.stop();
  await operations?.stop();
  await t.close();
});

async function principalOf(username: string): Promise<Principal> {
  const { rows } = await db().execute<Omit<Principal, 'jti'>>(
    sql`select id as "userId", username, name, email, permissions, groups from users where username = ${username}`,
  );
  return { ...rows[0]!, jti: 'test' };
}

const used = new Set<number>();
/**
 * `n` machines ready to deploy (managed, running, up to date, no operation
 * unfinished, no approval needed), or `n` live Customer Production machines,
 * each with a launcher commit to move to.
 */
async function freshMachines(n: number, customerProduction = false): Promise<number[]> {
  const { rows } = await db().execute<{ id: number; launcher: string | null }>(sql`
    select m.id, m.current_versions->>'launcher' as launcher from machines m join accounts a on a.id = m.account_id
    join mma_classes c on c.id = m.class_id
    where m.deleted_at is null and not m.terminate and not a.is_template and a.deleted_at is null
      and ${customerProduction ? sql`5 in (m.class_id, a.class_id)` : sql`5 not in (m.class_id, a.class_id)
      and m.managed and not m.manual_maintenance and not m.needs_admin and not m.obsolete and m.operation_mode = 1 and not c.is_production`}
      and not exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.standby)
      and exists (select 1 from cloud_instances ci where ci.machine_id = m.id and ci.active and ci.status = 'running' and ci.next_status is null)
      and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
      and not exists (select 1 from machine_tasks k where k.machine_id = m.id and k.status in ('New', 'Running'))
      and not (m.id = any(${sql.param([...used])}::int[]))
    order by m.id limit ${n}`);
  if (rows.length < n) throw new Error(`only ${rows.length} fresh machines`);
  const { rows: commits } = await db().execute<{ v: string }>(sql`
    select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
    where c.software = 'launcher' order by c.timestamp desc, c.id desc limit 2`);
  for (const r of rows) {
    used.add(r.id);
    targetVersion.set(r.id, r.launcher === commits[0]!.v ? commits[1]!.v : commits[0]!.v);
  }
  return rows.map((r) => r.id);
}

async function start(ids: number[], plan: TRolloutPlanInput = {}, username = 'admin'): Promise<number> {
  const principal = await principalOf(username);
  return db().transaction((tx) =>
    startRollout(tx, { principal, kind: 'machines', config: ZSoftwareUpdateConfig.parse({}), targetIds: ids, plan: ZRolloutPlan.parse(plan), activityId: null }),
  );
}

const get = async (id: number, as = 'admin') => {
  const res = await t.call({ method: 'GET', url: `/rollouts/${id}`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TRollout;
};
const targetsOf = async (id: number) =>
  ((await t.call({ method: 'GET', url: `/rollouts/${id}/targets`, as: 'admin', query: { limit: '1000' } })).json() as { items: TRolloutTarget[] }).items;

/** Runs `engine` passes until the rollout's status is one of `until` (at most `ms`). */
async function runUntil(id: number, until: string[], engine?: RolloutEngine, ms = 30_000): Promise<TRollout> {
  const end = Date.now() + ms;
  for (;;) {
    if (engine) await engine.pass();
    else await rolloutPass({ db: db(), updates: applier, events });
    const r = await get(id);
    if (until.includes(r.status)) return r;
    if (Date.now() > end) {
      const { rows } = await db().execute(sql`
        select m.id, m.operation_mode, m.obsolete, m.managed, m.class_id, o.status, o.pending, o.type_name, o.activity_id, rt.activity_id as rta
        from rollout_targets rt join machines m on m.id = rt.target_id left join operations o on o.machine_id = m.id and o.id > 0
        where rt.rollout_id = ${id} and rt.state = 'Deploying' order by o.id desc limit 10`);
      throw new Error(`rollout ${id} is still ${r.status}: ${JSON.stringify(r.waves.map((w) => w.counts))} ${JSON.stringify(rows)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waveActivities(id: number) {
  const { rows } = await db().execute<{ id: number; wave: number; time: Date; user_name: string }>(sql`
    select id, (params->>'wave')::int as wave, time, user_name from audit_activities
    where action = 'RolloutWave' and (params->>'rolloutId')::int = ${id} order by id`);
  return rows;
}

async function updatesPerMachine(ids: number[]) {
  const { rows } = await db().execute<{ machine_id: number; n: number; first: Date; last: Date }>(sql`
    select o.machine_id, count(*)::int as n, min(o.queued_at) as first, max(o.finished_at) as last from operations o join audit_activities a on a.id = o.activity_id
    where o.machine_id = any(${sql.param(ids)}::int[]) and o.type_name = 'UpdateSoftware' and a.action = 'RolloutWave' group by o.machine_id`);
  return new Map(rows.map((r) => [r.machine_id, r]));
}

describe('waves', () => {
  it('splits the targets into 1, 10 % (rounded up) and the rest, dropping empty waves', () => {
    expect(splitWaves(20, DEFAULT_WAVES)).toEqual([1, 2, 17]);
    expect(splitWaves(12, DEFAULT_WAVES)).toEqual([1, 2, 9]);
    expect(splitWaves(1, DEFAULT_WAVES)).toEqual([1]);
    expect(splitWaves(2, DEFAULT_WAVES)).toEqual([1, 1]);
    expect(splitWaves(10, [{ kind: 'count', value: 20 }])).toEqual([10]);
    expect(splitWaves(1000, [{ kind: 'percent', value: 0.1 }, { kind: 'percent', value: 50 }])).toEqual([1, 500, 499]);
    expect(splitWaves(10, [])).toEqual([10]);
  });
});

describe('the rollout engine', () => {
  it('applies the waves in order (1, 10 %, the rest), each after the previous wave deployed, and completes', async () => {
    const ids = await freshMachines(12);
    const id = await start(ids);
    const before = seen.length;
    const done = await runUntil(id, ['Completed', 'Halted']);
    expect(done.status, done.reason ?? '').toBe('Completed');
    expect(done.waves.map((w) => [w.index, w.size, w.status])).toEqual([
      [0, 1, 'Succeeded'],
      [1, 2, 'Succeeded'],
      [2, 9, 'Succeeded'],
    ]);
    expect(done.counts).toMatchObject({ Succeeded: 12, Pending: 0, Deploying: 0, Failed: 0 });
    const targets = await targetsOf(id);
    expect(targets.map((x) => x.id)).toEqual(ids);
    expect(targets.map((x) => x.wave)).toEqual([0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);

    const activities = await waveActivities(id);
    expect(activities.map((a) => a.wave)).toEqual([0, 1, 2]);
    expect(new Set(activities.map((a) => a.user_name))).toEqual(new Set(['admin']));
    const updates = await updatesPerMachine(ids);
    expect([...updates.values()].every((u) => u.n === 1)).toBe(true);
    // Each wave's deploys were queued after the deploys of the one before had ended.
    for (const w of [1, 2]) {
      const previous = targets.filter((x) => x.wave === w - 1).map((x) => new Date(updates.get(x.id)!.last).getTime());
      const queued = targets.filter((x) => x.wave === w).map((x) => new Date(updates.get(x.id)!.first).getTime());
      expect(Math.min(...queued)).toBeGreaterThanOrEqual(Math.max(...previous));
    }
    const progress = seen.slice(before).filter((e) => e.name === 'RolloutProgress' && 'rollout' in e && e.rollout.rolloutId === id);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toMatchObject({ rollout: { status: 'Completed', counts: { Succeeded: 12 } }, customerProduction: false });
  }, 60_000);

  it('halts by itself when a wave fails past the threshold; the next wave stays Pending; resume goes on at the next wave', async () => {
    const ids = await freshMachines(12);
    for (const machineId of ids.slice(1, 3)) agent.failNext({ machineId, typeName: 'UpdateSoftware', message: 'Simulated deploy failure' });
    const id = await start(ids);
    const halted = await runUntil(id, ['Halted', 'Completed']);
    expect(halted.status).toBe('Halted');
    expect(halted.currentWave).toBe(1);
    expect(halted.reason).toMatch(/^Wave 2: 2 of 2 targets failed, more than the threshold \(1 targets or 10 %\): .*UpdateSoftware failed on/);
    expect(halted.waves.map((w) => w.status)).toEqual(['Succeeded', 'Halted', 'Pending']);
    expect(halted.waves[2]!.counts).toMatchObject({ Pending: 9 });
    expect((await targetsOf(id)).filter((x) => x.wave === 2).every((x) => x.state === 'Pending')).toBe(true);
    const { rows } = await db().execute<{ user_name: string }>(
      sql`select user_name from audit_activities where action = 'RolloutHalted' and (params->>'rolloutId')::int = ${id}`,
    );
    expect(rows.map((r) => r.user_name)).toEqual(['Rollout']);
    // Nothing of wave 3 was applied.
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0, 1]);

    const resumed = await t.call({ method: 'POST', url: `/rollouts/${id}/resume`, as: 'operator' });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ status: 'Running', currentWave: 2, reason: null });
    const done = await runUntil(id, ['Completed', 'Halted']);
    expect(done.status).toBe('Completed');
    expect(done.counts).toMatchObject({ Succeeded: 10, Failed: 2 });
  }, 60_000);

  it("fails a wave's targets that have not deployed within the wave timeout", async () => {
    const ids = await freshMachines(2);
    await operations.stop();
    try {
      const id = await start(ids, { waves: [{ kind: 'count', value: 2 }], waveTimeoutMinutes: 5 });
      await rolloutPass({ db: db(), updates: applier, events });
      expect((await get(id)).counts).toMatchObject({ Deploying: 2 });
      await rolloutPass({ db: db(), updates: applier, events, now: () => new Date(Date.now() + 6 * 60_000) });
      const r = await get(id);
      expect(r.status).toBe('Halted');
      expect((await targetsOf(id)).map((x) => [x.state, x.detail])).toEqual([
        ['Failed', 'Timed out: not deployed 5 minutes after the wave started'],
        ['Failed', 'Timed out: not deployed 5 minutes after the wave started'],
      ]);
    } finally {
      await operations.start();
    }
  }, 60_000);

  it('halts when a wave\'s update is refused (a rule, a target gone): nothing of that wave is applied, its targets NotApplied', async () => {
    const ids = await freshMachines(3);
    const refusing: SoftwareUpdateApplier = {
      plan: applier.plan,
      async apply(tx, o) {
        if (o.targetIds.includes(ids[1]!)) {
          await applier.apply(tx, o);
          throw new HttpProblem(422, 'Unprocessable Content', '1 target(s) refused; nothing was changed', [
            { propertyName: 'machines.1', errorMessage: 'Machine is being terminated', attemptedValue: ids[1] },
          ]);
        }
        return applier.apply(tx, o);
      },
    };
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] });
    const end = Date.now() + 30_000;
    let r = await get(id);
    while (r.status === 'Running' && Date.now() < end) {
      await rolloutPass({ db: db(), updates: refusing, events });
      await new Promise((resolve) => setTimeout(resolve, 100));
      r = await get(id);
    }
    expect(r.status).toBe('Halted');
    expect(r.reason).toBe('Wave 2 was refused: 1 target(s) refused; nothing was changed (machines.1: Machine is being terminated)');
    expect((await targetsOf(id)).map((x) => x.state)).toEqual(['Succeeded', 'NotApplied', 'NotApplied']);
    // The refused wave wrote nothing: no activity, no desired version.
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0]);
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from machines where id = any(${sql.param(ids.slice(1))}::int[]) and desired_versions->>'launcher' = any(${sql.param(ids.slice(1).map((m) => targetVersion.get(m)!))}::text[])`,
    );
    expect(rows[0]!.n).toBe(0);
  }, 60_000);

  it('survives a restart mid-rollout: a new engine finishes it and no target is applied twice', async () => {
    const ids = await freshMachines(12);
    const id = await start(ids);
    const first = startRolloutEngine({ db: db(), updates: applier, events, everyMs: 50, listen: false });
    // Stop the first engine once wave 2 has been applied (its targets Deploying or done).
    const end = Date.now() + 30_000;
    while ((await get(id)).currentWave < 1 || (await waveActivities(id)).length < 2) {
      if (Date.now() > end) throw new Error('wave 2 was never applied');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.stop();
    const second = startRolloutEngine({ db: db(), updates: applier, events, everyMs: 50 });
    try {
      const done = await runUntil(id, ['Completed', 'Halted'], second);
      expect(done.status, done.reason ?? '').toBe('Completed');
    } finally {
      await second.stop();
    }
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0, 1, 2]);
    const updates = await updatesPerMachine(ids);
    expect(ids.map((m) => updates.get(m)?.n)).toEqual(ids.map(() => 1));
  }, 60_000);

  it('never applies a wave twice with two engines passing at once', async () => {
    const ids = await freshMachines(3);
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] });
    await Promise.all([
      rolloutPass({ db: db(), updates: applier, events }),
      rolloutPass({ db: db(), updates: applier, events }),
      rolloutPass({ db: db(), updates: applier, events }),
    ]);
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0]);
    await runUntil(id, ['Completed', 'Halted']);
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0, 1]);
  }, 60_000);
});

describe('a rollout started by POST /software-update/update-machines', () => {
  it('applies the real software update wave by wave, audits the request and each wave, and completes', async () => {
    const ids = await freshMachines(4);
    const { rows } = await db().execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' and b.name = 'master' order by c.timestamp asc, c.id asc limit 1`);
    const version = rows[0]!.v;
    const body = { machines: ids, launcherVersionMode: 'Select', launcherVersion: version, rollout: { waves: [{ kind: 'count', value: 1 }] } };
    const res = await t.call({ method: 'POST', url: '/software-update/update-machines', as: 'operator', body });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json() as { rolloutId: number; activityId: number; targets: { id: number }[] };
    expect(started.targets.map((x) => x.id)).toEqual(ids);
    const { rows: startActivity } = await db().execute<{ action: string; params: Record<string, unknown> }>(
      sql`select action, params from audit_activities where id = ${started.activityId}`,
    );
    expect(startActivity[0]).toMatchObject({ action: 'UpdateMachinesSoftware', params: { machineIds: ids, rolloutId: started.rolloutId } });
    // Nothing is applied before the engine's pass.
    const { rows: untouched } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from machines where id = any(${sql.param(ids)}::int[]) and desired_activity_id = ${started.activityId}`,
    );
    expect(untouched[0]!.n).toBe(0);

    const id = started.rolloutId;
    const end = Date.now() + 30_000;
    let r = await get(id);
    while (r.status === 'Running' && Date.now() < end) {
      await rolloutPass({ db: db(), updates: SOFTWARE_UPDATE_APPLIER, events });
      await new Promise((resolve) => setTimeout(resolve, 100));
      r = await get(id);
    }
    expect(r.status, r.reason ?? '').toBe('Completed');
    expect(r.createdBy).toBe('operator');
    expect(r.config).toEqual({ launcherVersionMode: 'Select', launcherVersion: version });
    expect(r.counts.Succeeded + r.counts.Skipped).toBe(4);
    expect(r.counts.Succeeded).toBeGreaterThan(0);
    const waves = await waveActivities(id);
    expect(waves.map((a) => [a.wave, a.user_name])).toEqual([
      [0, 'operator'],
      [1, 'operator'],
    ]);
    const { rows: current } = await db().execute<{ launcher: string | null }>(
      sql`select current_versions->>'launcher' as launcher from machines where id = any(${sql.param(ids)}::int[])`,
    );
    expect(current.every((m) => m.launcher === version)).toBe(true);
  }, 60_000);
});

describe('operator control and visibility', () => {
  const post = (id: number, to: string, as = 'operator') => t.call({ method: 'POST', url: `/rollouts/${id}/${to}`, as });

  it('pauses (no new wave starts) and resumes; 409 for a transition the status refuses; audited', async () => {
    const ids = await freshMachines(3);
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] });
    expect((await post(id, 'resume')).statusCode).toBe(409);
    const paused = await post(id, 'pause');
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ status: 'Paused', reason: 'Paused by operator' });
    expect((await post(id, 'pause')).statusCode).toBe(409);
    await rolloutPass({ db: db(), updates: applier, events });
    await rolloutPass({ db: db(), updates: applier, events });
    expect(await waveActivities(id)).toEqual([]);
    expect((await get(id)).counts).toMatchObject({ Pending: 3 });
    expect((await post(id, 'resume')).json()).toMatchObject({ status: 'Running', currentWave: 0 });
    const done = await runUntil(id, ['Completed', 'Halted']);
    expect(done.status).toBe('Completed');
    const conflict = await post(id, 'abort');
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ detail: `Rollout ${id} is Completed: it cannot be aborted` });
    const { rows } = await db().execute<{ action: string; user_name: string; changes: unknown }>(sql`
      select action, user_name, changes from audit_activities where action in ('PauseRollout', 'ResumeRollout') and (params->>'rolloutId')::int = ${id} order by id`);
    expect(rows.map((r) => [r.action, r.user_name])).toEqual([
      ['PauseRollout', 'operator'],
      ['ResumeRollout', 'operator'],
    ]);
    expect(rows[0]!.changes).toEqual(expect.arrayContaining([{ entityName: `Rollout ${id}`, propertyName: 'status', oldValue: 'Running', newValue: 'Paused' }]));
  }, 60_000);

  it('aborts: Pending targets become NotApplied, applied ones stay', async () => {
    const ids = await freshMachines(3);
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] });
    await rolloutPass({ db: db(), updates: applier, events });
    const res = await post(id, 'abort');
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as TRollout;
    expect(r).toMatchObject({ status: 'Aborted', reason: 'Aborted by operator' });
    expect(r.waves.map((w) => w.status)).toEqual([expect.stringMatching(/Running|Succeeded/), 'NotApplied']);
    const targets = await targetsOf(id);
    expect(targets[0]!.state).not.toBe('NotApplied');
    expect(targets.slice(1).map((x) => [x.state, x.detail])).toEqual([
      ['NotApplied', 'Not applied: the rollout was aborted by operator'],
      ['NotApplied', 'Not applied: the rollout was aborted by operator'],
    ]);
    await rolloutPass({ db: db(), updates: applier, events });
    expect((await waveActivities(id)).length).toBe(1);
    expect((await post(id, 'resume')).statusCode).toBe(409);
  }, 60_000);

  it('hides a rollout with a Customer Production target from an operator without the group (404, absent from the list)', async () => {
    const ids = await freshMachines(1, true);
    const id = await start(ids, {}, 'admin');
    expect((await t.call({ method: 'GET', url: `/rollouts/${id}`, as: 'operator' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/rollouts/${id}/targets`, as: 'operator' })).statusCode).toBe(404);
    expect((await post(id, 'pause')).statusCode).toBe(404);
    const list = (await t.call({ method: 'GET', url: '/rollouts', as: 'operator', query: { limit: '1000' } })).json() as { items: { id: number }[] };
    expect(list.items.map((x) => x.id)).not.toContain(id);
    const all = (await t.call({ method: 'GET', url: '/rollouts', as: 'admin', query: { limit: '1000' } })).json() as { items: { id: number }[] };
    expect(all.items.map((x) => x.id)).toContain(id);
    expect(all.items.map((x) => x.id)).toEqual([...all.items.map((x) => x.id)].sort((a, b) => b - a));
    expect((await post(id, 'abort', 'admin')).statusCode).toBe(200);
  });

  it('needs write: a viewer may not read rollouts (403)', async () => {
    expect((await t.call({ method: 'GET', url: '/rollouts', as: 'viewer' })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/rollouts/1', as: 'viewer' })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/rollouts/2147483000', as: 'operator' })).statusCode).toBe(404);
    const bad = await t.call({ method: 'GET', url: '/rollouts', as: 'operator', query: { status: 'Sleeping' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('status');
  });
});

/**
 * `rollout_waves` (migration 0026) as a recount of `rollout_targets` would
 * give it, for every rollout of the database: counts per state, size, start
 * (the earliest activity of its targets) and last change (their latest
 * `updated_at`); a wave without targets has no row.
 */
async function expectWavesRecounted() {
  const { rows: kept } = await db().execute(sql`
    select rollout_id, wave, pending, deploying, succeeded, failed, skipped, not_applied, size, started_at, last_change_at
    from rollout_waves order by rollout_id, wave`);
  const { rows: recounted } = await db().execute(sql`
    select t.rollout_id, t.wave,
      count(*) filter (where t.state = 'Pending')::int as pending, count(*) filter (where t.state = 'Deploying')::int as deploying,
      count(*) filter (where t.state = 'Succeeded')::int as succeeded, count(*) filter (where t.state = 'Failed')::int as failed,
      count(*) filter (where t.state = 'Skipped')::int as skipped, count(*) filter (where t.state = 'NotApplied')::int as not_applied,
      count(*)::int as size, min(a.time) as started_at, max(t.updated_at) as last_change_at
    from rollout_targets t left join audit_activities a on a.id = t.activity_id
    group by t.rollout_id, t.wave order by t.rollout_id, t.wave`);
  expect(kept).toEqual(recounted);
  return kept.length;
}

describe('rollout_waves', () => {
  it('equals a recount of the targets after waves, a halt, a resume and an abort, and the API reads it', async () => {
    expect(await expectWavesRecounted()).toBeGreaterThan(0);
    const ids = await freshMachines(12);
    for (const machineId of ids.slice(1, 3)) agent.failNext({ machineId, typeName: 'UpdateSoftware', message: 'Simulated deploy failure' });
    const id = await start(ids);
    await expectWavesRecounted();
    const halted = await runUntil(id, ['Halted', 'Completed']);
    expect(halted.status).toBe('Halted');
    await expectWavesRecounted();
    expect(halted.waves.map((w) => [w.size, w.counts.Failed, w.startedAt !== null, w.finishedAt !== null])).toEqual([
      [1, 0, true, true],
      [2, 2, true, true],
      [9, 0, false, false],
    ]);
    // The wave started at its RolloutWave activity; it finished at its last target's change.
    const activities = await waveActivities(id);
    expect(halted.waves.slice(0, 2).map((w) => w.startedAt)).toEqual(activities.map((a) => new Date(a.time).toISOString()));
    const targets = await targetsOf(id);
    const last = targets.filter((x) => x.wave === 1).map((x) => x.updatedAt).sort().at(-1);
    expect(halted.waves[1]!.finishedAt).toBe(last);

    expect((await t.call({ method: 'POST', url: `/rollouts/${id}/resume`, as: 'operator' })).statusCode).toBe(200);
    await rolloutPass({ db: db(), updates: applier, events });
    await expectWavesRecounted();
    const aborted = await t.call({ method: 'POST', url: `/rollouts/${id}/abort`, as: 'operator' });
    expect(aborted.statusCode, aborted.body).toBe(200);
    await expectWavesRecounted();
    const r = await get(id);
    expect(r.counts).toEqual({
      Pending: 0,
      Deploying: r.waves[2]!.counts.Deploying,
      Succeeded: 1 + r.waves[2]!.counts.Succeeded,
      Failed: 2 + r.waves[2]!.counts.Failed,
      Skipped: r.waves[2]!.counts.Skipped,
      NotApplied: 0,
    });
    const list = (await t.call({ method: 'GET', url: '/rollouts', as: 'admin', query: { limit: '1000' } })).json() as { items: TRollout[] };
    expect(list.items.find((x) => x.id === id)!.counts).toEqual(r.counts);
  }, 60_000);

  it('follows any statement on the targets: a wave moved, targets deleted, a rollout deleted', async () => {
    const ids = await freshMachines(4);
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }, { kind: 'count', value: 1 }] });
    await db().execute(sql`update rollout_targets set wave = 5, state = 'Failed', updated_at = now() where rollout_id = ${id} and position = 1`);
    await expectWavesRecounted();
    expect((await get(id)).waves.map((w) => w.size)).toEqual([1, 0, 2, 0, 0, 1]);
    await db().execute(sql`delete from rollout_targets where rollout_id = ${id} and position >= 2`);
    await expectWavesRecounted();
    expect((await get(id)).waves.map((w) => w.size)).toEqual([1, 0, 0, 0, 0, 1]);
    await db().execute(sql`delete from rollouts where id = ${id}`);
    expect(await expectWavesRecounted()).toBeGreaterThan(0);
    const { rows } = await db().execute(sql`select 1 from rollout_waves where rollout_id = ${id}`);
    expect(rows).toEqual([]);
  }, 60_000);
});
