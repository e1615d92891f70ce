/**
 * How probes are spread over the interval (DESIGN §14, `PROBE_INTERVAL_S`).
 *
 * Each machine has a phase in [0, 1): the fractional part of
 * `⌊id / 8⌋ × (√5 − 1)/2` (a golden-ratio sequence over blocks of 8
 * consecutive ids: any run of blocks, and any subset of a large fleet, falls
 * evenly over [0, 1), within about 1 % of the mean per second at 100,000
 * machines). The machines of a block share their phase, so a tick probes runs
 * of consecutive ids: their rows, active instances and statistics rows lie on
 * the same pages (made together), and a tick reads about a fifth of the pages
 * that one machine per page needed. A machine is probed when the clock passes
 * `k × interval + phase × interval` for a whole k, so once per interval, at the
 * same offset each time. A tick that covers the clock from `from` to `to`
 * probes the machines whose offset lies in that span ({@link dueWindow}); the
 * SQL side reads the phase through an expression index (`PROBE_PHASE`).
 */

/** The golden-ratio conjugate (√5 − 1)/2, as in the index expression. */
export const GOLDEN = 0.6180339887498949;

/** Consecutive ids that share a phase (as in the index expression). */
export const PHASE_BLOCK = 8;

/** A machine's phase, as PostgreSQL computes it (`PROBE_PHASE`). */
export function phaseOf(machineId: number): number {
  const x = Math.floor(machineId / PHASE_BLOCK) * GOLDEN;
  return x - Math.floor(x);
}

/** The phases a tick covers: every phase, or the union of half-open ranges (lo, hi]. */
export type DueWindow = { all: true } | { all: false; ranges: [number, number][] };

/**
 * The phases due when the clock moves from `fromMs` (exclusive) to `toMs`
 * (inclusive), with an interval of `intervalMs`. A span of a whole interval or
 * more covers every phase once (a worker that was down does not probe a
 * machine once per missed interval). An empty or backward span covers none.
 */
export function dueWindow(fromMs: number, toMs: number, intervalMs: number): DueWindow {
  if (toMs <= fromMs) return { all: false, ranges: [] };
  if (toMs - fromMs >= intervalMs) return { all: true };
  const a = fromMs / intervalMs;
  const b = toMs / intervalMs;
  const fa = a - Math.floor(a);
  const fb = b - Math.floor(b);
  if (Math.floor(a) === Math.floor(b)) return { all: false, ranges: [[fa, fb]] };
  // The span wraps past the end of an interval: the rest of this one, the start of the next.
  return { all: false, ranges: [[fa, 1], [-1, fb]] };
}

/** Whether `phase` is in the window (the same test the SQL makes). */
export function inWindow(phase: number, w: DueWindow): boolean {
  return w.all || w.ranges.some(([lo, hi]) => phase > lo && phase <= hi);
}
