/**
 * The task engine's settings (DESIGN §6; the invariants in `README.md` beside
 * this file): their defaults, and the lease settings of `TASK_LEASE_S`
 * (`config.ts`). `createTaskEngine` takes any of them as options.
 */

export const ENGINE_DEFAULTS = {
  /** Lease renewal of a running task, ms. */
  heartbeatMs: 5_000,
  /** A lease not renewed for this long belongs to a dead worker, ms. */
  staleMs: 30_000,
  /** Sweep interval, ms. With the defaults a dead worker's task is resumed within about 45 s. */
  sweepMs: 10_000,
  /** A New task this old with nothing running on its machine was not picked up, ms. */
  orphanAfterMs: 10_000,
  /** Attempts of a task whose workers keep dying before it is Failed. */
  maxAttempts: 3,
  /** Longest wait for an instance to reach a state, ms. */
  waitTimeoutMs: 600_000,
  /** pg-boss workers in this process, and jobs (machines) each fetches at once. */
  workers: 4,
  batchSize: 10,
  /** Machines drained at once in this process (their tasks run side by side). */
  maxDrains: 40,
  /** pg-boss polling interval, seconds (at least 0.5). */
  pollingIntervalSeconds: 1,
  /** How long `stop()` waits for running tasks, ms. */
  stopTimeoutMs: 10_000,
  /** How long `stop()` then waits for pg-boss's last queries, ms. */
  bossQuietTimeoutMs: 5_000,
};

export type TaskEngineSettings = typeof ENGINE_DEFAULTS;

/**
 * The lease settings of a task lease of `seconds` (`TASK_LEASE_S`): stale after
 * it, a heartbeat every sixth of it (at most the default 5 s), a sweep every
 * third (at most the default 10 s).
 */
export function leaseSettings(seconds: number): Pick<TaskEngineSettings, 'staleMs' | 'heartbeatMs' | 'sweepMs'> {
  const staleMs = seconds * 1000;
  return { staleMs, heartbeatMs: Math.min(ENGINE_DEFAULTS.heartbeatMs, Math.floor(staleMs / 6)), sweepMs: Math.min(ENGINE_DEFAULTS.sweepMs, Math.floor(staleMs / 3)) };
}
