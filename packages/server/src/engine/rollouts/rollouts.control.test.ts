/**
 * Rollouts through the API (DESIGN §15; `README.md`; fixtures in
 * `rollouts.fixtures.ts`): a rollout started by `POST
 * /software-update/update-machines` applying the real software update wave by
 * wave; pause, resume and abort (409 for a transition the status refuses,
 * audited); no wave while the fleet is frozen; Customer Production rollouts hidden from an operator without the
 * group; no reading for a viewer.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TRollout } from '@fleet/contracts';
import { rolloutPass } from './engine.js';
import { SOFTWARE_UPDATE_APPLIER } from './software-update-applier.js';
import { useRolloutApp } from './rollouts.fixtures.js';

const f = useRolloutApp();
const { db, events, applier, freshMachines, start, get, targetsOf, runUntil, waveActivities } = f;

describe('a rollout started by POST /software-update/update-machines', () => {
  it('applies the real software update wave by wave, audits the request and each wave, and completes', async () => {
    const ids = await freshMachines(4);
    const { rows } = await db().execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' and b.name = 'master' order by c.timestamp asc, c.id asc limit 1`);
    const version = rows[0]!.v;
    const body = { machines: ids, launcherVersionMode: 'Select', launcherVersion: version, rollout: { waves: [{ kind: 'count', value: 1 }] } };
    const res = await f.t.call({ method: 'POST', url: '/software-update/update-machines', as: 'operator', body });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json() as { rolloutId: number; activityId: number; targets: { id: number }[] };
    expect(started.targets.map((x) => x.id)).toEqual(ids);
    const { rows: startActivity } = await db().execute<{ action: string; params: Record<string, unknown>; changes: unknown[] }>(
      sql`select action, params, changes from audit_activities where id = ${started.activityId}`,
    );
    expect(startActivity[0]).toMatchObject({ action: 'UpdateMachinesSoftware', params: { machineIds: ids, rolloutId: started.rolloutId, changedTargets: 4, listedTargets: 4 } });
    // The request lists its targets' changes: which machines, from which version to which.
    expect(startActivity[0]!.changes).toEqual(
      ids.map((id) => ({ entityName: `Machine ${id}`, propertyName: 'launcherVersion', oldValue: expect.any(String), newValue: `Select ${version}` })),
    );
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
    // Numbered from 1 in the activity, as the rollout page shows them.
    expect(waves.map((a) => [a.number, a.user_name])).toEqual([
      [1, 'operator'],
      [2, 'operator'],
    ]);
    const { rows: current } = await db().execute<{ launcher: string | null }>(
      sql`select current_versions->>'launcher' as launcher from machines where id = any(${sql.param(ids)}::int[])`,
    );
    expect(current.every((m) => m.launcher === version)).toBe(true);
  }, 60_000);
});

describe('operator control and visibility', () => {
  const post = (id: number, to: string, as = 'operator') => f.t.call({ method: 'POST', url: `/rollouts/${id}/${to}`, as });

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

  it('releases no wave while the fleet is frozen, and goes on once it is released', async () => {
    const ids = await freshMachines(2);
    const freeze = (body: unknown) => f.t.call({ method: 'PUT', url: '/fleet/freeze', as: 'admin', body });
    expect((await freeze({ frozen: true, reason: 'Change freeze' })).statusCode).toBe(200);
    try {
      const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] });
      for (let i = 0; i < 3; i++) await rolloutPass({ db: db(), updates: applier, events });
      expect(await waveActivities(id)).toEqual([]);
      const frozen = await get(id);
      expect(frozen.counts).toMatchObject({ Pending: 2 });
      expect(frozen.waitingFor).toBe('Waiting for the fleet freeze to be released: frozen by admin: Change freeze');
      expect((await freeze({ frozen: false })).statusCode).toBe(200);
      const done = await runUntil(id, ['Completed', 'Halted']);
      expect(done.status).toBe('Completed');
    } finally {
      await freeze({ frozen: false });
    }
  }, 60_000);

  it("holds a wave whose targets' class has its change windows closed, says until when, and releases it once a window is open", async () => {
    const ids = await freshMachines(2);
    const { rows } = await db().execute<{ class_id: number }>(sql`select class_id from machines where id = ${ids[0]}`);
    const classId = rows[0]!.class_id;
    // Only the day three days from now, all day long (UTC): closed today.
    const day = ((new Date().getUTCDay() + 6 + 3) % 7) + 1;
    const windows = (changeWindows: unknown) => db().execute(sql`update mma_classes set change_windows = ${JSON.stringify(changeWindows)}::jsonb where id = ${classId}`);
    await windows([{ days: [day], start: '00:00', end: '24:00', timeZone: 'UTC' }]);
    try {
      const id = await start(ids, { waves: [{ kind: 'count', value: 1 }] });
      for (let i = 0; i < 3; i++) await rolloutPass({ db: db(), updates: applier, events });
      expect(await waveActivities(id)).toEqual([]);
      const waiting = await get(id);
      expect(waiting.counts).toMatchObject({ Pending: 2 });
      const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][day - 1];
      expect(waiting.waitingFor).toBe(`Waiting for the change window (opens ${weekday} 00:00 UTC)`);
      // Every day: open now.
      await windows([{ days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00', timeZone: 'UTC' }]);
      const done = await runUntil(id, ['Completed', 'Halted']);
      expect(done.status).toBe('Completed');
      expect(done.waitingFor).toBeNull();
    } finally {
      await windows([]);
    }
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
    expect((await f.t.call({ method: 'GET', url: `/rollouts/${id}`, as: 'operator' })).statusCode).toBe(404);
    expect((await f.t.call({ method: 'GET', url: `/rollouts/${id}/targets`, as: 'operator' })).statusCode).toBe(404);
    expect((await post(id, 'pause')).statusCode).toBe(404);
    const list = (await f.t.call({ method: 'GET', url: '/rollouts', as: 'operator', query: { limit: '1000' } })).json() as { items: { id: number }[] };
    expect(list.items.map((x) => x.id)).not.toContain(id);
    const all = (await f.t.call({ method: 'GET', url: '/rollouts', as: 'admin', query: { limit: '1000' } })).json() as { items: { id: number }[] };
    expect(all.items.map((x) => x.id)).toContain(id);
    expect(all.items.map((x) => x.id)).toEqual([...all.items.map((x) => x.id)].sort((a, b) => b - a));
    expect((await post(id, 'abort', 'admin')).statusCode).toBe(200);
  });

  it('needs write: a viewer may not read rollouts (403)', async () => {
    expect((await f.t.call({ method: 'GET', url: '/rollouts', as: 'viewer' })).statusCode).toBe(403);
    expect((await f.t.call({ method: 'GET', url: '/rollouts/1', as: 'viewer' })).statusCode).toBe(403);
    expect((await f.t.call({ method: 'GET', url: '/rollouts/2147483000', as: 'operator' })).statusCode).toBe(404);
    const bad = await f.t.call({ method: 'GET', url: '/rollouts', as: 'operator', query: { status: 'Sleeping' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('status');
  });
});

