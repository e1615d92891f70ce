/**
 * The probe worker (DESIGN §14; invariants in `README.md` here). Started by
 * `main.ts` when `ROLE` is `all` or `worker`; tests drive `tick()` and
 * `maintain()` with their own clock.
 *
 * - `tick()` probes the URLs whose slot the clock passed since the cursor
 *   (`schedule.ts`), stores them, raises an occurrence of its issue (source
 *   `probe`) for every failed probe, and moves the cursor, in one
 *   transaction: a URL failing every interval counts its issue up every
 *   interval, as Sentry counts a repeated error.
 * - `maintain()` makes the raw samples' partitions ahead, rolls up each closed
 *   hour once, drops raw partitions older than a day and rollups older than
 *   eight days.
 * - `start()` runs both on timers (`tickMs`, `maintainMs`); `stop()` clears
 *   them and waits for the run in flight.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { isDatabaseGone } from '../../db/client.js';
import { raiseIssues, type IssueOccurrence } from '../issues/raise.js';
import type { ProbeEndpoint, ProbeResult, ProbeTarget } from './endpoint.js';
import { dueWindow } from './schedule.js';
import * as repo from './probes.repository.js';

/** Raw samples are kept this many whole hours before the current one (a day). */
export const RAW_RETENTION_HOURS = 24;
/** Hourly rollups are kept this many hours (eight days). */
export const ROLLUP_RETENTION_HOURS = 8 * 24;
/** A closed hour is rolled up this long after its end (ticks in flight at the hour's end have committed). */
export const ROLLUP_GRACE_MS = 60_000;

export interface ProbeStats {
  ticks: number;
  /** Probes stored since the start. */
  probes: number;
  /** How far behind the clock the cursor was when the last tick began, ms. */
  lagMs: number;
  /** The largest such lag since the start, ms. */
  maxLagMs: number;
  /** Duration of the last tick, ms. */
  lastTickMs: number;
}

export interface ProbeEngine {
  /** One tick at `now()`; answers the probes stored (0 when another worker holds the cursor). */
  tick(): Promise<number>;
  /** One maintenance pass at `now()`: partitions, rollups, retention. */
  maintain(): Promise<{ rolledUp: Date[]; droppedPartitions: Date[]; deletedRollups: number }>;
  start(): Promise<void>;
  stop(): Promise<void>;
  stats(): ProbeStats;
}

export interface ProbeEngineOptions {
  db: Db;
  endpoint: ProbeEndpoint;
  /** `PROBE_INTERVAL_S`: every URL is probed once per interval, seconds. */
  intervalS: number;
  log?: Logger;
  now?: () => Date;
  /** How often the timer ticks, ms (default 1000, at most the interval). */
  tickMs?: number;
  /** How often maintenance runs, ms (default 60,000). */
  maintainMs?: number;
  /** The issue sink, called once per tick with that tick's failures (default `raiseIssues`). */
  raise?: typeof raiseIssues;
}

/**
 * The occurrence of a failed probe: "Launcher probe of <machine> failed:
 * <reason>" (or "Site master probe …"), tagged `probe` and the kind, the URL
 * and the machine's facts as its log. One issue per machine, kind and reason
 * (the fingerprint), so a lasting failure is one issue whose count grows.
 */
export function probeIssue(t: ProbeTarget, r: ProbeResult): IssueOccurrence {
  const what = t.kind === 'launcher' ? 'Launcher' : 'Site master';
  const reason = r.reason ?? 'no answer';
  return {
    machineId: t.machineId,
    source: 'probe',
    description: `${what} probe of ${t.machineName} failed: ${reason}`,
    tags: ['probe', t.kind],
    content: `GET ${t.url} failed: ${reason}\nInstance: ${t.instanceStatus}; needs admin: ${t.needsAdmin ? 'yes' : 'no'}; operation running: ${t.busy ? 'yes' : 'no'}`,
  };
}

export function createProbeEngine(o: ProbeEngineOptions): ProbeEngine {
  const now = o.now ?? (() => new Date());
  const intervalMs = o.intervalS * 1000;
  const tickMs = Math.min(o.tickMs ?? 1000, intervalMs);
  const maintainMs = o.maintainMs ?? 60_000;
  const raise = o.raise ?? raiseIssues;
  const stats: ProbeStats = { ticks: 0, probes: 0, lagMs: 0, maxLagMs: 0, lastTickMs: 0 };
  /** Hours whose partition this process has made (or seen), so a tick checks the catalogue once an hour. */
  const ensured = new Set<number>();

  async function ensureAround(at: Date) {
    const hours = [-1, 0, 1, 2].map((h) => repo.addHours(repo.hourOf(at), h)).filter((h) => !ensured.has(h.getTime()));
    if (hours.length === 0) return;
    await repo.ensurePartitions(o.db, hours);
    for (const h of hours) ensured.add(h.getTime());
  }

  async function tick(): Promise<number> {
    const at = now();
    const began = Date.now();
    await ensureAround(at);
    const stored = await o.db.transaction(async (tx) => {
      const through = await repo.lockCursor(tx);
      if (!through) return 0;
      // A worker that was down probes each URL once, not once per missed interval.
      const from = Math.max(through.getTime(), at.getTime() - intervalMs);
      stats.lagMs = Math.max(0, at.getTime() - through.getTime());
      stats.maxLagMs = Math.max(stats.maxLagMs, stats.lagMs);
      const window = dueWindow(from, at.getTime(), intervalMs);
      if (!window.all && window.ranges.length === 0) return 0;
      const targets = await repo.selectDueTargets(tx, { window, at });
      const results = await o.endpoint.probe(targets, at);
      await repo.storeSamples(tx, { at, targets, results });
      // Every failed probe is an occurrence: one batch (one upsert) for the tick, however many failed.
      const failed = targets.flatMap((t, i) => (results[i]?.ok ? [] : [probeIssue(t, results[i] ?? { ok: false, latencyMs: null })]));
      if (failed.length > 0) await raise(tx, failed, at);
      await repo.setCursor(tx, at);
      return targets.length;
    });
    stats.ticks += 1;
    stats.probes += stored;
    stats.lastTickMs = Date.now() - began;
    return stored;
  }

  async function maintain() {
    const at = now();
    await ensureAround(at);
    const current = repo.hourOf(at);
    const hours = await repo.selectPartitionHours(o.db);
    const done = await repo.selectRolledUpHours(o.db, hours);
    const rolledUp: Date[] = [];
    const oldestRollup = repo.addHours(current, -ROLLUP_RETENTION_HOURS);
    for (const hour of hours) {
      const closed = repo.addHours(hour, 1).getTime() + ROLLUP_GRACE_MS <= at.getTime();
      if (!closed || done.has(hour.getTime()) || hour < oldestRollup) continue;
      if ((await repo.rollUpHour(o.db, hour)) !== undefined) rolledUp.push(hour);
      done.add(hour.getTime());
    }
    // A raw hour leaves once it is a day old, and only once rolled up (or too old to matter).
    const droppedPartitions: Date[] = [];
    for (const hour of hours) {
      if (hour >= repo.addHours(current, -RAW_RETENTION_HOURS)) continue;
      if (!done.has(hour.getTime()) && hour >= oldestRollup) continue;
      await repo.dropPartition(o.db, hour);
      ensured.delete(hour.getTime());
      droppedPartitions.push(hour);
    }
    const deletedRollups = await repo.deleteRollupsBefore(o.db, oldestRollup);
    return { rolledUp, droppedPartitions, deletedRollups };
  }

  let stopping = false;
  let tickTimer: NodeJS.Timeout | undefined;
  let maintainTimer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<unknown>>();
  const track = (run: Promise<unknown>) => {
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
    return run;
  };

  const report = (what: string) => (err: unknown) => {
    if (isDatabaseGone(err)) o.log?.debug({ err: (err as Error).message }, `probe ${what}: the database is gone`);
    else o.log?.error({ err }, `probe ${what} failed`);
  };

  function scheduleTick(delay: number) {
    if (stopping) return;
    tickTimer = setTimeout(() => {
      const began = Date.now();
      const run = track(tick().catch(report('tick')));
      // The next tick starts a tick's period after this one began, or at once when this one was slower.
      void run.then(() => scheduleTick(Math.max(0, tickMs - (Date.now() - began))));
    }, delay);
  }

  function scheduleMaintain(delay: number) {
    if (stopping) return;
    maintainTimer = setTimeout(() => {
      const run = track(maintain().catch(report('maintenance')));
      void run.then(() => scheduleMaintain(maintainMs));
    }, delay);
  }

  return {
    tick,
    maintain,
    async start() {
      stopping = false;
      await maintain();
      scheduleTick(0);
      scheduleMaintain(maintainMs);
      o.log?.info({ intervalS: o.intervalS }, 'probes started');
    },
    async stop() {
      stopping = true;
      clearTimeout(tickTimer);
      clearTimeout(maintainTimer);
      await Promise.all([...inFlight]);
    },
    stats: () => ({ ...stats }),
  };
}
