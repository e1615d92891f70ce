/**
 * `rollout_waves`, the per-wave counts the rollout reads come from (migration
 * 0026; `README.md` "Wave progress is exact"; fixtures in
 * `rollouts.fixtures.ts`): equal to a recount of `rollout_targets` after the
 * engine's and the operator's changes and after any statement on the targets.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TRollout } from '@fleet/contracts';
import { rolloutPass } from './engine.js';
import { useRolloutApp } from './rollouts.fixtures.js';

const f = useRolloutApp();
const { db, events, applier, freshMachines, start, get, targetsOf, runUntil, waveActivities } = f;

/**
 * `rollout_waves` (migration 0026) as a recount of `rollout_targets` would
 * give it, for every rollout of the database: counts per state, size, start
 * (the earliest activity of its targets) and last change (their latest
 * `updated_at`); a wave without targets has no row.
 */
async function expectWavesRecounted() {
  const { rows: kept } = await db().execute(sql`
    select rollout_id, wave, pending, deploying, awaiting_approval, succeeded, failed, skipped, not_applied, size, started_at, last_change_at
    from rollout_waves order by rollout_id, wave`);
  const { rows: recounted } = await db().execute(sql`
    select t.rollout_id, t.wave,
      count(*) filter (where t.state = 'Pending')::int as pending, count(*) filter (where t.state = 'Deploying')::int as deploying,
      count(*) filter (where t.state = 'AwaitingApproval')::int as awaiting_approval,
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
    // A rollout run to the end first: the rows of its two waves are there to recount.
    const first = await start(await freshMachines(3), { waves: [{ kind: 'count', value: 1 }] });
    expect((await runUntil(first, ['Completed', 'Halted'])).status).toBe('Completed');
    expect(await expectWavesRecounted()).toBe(2);
    const ids = await freshMachines(12);
    for (const machineId of ids.slice(1, 3)) f.agent.failNext({ machineId, typeName: 'UpdateSoftware', message: 'Simulated deploy failure' });
    const id = await start(ids);
    await expectWavesRecounted();
    let halted = await runUntil(id, ['Halted', 'Completed']);
    expect(halted.status).toBe('Halted');
    // Halted at the first failure (past 10 % of 2), the wave's other target is still followed to its end.
    for (const end = Date.now() + 15_000; halted.waves[1]!.counts.Deploying > 0 && Date.now() < end; halted = await get(id)) {
      await rolloutPass({ db: db(), updates: applier, events });
    }
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

    expect((await f.t.call({ method: 'POST', url: `/rollouts/${id}/resume`, as: 'operator' })).statusCode).toBe(200);
    await rolloutPass({ db: db(), updates: applier, events });
    await expectWavesRecounted();
    const aborted = await f.t.call({ method: 'POST', url: `/rollouts/${id}/abort`, as: 'operator' });
    expect(aborted.statusCode, aborted.body).toBe(200);
    await expectWavesRecounted();
    const r = await get(id);
    expect(r.counts).toEqual({
      Pending: 0,
      Deploying: r.waves[2]!.counts.Deploying,
      AwaitingApproval: 0,
      Succeeded: 1 + r.waves[2]!.counts.Succeeded,
      Failed: 2 + r.waves[2]!.counts.Failed,
      Skipped: r.waves[2]!.counts.Skipped,
      NotApplied: 0,
    });
    const list = (await f.t.call({ method: 'GET', url: '/rollouts', as: 'admin', query: { limit: '1000' } })).json() as { items: TRollout[] };
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
