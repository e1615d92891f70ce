/**
 * The probe worker (DESIGN §14, README.md here) on a copy of the demo fleet,
 * with a clock the test moves: the spread over the interval, each URL once an
 * interval, an issue occurrence for every failed probe, the simulated latency,
 * the hour/day/week windows from the rollups, idempotent rollups and retention.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { isoTime } from '../../db/sql-json.js';
import { cloudInstances } from '../../db/schema.js';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import type { IssueOccurrence } from '../issues/raise.js';
import { createSimulatedEndpoint, PROBE_TIMEOUT_MS, simulatedLatencyMs, simulatedLoad, type ProbeEndpoint, type ProbeTarget } from './endpoint.js';
import { createProbeEngine, type ProbeEngine } from './prober.js';
import { dueWindow, inWindow, phaseOf } from './schedule.js';
import * as repo from './probes.repository.js';
import { windowFigures } from './windows.js';
import { selectStatisticsPage } from '../../modules/request-statistics/request-statistics.repository.js';

const MIN = 60_000;

describe('the spread over the interval (pure)', () => {
  it('puts 100,000 machines within 2 % of the mean in each second of a 60 s interval', () => {
    const perSecond = new Array<number>(60).fill(0);
    for (let id = 1; id <= 100_000; id++) perSecond[Math.floor(phaseOf(id) * 60)]! += 1;
    const mean = 100_000 / 60;
    for (const n of perSecond) expect(Math.abs(n - mean) / mean).toBeLessThan(0.02);
  });

  it('covers each phase once when the clock moves through an interval in uneven steps, and at most once after a long stop', () => {
    const interval = 60_000;
    const steps = [0, 700, 1700, 2300, 29_999, 30_000, 59_000, 61_000, 65_500, 120_000, 120_001];
    const ids = Array.from({ length: 2000 }, (_, i) => i + 1);
    const hits = new Map<number, number>();
    for (let i = 1; i < steps.length; i++) {
      const w = dueWindow(steps[i - 1]!, steps[i]!, interval);
      for (const id of ids) if (inWindow(phaseOf(id), w)) hits.set(id, (hits.get(id) ?? 0) + 1);
    }
    // 0 → 120,001 ms is two intervals and a millisecond: every phase twice (or three times for the one in the last ms).
    for (const id of ids) expect([2, 3]).toContain(hits.get(id));
    expect(dueWindow(0, 10 * interval, interval)).toEqual({ all: true });
    expect(dueWindow(5, 5, interval)).toEqual({ all: false, ranges: [] });
  });
});

describe('the simulated endpoint (pure)', () => {
  const target = (o: Partial<ProbeTarget> = {}): ProbeTarget => ({
    machineId: 1,
    machineName: 'm1',
    kind: 'launcher',
    url: 'https://a.example',
    instanceStatus: 'running',
    needsAdmin: false,
    busy: false,
    creditCost: 1,
    ...o,
  });
  const at = new Date('2030-01-01T15:00:00Z');

  it('fails when the instance is not running, the machine needs admin, or a fault names it', async () => {
    const endpoint = createSimulatedEndpoint({ failMachines: ['bad'] });
    const [stopped, panic, injected, fine] = await endpoint.probe(
      [target({ instanceStatus: 'stopped' }), target({ needsAdmin: true }), target({ machineName: 'bad' }), target()],
      at,
    );
    expect(stopped).toMatchObject({ ok: false, latencyMs: null, reason: expect.stringContaining('the instance is stopped') });
    expect(panic).toMatchObject({ ok: false, latencyMs: null, reason: expect.stringContaining('needs admin') });
    expect(injected).toMatchObject({ ok: false, latencyMs: null });
    expect(fine).toMatchObject({ ok: true, latencyMs: expect.any(Number) });
    endpoint.failMachine('bad', false);
    endpoint.failMachine('m1', true);
    const [again, now] = await endpoint.probe([target({ machineName: 'bad' }), target()], at);
    expect(again!.ok).toBe(true);
    expect(now!.ok).toBe(false);
  });

  it('draws latency from the instance type and the load: bigger is faster, busy and site master are slower', () => {
    const l = (o: Partial<Parameters<typeof simulatedLatencyMs>[0]>) => simulatedLatencyMs({ creditCost: 1, kind: 'launcher', load: 0.3, gaussian: 0, ...o });
    expect(l({ creditCost: 0.25 })).toBeGreaterThan(l({ creditCost: 4.8 }));
    expect(l({ load: 0.9 })).toBeGreaterThan(l({ load: 0.2 }));
    expect(l({ kind: 'siteMaster' })).toBeCloseTo(l({}) * 1.5);
    expect(l({ creditCost: 0.25, load: 0.2 })).toBeCloseTo((20 + 160 / 1.25) * 1.4);
    expect(simulatedLoad(true, at)).toBe(0.9);
    expect(simulatedLoad(false, new Date('2030-01-01T15:00:00Z'))).toBeCloseTo(0.5);
    expect(simulatedLoad(false, new Date('2030-01-01T03:00:00Z'))).toBeCloseTo(0.2);
  });

  it('answers realistic latencies with jitter, and a failure past the timeout', async () => {
    const endpoint = createSimulatedEndpoint();
    const results = await endpoint.probe(Array.from({ length: 500 }, () => target()), at);
    const latencies = results.map((r) => r.latencyMs!);
    expect(Math.min(...latencies)).toBeGreaterThan(20);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect(new Set(latencies).size).toBeGreaterThan(100);
    // A gaussian draw of about 19 σ-units makes it slower than the timeout.
    const slow = createSimulatedEndpoint({ random: (() => { let i = 0; return () => (i++ % 2 === 0 ? 1 - 1e-80 : 0); })() });
    const [timedOut] = await slow.probe([target()], at);
    expect(timedOut).toMatchObject({ ok: false, reason: expect.stringContaining(`${PROBE_TIMEOUT_MS} ms`) });
  });
});

/** A clock the test moves. */
function testClock(start: Date) {
  let t = start.getTime();
  return { now: () => new Date(t), set: (d: Date) => (t = d.getTime()), add: (ms: number) => (t += ms) };
}

const database = useTestDatabase({ max: 5 });
let accountId: number;

beforeAll(async () => {
  accountId = (await insertAccount(database.db, { name: 'Probe Fixture' })).id;
});

/** A launcher (and site master when `both`) with an active instance of `status`. */
async function probedMachine(o: { status?: string; needsAdmin?: boolean; stop?: boolean; both?: boolean; name?: string } = {}) {
  const m = await insertMachine(database.db, {
    accountId,
    ...(o.name ? { name: o.name } : {}),
    isLauncher: true,
    isSiteMaster: o.both ?? false,
    needsAdmin: o.needsAdmin ?? false,
    stop: o.stop ?? false,
    instanceTypeId: 3,
    componentConfig: { 'launcher.publicUrl': `https://probe-${Math.random().toString(36).slice(2)}.example`, 'siteMaster.siteUrl': 'https://site.example:8080' },
  });
  await database.db.insert(cloudInstances).values({
    machineId: m.id,
    cloudId: `i-probe${m.id}`,
    status: o.status ?? 'running',
    region: 'us-east-1',
    instanceTypeId: 3,
    hostName: `h${m.id}.example`,
    ipAddress: '10.0.0.1',
    privateIpAddress: '10.0.0.2',
    storageSize: 100,
  });
  return m;
}

const setCursor = (at: Date) => database.db.execute(sql`update probe_cursor set through = ${at.toISOString()}::timestamptz where id = 1`);
const samplesOf = async (machineId: number) =>
  (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from probe_samples where machine_id = ${machineId}`)).rows[0]!.n;

describe('the phase in PostgreSQL', () => {
  it('equals phaseOf for every machine, the same for the 8 ids of a block', async () => {
    const { rows } = await database.db.execute<{ id: number; phase: number }>(sql`select m.id, ${repo.PROBE_PHASE} as phase from machines m order by m.id`);
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) expect(r.phase).toBe(phaseOf(r.id));
    expect(new Set([16, 17, 20, 23].map(phaseOf)).size).toBe(1);
    expect(phaseOf(24)).not.toBe(phaseOf(23));
  });
});

describe('ticks on the database', () => {
  let engine: ProbeEngine;
  let clock: ReturnType<typeof testClock>;
  const raised: { occurrence: IssueOccurrence; at?: Date }[] = [];
  /** Calls of the issue sink: one batch per tick that had failures. */
  let batches = 0;
  const endpoint = createSimulatedEndpoint();

  beforeAll(() => {
    clock = testClock(new Date('2031-03-01T10:00:00Z'));
    const raise = async (_db: unknown, occurrences: IssueOccurrence[], at?: Date) => void (batches++, raised.push(...occurrences.map((occurrence) => ({ occurrence, at }))));
    engine = createProbeEngine({ db: database.db, endpoint, intervalS: 60, now: clock.now, raise });
  });

  it('probes every target URL exactly once over an interval of one-second ticks, spread over the ticks', async () => {
    const both = await probedMachine({ both: true });
    const stopped = await probedMachine({ stop: true });
    const starting = await probedMachine({ status: 'pending' });
    await setCursor(clock.now());
    const perTick: number[] = [];
    for (let i = 0; i < 60; i++) {
      clock.add(1000);
      perTick.push(await engine.tick());
    }
    const { rows } = await database.db.execute<{ machine_id: number; kind: number; n: number }>(sql`
      select machine_id, kind, count(*)::int as n from probe_samples where at > '2031-03-01T10:00:00Z' and at <= '2031-03-01T10:01:00Z' group by 1, 2`);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const total = perTick.reduce((a, b) => a + b, 0);
    expect(rows.length).toBe(total);
    // The targets are the machines meant to run with a settled instance, each URL it has.
    const expected = await database.db.execute<{ n: number }>(sql`
      select (count(*) filter (where m.is_launcher and m.component_config ? 'launcher.publicUrl') + count(*) filter (where m.is_site_master and m.component_config ? 'siteMaster.siteUrl'))::int as n
      from machines m join lateral (
        select case when ci.next_status is not null then ci.next_status else ci.status end as status
        from cloud_instances ci where ci.machine_id = m.id and ci.active order by ci.id desc limit 1) i on true
      where m.deleted_at is null and not m.stop and not m.idle and not m.terminate and i.status <> 'pending'`);
    expect(total).toBe(expected.rows[0]!.n);
    expect(rows.filter((r) => r.machine_id === both.id).map((r) => r.kind).sort()).toEqual([0, 1]);
    expect(await samplesOf(stopped.id)).toBe(0);
    expect(await samplesOf(starting.id)).toBe(0);
    // Spread: no second carries more than a few times its share.
    expect(Math.max(...perTick)).toBeLessThanOrEqual(Math.ceil((total / 60) * 3) + 2);
    expect(engine.stats()).toMatchObject({ ticks: 60, probes: total });
  });

  it('probes each URL once after a long stop, not once per missed interval, and skips while another worker holds the cursor', async () => {
    const m = await probedMachine();
    clock.add(10 * MIN);
    await engine.tick();
    expect(await samplesOf(m.id)).toBe(1);
    clock.add(1000);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select * from probe_cursor for update`);
      expect(await engine.tick()).toBe(0);
    });
  });

  it('raises an occurrence for every failed probe of a streak, one batch a tick, naming the machine and the reason', async () => {
    const m = await probedMachine({ needsAdmin: true, name: 'probe-panic' });
    const mine = () => raised.filter((r) => r.occurrence.machineId === m.id);
    const ticks: Date[] = [];
    for (let i = 0; i < 3; i++) {
      clock.add(60_000);
      ticks.push(clock.now());
      const before = batches;
      await engine.tick();
      // Every failure of the tick (ours and the demo fleet's) in one call: one upsert, not one per probe.
      expect(batches - before).toBe(1);
    }
    expect(await samplesOf(m.id)).toBe(3);
    expect(mine()).toHaveLength(3);
    expect(mine().map((r) => r.at)).toEqual(ticks);
    for (const r of mine()) {
      expect(r.occurrence).toEqual({
        machineId: m.id,
        source: 'probe',
        tags: ['probe', 'launcher'],
        description: 'Launcher probe of probe-panic failed: no answer, the machine needs admin (Panic)',
        content: expect.stringMatching(/^GET https:\/\/probe-.*\.example failed: no answer, the machine needs admin \(Panic\)\nInstance: running; needs admin: yes/),
      });
    }
    // The streak is kept in the statistics row: from its first failure to the next success.
    const streak = async () =>
      (await database.db.execute<{ lastOk: boolean; failingSince: string | null }>(sql`
        select last_ok as "lastOk", ${isoTime(sql`failing_since`)} as "failingSince" from request_statistics where machine_id = ${m.id}`)).rows[0];
    expect(await streak()).toEqual({ lastOk: false, failingSince: ticks[0]!.toISOString() });
    await database.db.execute(sql`update machines set needs_admin = false where id = ${m.id}`);
    clock.add(60_000);
    await engine.tick();
    expect(await streak()).toEqual({ lastOk: true, failingSince: null });
    expect(mine()).toHaveLength(3);
    await database.db.execute(sql`update cloud_instances set status = 'stopped' where machine_id = ${m.id}`);
    clock.add(60_000);
    await engine.tick();
    clock.add(60_000);
    await engine.tick();
    expect(mine()).toHaveLength(5);
    expect(mine()[4]!.occurrence.description).toBe('Launcher probe of probe-panic failed: no answer, the instance is stopped');
  });
});

describe('rollups, windows and retention', () => {
  /** The endpoint under test: a fixed answer for the test's machine by hour, the simulated one for the others. */
  const answers = new Map<number, { ok: boolean; latencyMs: number | null }>();
  let machineId = 0;
  const simulated = createSimulatedEndpoint();
  const endpoint: ProbeEndpoint = {
    name: 'test',
    async probe(targets, at) {
      const others = await simulated.probe(targets, at);
      return targets.map((t, i) => (t.machineId === machineId ? answers.get(repo.hourOf(at).getTime())! : others[i]!));
    },
  };
  const h0 = new Date('2032-06-10T12:00:00Z');
  const clock = testClock(h0);
  let engine: ProbeEngine;

  const figures = async () => {
    const page = await selectStatisticsPage(database.db, { hiddenClassIds: [], machineId, startIndex: 0, limit: 10, now: clock.now() });
    expect(page.rows).toHaveLength(1);
    return { row: page.rows[0]!, ...windowFigures(page.rows[0]!, clock.now()) };
  };

  /** Ticks every 10 minutes (the interval: each tick probes every URL once) from `from` for `count` ticks. */
  async function tickEvery10(from: Date, count: number) {
    clock.set(from);
    await setCursor(new Date(from.getTime() - 10 * MIN));
    for (let i = 0; i < count; i++) {
      await engine.tick();
      clock.add(10 * MIN);
    }
  }

  beforeAll(async () => {
    machineId = (await probedMachine()).id;
    engine = createProbeEngine({ db: database.db, endpoint, intervalS: 600, now: clock.now, raise: async () => {} });
    const at = (h: number) => repo.addHours(h0, h).getTime();
    answers.set(at(-48), { ok: true, latencyMs: 1000 });
    answers.set(at(-3), { ok: true, latencyMs: 100 });
    answers.set(at(-1), { ok: true, latencyMs: 300 });
    answers.set(at(0), { ok: true, latencyMs: 400 });
    // Two days back: one hour of probes, six of them.
    await tickEvery10(repo.addHours(h0, -48), 6);
    // H0-3 … H0+30 min: six probes an hour, the current hour four (at :00, :10, :20, :30).
    let twoAgo = 0;
    answers.set(at(-2), { ok: true, latencyMs: 200 });
    const alternating: ProbeEndpoint = {
      name: 'alternating',
      async probe(targets, when) {
        const results = await endpoint.probe(targets, when);
        if (repo.hourOf(when).getTime() !== at(-2)) return results;
        twoAgo += 1;
        return targets.map((t, i) => (t.machineId === machineId && twoAgo % 2 === 0 ? { ok: false, latencyMs: null, reason: 'down' } : results[i]!));
      },
    };
    engine = createProbeEngine({ db: database.db, endpoint: alternating, intervalS: 600, now: clock.now, raise: async () => {} });
    await tickEvery10(repo.addHours(h0, -3), 22);
    clock.set(new Date(h0.getTime() + 30 * MIN));
  });

  it('answers the live hour from the accumulators before any rollup', async () => {
    const f = await figures();
    // hour: the current hour (4 × 400) + half the previous one (6 × 300 × 0.5) = 2500 ms over 4 + 3 successes.
    expect(f.avgHour).toBeCloseTo(2500 / 7, 1);
    expect(f.succHour).toBe(1);
    // day and week without rollups: the current and the previous hour only.
    expect(f.avgDay).toBeCloseTo(3400 / 10, 1);
    expect(f.row.lastLatencyMs).toBe(400);
    expect(f.row.lastOk).toBe(true);
  });

  it('rolls each closed hour up once and adds the rollups to the day and the week', async () => {
    const pass = await engine.maintain();
    const hours = pass.rolledUp.map((h) => h.toISOString());
    expect(hours).toEqual(expect.arrayContaining([-48, -3, -2, -1].map((h) => repo.addHours(h0, h).toISOString())));
    expect(hours).not.toContain(h0.toISOString());
    const f = await figures();
    // day: current 4 × 400 + previous 6 × 300 + H0-3 6 × 100 + H0-2 3 × 200 of 6 = 4600 ms over 19 successes of 22.
    expect(f.avgDay).toBeCloseTo(4600 / 19, 1);
    expect(f.succDay).toBeCloseTo(19 / 22, 4);
    // week: and two days ago, 6 × 1000.
    expect(f.avgWeek).toBeCloseTo(10_600 / 25, 1);
    expect(f.succWeek).toBeCloseTo(25 / 28, 4);
    expect(f.avgHour).toBeCloseTo(2500 / 7, 1);
    // A second pass rolls nothing up again.
    expect((await engine.maintain()).rolledUp).toEqual([]);
  });

  it('counts a rollup that runs twice once', async () => {
    const before = await figures();
    const hour = repo.addHours(h0, -2);
    const rows = async () =>
      (await database.db.execute(sql`select n, ok, lat_sum from probe_hourly where machine_id = ${machineId} and hour = ${hour.toISOString()}::timestamptz`)).rows;
    const first = await rows();
    expect(first).toEqual([{ n: 6, ok: 3, lat_sum: 600 }]);
    expect(await repo.rollUpHour(database.db, hour)).toBeUndefined();
    expect(await repo.rollUpHour(database.db, hour, { force: true })).toBeGreaterThan(0);
    expect(await rows()).toEqual(first);
    expect(await figures()).toEqual(before);
  });

  it('moves the windows with the clock: the hour weight, the day leaving out two days ago', async () => {
    clock.set(new Date(h0.getTime() + 45 * MIN));
    const f = await figures();
    expect(f.avgHour).toBeCloseTo((1600 + 1800 * 0.25) / (4 + 6 * 0.25), 1);
    // Two hours on, without probes: H0 and H0-1 come from the rollups, the current hour is empty.
    clock.set(repo.addHours(h0, 2));
    await engine.maintain();
    const later = await figures();
    expect(later.avgHour).toBeNull();
    expect(later.succHour).toBeNull();
    expect(later.avgDay).toBeCloseTo(4600 / 19, 1);
  });

  it('drops raw hours after a day once rolled up, and rollups after eight days', async () => {
    const partitions = async () => (await repo.selectPartitionHours(database.db)).map((h) => h.toISOString());
    expect(await partitions()).not.toContain(repo.addHours(h0, -48).toISOString());
    expect(await partitions()).toContain(repo.addHours(h0, -3).toISOString());
    clock.set(repo.addHours(h0, 30));
    await engine.maintain();
    expect(await partitions()).not.toContain(repo.addHours(h0, -3).toISOString());
    expect((await figures()).avgWeek).toBeCloseTo(10_600 / 25, 1);
    clock.set(repo.addHours(h0, 8 * 24 + 2));
    const pass = await engine.maintain();
    expect(pass.deletedRollups).toBeGreaterThan(0);
    const left = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from probe_hourly where machine_id = ${machineId}`);
    expect(left.rows[0]!.n).toBe(0);
    const f = await figures();
    expect([f.avgWeek, f.succWeek, f.avgDay]).toEqual([null, null, null]);
    expect(f.row.lastLatencyMs).toBe(400);
  });
});
