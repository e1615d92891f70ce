/**
 * Health-gated waves (issue 25 point 2; `bake.ts`, `README.md` Bake; fixtures in
 * `rollouts.fixtures.ts`) on the demo fleet with the simulated agent: a wave
 * bakes before the next one starts, a probe issue during the bake fails its
 * target at once (and the threshold halts the rollout), a bake whose probes
 * succeeded enough passes at its end and the next wave starts, and probes under
 * the minimum fail their target when the bake ends. The engine's clock is moved
 * past the bake (`now`); the probe samples and issues are written as the prober
 * writes them.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TRollout } from '@fleet/contracts';
import { rolloutPass } from './engine.js';
import { raiseIssue } from '../issues/raise.js';
import { ensurePartitions } from '../probes/probes.repository.js';
import { sleep, useRolloutApp } from './rollouts.fixtures.js';

const f = useRolloutApp();
const { db, events, applier, freshMachines, start, get, targetsOf } = f;

/** Runs passes (the stand-in update) at the engine clock `now` until `done(rollout)`, at most 30 s. */
async function passUntil(id: number, done: (r: TRollout) => boolean, now?: () => Date): Promise<TRollout> {
  const end = Date.now() + 30_000;
  for (;;) {
    await rolloutPass({ db: db(), updates: applier, events, now });
    const r = await get(id);
    if (done(r)) return r;
    if (Date.now() > end) throw new Error(`rollout ${id}: ${r.status} ${JSON.stringify(r.waves.map((w) => [w.status, w.counts]))}`);
    await sleep(100);
  }
}

/** Stores probe samples of `machineId` (kind 0, the launcher) at `at`: `ok` successes and `failed` failures. */
async function probes(machineId: number, at: Date, ok: number, failed: number) {
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  await ensurePartitions(db(), [hour]);
  const oks = [...Array(ok).fill(true), ...Array(failed).fill(false)] as boolean[];
  await db().execute(sql`
    insert into probe_samples (at, machine_id, latency_ms, kind, ok)
    select ${at.toISOString()}::timestamptz, ${machineId}, case when t.ok then 20 end, 0, t.ok from unnest(${sql.param(oks)}::bool[]) as t(ok)`);
}

const baking = (wave: number) => (r: TRollout) => r.waves[wave]?.status === 'Baking';

describe('a wave that bakes', () => {
  it('bakes before the next wave; a probe issue during the bake fails its target at once, and the threshold halts', async () => {
    const ids = await freshMachines(2);
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }], bakeMinutes: 5 });
    const r = await passUntil(id, baking(0));
    const bake = r.waves[0]!.bake!;
    expect(bake).toMatchObject({ result: null, unhealthy: 0 });
    expect(Date.parse(bake.endsAt) - Date.parse(bake.startedAt)).toBe(5 * 60_000);
    expect(r.waves[0]!.counts).toMatchObject({ Succeeded: 1 });
    expect(r.waves[1]!.status).toBe('Pending');
    // More passes inside the bake start nothing.
    await passUntil(id, () => true);
    expect((await get(id)).waves[1]!.status).toBe('Pending');

    await raiseIssue(db(), { machineId: ids[0]!, source: 'probe', description: 'Launcher probe of https://x.example failed: HTTP 503', tags: ['probe'], content: '503' });
    const halted = await passUntil(id, (x) => x.status !== 'Running');
    expect(halted.status).toBe('Halted');
    expect(halted.reason).toMatch(/^Wave 1: 1 of 1 targets failed, more than the threshold/);
    expect(halted.waves[0]!.bake).toMatchObject({ result: 'Failed', unhealthy: 1 });
    const [target] = await targetsOf(id);
    expect(target).toMatchObject({ state: 'Failed' });
    expect(target!.detail).toMatch(/^Unhealthy after deploy: .+: probe: Launcher probe of https:\/\/x\.example failed: HTTP 503$/);
    expect(halted.waves[1]!.status).toBe('Pending');
  }, 60_000);

  it('passes a bake whose probes succeeded enough and starts the next wave after it; probes under the minimum fail at the end', async () => {
    const ids = await freshMachines(2);
    const id = await start(ids, { waves: [{ kind: 'count', value: 1 }], bakeMinutes: 2, minProbeSuccessPercent: 90, maxFailedTargets: 0 });
    const first = (await passUntil(id, baking(0))).waves[0]!.bake!;
    await probes(ids[0]!, new Date(Date.parse(first.startedAt) + 30_000), 19, 1);
    const afterFirst = new Date(Date.parse(first.endsAt) + 1000);
    const next = await passUntil(id, (x) => x.waves[1]!.status !== 'Pending', () => afterFirst);
    expect(next.waves[0]!.bake).toMatchObject({ result: 'Passed', unhealthy: 0 });
    expect(next.waves[0]!.status).toBe('Succeeded');

    const second = (await passUntil(id, baking(1), () => afterFirst)).waves[1]!.bake!;
    await probes(ids[1]!, new Date(Date.parse(second.startedAt) + 30_000), 1, 3);
    // Before its end, the samples alone fail nothing.
    expect((await passUntil(id, () => true, () => afterFirst)).waves[1]!.status).toBe('Baking');
    const done = await passUntil(id, (x) => x.status !== 'Running', () => new Date(Date.parse(second.endsAt) + 1000));
    expect(done.status).toBe('Halted');
    expect(done.waves[1]!.bake).toMatchObject({ result: 'Failed', unhealthy: 1 });
    const detail = (await targetsOf(id))[1]!.detail!;
    expect(detail).toMatch(/'s launcher probes succeeded 25 % of 4 during the bake \(at least 90 % needed\)$/);
  }, 60_000);
});
