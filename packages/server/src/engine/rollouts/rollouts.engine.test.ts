/**
 * The rollout engine (DESIGN §15; `README.md`) against a real PostgreSQL with the
 * demo fleet and the simulated agent (`rollouts.fixtures.ts`): waves in order
 * (1, 10 %, the rest), each applied once and after the previous one's deploys
 * ended; the halt threshold (failures injected through the agent's
 * `failNext`); the wave timeout; a wave the real software update refuses (a
 * target being terminated, a target deleted since the start); three passes at
 * once applying each wave once; a wave released maxConcurrent targets at a
 * time, halted at its threshold before the rest of it is released. A worker killed mid-pass is
 * `rollouts.restart.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_WAVES, ZSoftwareUpdateConfig } from '@fleet/contracts';
import { rolloutPass } from './engine.js';
import { SOFTWARE_UPDATE_APPLIER } from './software-update-applier.js';
import { concurrencyOf, splitWaves, thresholdExceeded } from './waves.js';
import { useRolloutApp } from './rollouts.fixtures.js';

const f = useRolloutApp();
const { db, events, applier, freshMachines, start, get, targetsOf, runUntil, waveActivities, updatesPerMachine } = f;

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

describe('the cap and the threshold', () => {
  it('lets at most maxConcurrent targets of a wave deploy at once (a count, or a percentage of the wave rounded up)', () => {
    expect(concurrencyOf(10, undefined)).toBe(10);
    expect(concurrencyOf(10, { kind: 'count', value: 3 })).toBe(3);
    expect(concurrencyOf(10, { kind: 'percent', value: 25 })).toBe(3);
    expect(concurrencyOf(10, { kind: 'percent', value: 0.1 })).toBe(1);
  });

  it('is exceeded by more than maxFailedTargets failures, or more than maxFailedPercent % of the wave', () => {
    const plan = { maxFailedTargets: 1, maxFailedPercent: 10 };
    expect(thresholdExceeded(1, 100, plan)).toBe(false);
    expect(thresholdExceeded(2, 100, plan)).toBe(true);
    expect(thresholdExceeded(1, 5, plan)).toBe(true);
    expect(thresholdExceeded(0, 5, { maxFailedTargets: 0, maxFailedPercent: 0 })).toBe(false);
  });
});

describe('the rollout engine', () => {
  it('applies the waves in order (1, 10 %, the rest), each after the previous wave deployed, and completes', async () => {
    const ids = await freshMachines(12);
    const id = await start(ids);
    const before = f.seen.length;
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
    expect(ids.map((m) => updates.get(m)?.n)).toEqual(ids.map(() => 1));
    // Each wave's deploys were queued after the deploys of the one before had ended.
    for (const w of [1, 2]) {
      const previous = targets.filter((x) => x.wave === w - 1).map((x) => new Date(updates.get(x.id)!.last).getTime());
      const queued = targets.filter((x) => x.wave === w).map((x) => new Date(updates.get(x.id)!.first).getTime());
      expect(Math.min(...queued)).toBeGreaterThanOrEqual(Math.max(...previous));
    }
    const progress = f.seen.slice(before).filter((e) => e.name === 'RolloutProgress' && 'rollout' in e && e.rollout.rolloutId === id);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toMatchObject({ rollout: { status: 'Completed', counts: { Succeeded: 12 } }, customerProduction: false });
  }, 60_000);

  it('halts by itself when a wave fails past the threshold; the next wave stays Pending; resume goes on at the next wave', async () => {
    const ids = await freshMachines(12);
    for (const machineId of ids.slice(1, 3)) f.agent.failNext({ machineId, typeName: 'UpdateSoftware', message: 'Simulated deploy failure' });
    const id = await start(ids);
    const halted = await runUntil(id, ['Halted', 'Completed']);
    expect(halted.status).toBe('Halted');
    expect(halted.currentWave).toBe(1);
    // 10 % of 2 targets: the first failure is past the threshold, so the halt may come before the second target ends.
    expect(halted.reason).toMatch(/^Wave 2: [12] of 2 targets failed, more than the threshold \(1 targets or 10 %\): .*UpdateSoftware failed on/);
    expect(halted.waves.map((w) => w.status)).toEqual(['Succeeded', 'Halted', 'Pending']);
    expect(halted.waves[2]!.counts).toMatchObject({ Pending: 9 });
    expect((await targetsOf(id)).filter((x) => x.wave === 2).map((x) => x.state)).toEqual(Array(9).fill('Pending'));
    const { rows } = await db().execute<{ user_name: string }>(
      sql`select user_name from audit_activities where action = 'RolloutHalted' and (params->>'rolloutId')::int = ${id}`,
    );
    expect(rows.map((r) => r.user_name)).toEqual(['Rollout']);
    // Nothing of wave 3 was applied.
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0, 1]);

    const resumed = await f.t.call({ method: 'POST', url: `/rollouts/${id}/resume`, as: 'operator' });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ status: 'Running', currentWave: 2, reason: null });
    const done = await runUntil(id, ['Completed', 'Halted']);
    expect(done.status).toBe('Completed');
    expect(done.counts).toMatchObject({ Succeeded: 10, Failed: 2 });
  }, 60_000);

  it("fails a wave's targets that have not deployed within the wave timeout", async () => {
    const ids = await freshMachines(2);
    await f.operations.stop();
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
      await f.operations.start();
    }
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

describe('a wave the real software update refuses', () => {
  /** What the update writes on a machine: its overrides, desired versions and their cause. */
  async function versionState(ids: number[]) {
    const { rows } = await db().execute(sql`
      select id, version_overrides, desired_versions, desired_activity_id from machines where id = any(${sql.param(ids)}::int[]) order by id`);
    return rows;
  }

  /**
   * Starts a rollout of a real update (launcher Select) to `ids` in waves of 1
   * and the rest, runs the engine's pass that applies wave 1, does `between`
   * (through the API) while wave 1 deploys, and runs the engine until it
   * stops. Expects the halt and nothing of wave 2 written (no RolloutWave
   * activity, its machines' versions as before `between`, its targets
   * NotApplied); answers the halt reason.
   */
  async function refusedAfterWave1(ids: number[], between: () => Promise<void>): Promise<string | null> {
    const config = ZSoftwareUpdateConfig.parse({ launcherVersionMode: 'Select', launcherVersion: await f.launcherVersionForAll(ids) });
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] }, 'operator', config);
    await rolloutPass({ db: db(), updates: SOFTWARE_UPDATE_APPLIER, events });
    expect((await get(id)).waves.map((w) => w.status)).toEqual(['Running', 'Pending']);
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0]);
    const wave2 = await versionState(ids.slice(1));
    await between();
    const r = await runUntil(id, ['Halted', 'Completed'], { updates: SOFTWARE_UPDATE_APPLIER });
    expect(r.status, r.reason ?? '').toBe('Halted');
    expect(r.waves.map((w) => w.status)).toEqual(['Succeeded', 'NotApplied']);
    expect((await targetsOf(id)).map((x) => x.state)).toEqual(['Succeeded', 'NotApplied', 'NotApplied']);
    expect((await waveActivities(id)).map((a) => a.wave)).toEqual([0]);
    expect(await versionState(ids.slice(1))).toEqual(wave2);
    return r.reason;
  }

  const machineName = async (id: number) => (await db().execute<{ name: string }>(sql`select name from machines where id = ${id}`)).rows[0]!.name;

  it('halts when a target is being terminated before its wave (422, the rule): that wave NotApplied, nothing of it written', async () => {
    const ids = await freshMachines(3);
    const reason = await refusedAfterWave1(ids, async () => {
      const res = await f.t.call({ method: 'POST', url: `/machines/${ids[1]}/terminate`, as: 'operator' });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(reason).toBe(`Wave 2 was refused: 1 target(s) refused; nothing was changed (machines.0: ${await machineName(ids[1]!)}: The machine is being terminated)`);
  }, 60_000);

  it("halts when a target's account was deleted before its wave (404, a target gone): that wave NotApplied, nothing of it written", async () => {
    // Three machines of three accounts: deleting the second one's account leaves the others.
    const candidates = await freshMachines(12);
    const { rows } = await db().execute<{ id: number }>(sql`
      select distinct on (account_id) id from machines where id = any(${sql.param(candidates)}::int[]) order by account_id, id`);
    const ids = rows.map((r) => r.id).slice(0, 3);
    expect(ids).toHaveLength(3);
    const account = (await db().execute<{ account_id: number }>(sql`select account_id from machines where id = ${ids[1]}`)).rows[0]!.account_id;
    const reason = await refusedAfterWave1(ids, async () => {
      const res = await f.t.call({ method: 'DELETE', url: `/accounts/${account}`, as: 'operator' });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(reason).toBe(`Wave 2 was refused: 1 machine(s) were not found (machines.0: Machine ${ids[1]} was not found)`);
  }, 60_000);

});

describe('a wave under a cap (maxConcurrent) and its threshold (issue 25 point 4)', () => {
  it('releases a wave maxConcurrent targets at a time, the next as earlier ones finish, and completes', async () => {
    const ids = await freshMachines(6);
    const id = await start(ids, { waves: [], maxConcurrent: { kind: 'count', value: 2 } });
    let most = 0;
    let r = await get(id);
    while (r.status === 'Running') {
      await rolloutPass({ db: db(), updates: applier, events });
      r = await get(id);
      most = Math.max(most, r.counts.Deploying + r.counts.AwaitingApproval);
      if (r.status === 'Running') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(r.status, r.reason ?? '').toBe('Completed');
    expect(r.counts).toMatchObject({ Succeeded: 6 });
    expect(most).toBeLessThanOrEqual(2);
    // One wave, applied in releases of at most 2 targets, each after the one before had deployed.
    const releases = await db().execute<{ targets: number[] }>(sql`
      select array(select jsonb_array_elements_text(params->'machines')::int) as targets from audit_activities
      where action = 'RolloutWave' and (params->>'rolloutId')::int = ${id} order by id`);
    expect(releases.rows.length).toBeGreaterThanOrEqual(3);
    expect(releases.rows.every((x) => x.targets.length <= 2)).toBe(true);
    expect(releases.rows.flatMap((x) => x.targets)).toEqual(ids);
    const updates = await updatesPerMachine(ids);
    for (let i = 2; i < 6; i++) {
      const queued = new Date(updates.get(ids[i]!)!.first).getTime();
      const earlierDone = ids.slice(0, i).filter((m) => new Date(updates.get(m)!.last).getTime() <= queued).length;
      expect(earlierDone, `machine ${i + 1} was released with fewer than ${i - 1} earlier ones done`).toBeGreaterThanOrEqual(i - 1);
    }
  }, 60_000);

  it('halts at the 2nd failure of a wave (threshold 1) without releasing the rest of it', async () => {
    const ids = await freshMachines(8);
    for (const machineId of ids.slice(0, 2)) f.agent.failNext({ machineId, typeName: 'UpdateSoftware', message: 'Simulated deploy failure' });
    const id = await start(ids, { waves: [], maxConcurrent: { kind: 'count', value: 2 }, maxFailedTargets: 1, maxFailedPercent: 100 });
    const halted = await runUntil(id, ['Halted', 'Completed']);
    expect(halted.status).toBe('Halted');
    // The first failure frees a slot, so a third target may be released before the second failure: 5 or 6 never are.
    const match = /^Wave 1: 2 of 8 targets failed, more than the threshold \(1 targets or 100 %\): .*; ([56]) targets of the wave not released$/.exec(halted.reason!);
    expect(match, halted.reason!).not.toBeNull();
    const notReleased = Number(match![1]);
    expect(halted.counts).toMatchObject({ Failed: 2, NotApplied: notReleased });
    const updates = await updatesPerMachine(ids);
    expect(ids.slice(8 - notReleased).filter((m) => updates.has(m))).toEqual([]);
    expect((await targetsOf(id)).slice(8 - notReleased).map((x) => x.detail)).toEqual(Array(notReleased).fill('Not applied: wave 1 passed its failure threshold'));
  }, 60_000);

  it('halts in the pass that sees the failure before it releases anything more (the failure is evaluated first)', async () => {
    const ids = await freshMachines(4);
    // Every deploy of the second target fails, retries too: it stays to deploy, so only the halt keeps it from a retry.
    f.agent.failNext({ machineId: ids[1]!, typeName: 'UpdateSoftware', message: 'Simulated deploy failure', times: 1000 });
    const id = await start(ids, { waves: [], maxConcurrent: { kind: 'count', value: 2 }, maxFailedTargets: 0, maxFailedPercent: 100 });
    await rolloutPass({ db: db(), updates: applier, events });
    expect((await waveActivities(id)).length).toBe(1);
    // Both deploys end (the second FAILURE) before the next pass; the first target was seen Succeeded by an earlier pass.
    // (The deploy controller may retry the failure at once: the target stays Failed, README "Outcomes".)
    const ended = async () => {
      const { rows } = await db().execute<{ ok: boolean }>(sql`
        select exists (select 1 from operations where machine_id = ${ids[0]!} and type_name = 'UpdateSoftware' and finished_at is not null)
           and exists (select 1 from operations where machine_id = ${ids[1]!} and type_name = 'UpdateSoftware' and status = 'FAILURE') as ok`);
      return rows[0]!.ok;
    };
    const end = Date.now() + 30_000;
    while (!(await ended())) {
      if (Date.now() > end) throw new Error('the two deploys did not end');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await db().execute(sql`update rollout_targets set state = 'Succeeded', updated_at = now() where rollout_id = ${id} and target_id = ${ids[0]}`);
    // One slot is free and the failure is not seen yet: the pass sees the failure first, halts, and releases nothing.
    await rolloutPass({ db: db(), updates: applier, events });
    const halted = await get(id);
    expect(halted.status).toBe('Halted');
    expect((await waveActivities(id)).length).toBe(1);
    expect(halted.counts).toMatchObject({ Succeeded: 1, Failed: 1, NotApplied: 2 });
    // The failed deploy is not retried once the rollout halted (nothing deploys after a rollout gave up). A controller
    // pass that read the machines before the halt committed may still have queued one retry: the first pass here waits
    // for such a pass, and the retry is let end, so that a pass after it would queue the next one if anything did.
    await f.deploys.pass();
    const updatesOf = async () =>
      (await db().execute<{ n: number; unfinished: number }>(sql`
        select count(*)::int as n, count(*) filter (where finished_at is null)::int as unfinished from operations
        where machine_id = ${ids[1]!} and type_name = 'UpdateSoftware'`)).rows[0]!;
    const settled = Date.now() + 30_000;
    while ((await updatesOf()).unfinished > 0) {
      if (Date.now() > settled) throw new Error('the retry queued before the halt did not end');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const afterHalt = (await updatesOf()).n;
    await f.deploys.pass();
    await f.deploys.pass();
    expect((await updatesOf()).n).toBe(afterHalt);
    f.agent.clearFaults();
  }, 60_000);
});
