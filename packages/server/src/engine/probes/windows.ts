/**
 * The hour, day and week figures of a probed URL (spec 2 §3 Request statistic;
 * DESIGN §14), from its `request_statistics` row and its hourly rollups.
 *
 * With H0 the current clock hour (UTC) and f the part of it gone by:
 * - the current hour's probes come from the row's accumulator (`acc*` when
 *   `accHour` is H0), the previous hour's from the row too (`prev*`, or `acc*`
 *   when the last probe was in H0 − 1): they need no rollup, so the figures
 *   are live;
 * - hour = current + previous × (1 − f): the last 60 minutes, taking the
 *   previous hour's probes as spread evenly over it (a sliding-window counter);
 * - day = current + previous + the rollups of H0 − 23 … H0 − 2 (the current
 *   hour and the 23 before it); week = the same with H0 − 167 … H0 − 2.
 *
 * Averages are of the successful probes' latencies (ms, to 0.1); success
 * ratios are successes / probes (0..1, to 4 decimals); a window without probes
 * is null.
 */
import { addHours, hourOf } from './probes.repository.js';

/** Probes, successes and the sum of the successful probes' latencies (ms). */
export interface Counts {
  n: number;
  ok: number;
  latSum: number;
}

export interface StatisticFacts {
  accHour: Date;
  acc: Counts;
  prevHour: Date | null;
  prev: Counts;
  /** Rollups of H0 − 23 … H0 − 2. */
  dayRollups: Counts;
  /** Rollups of H0 − 167 … H0 − 2. */
  weekRollups: Counts;
}

export interface WindowFigures {
  avgHour: number | null;
  avgDay: number | null;
  avgWeek: number | null;
  succHour: number | null;
  succDay: number | null;
  succWeek: number | null;
}

const ZERO: Counts = { n: 0, ok: 0, latSum: 0 };
const add = (a: Counts, b: Counts, w = 1): Counts => ({ n: a.n + b.n * w, ok: a.ok + b.ok * w, latSum: a.latSum + b.latSum * w });
const avg = (c: Counts) => (c.ok > 0 ? Math.round((c.latSum / c.ok) * 10) / 10 : null);
const succ = (c: Counts) => (c.n > 0 ? Math.round((c.ok / c.n) * 10_000) / 10_000 : null);

/** The oldest rollup hour of the day and the week window, and the newest of both, for `now`. */
export function rollupHours(now: Date): { dayFrom: Date; weekFrom: Date; until: Date } {
  const h0 = hourOf(now);
  return { dayFrom: addHours(h0, -23), weekFrom: addHours(h0, -167), until: addHours(h0, -2) };
}

/** The figures at `now` (see the module comment). */
export function windowFigures(f: StatisticFacts, now: Date): WindowFigures {
  const h0 = hourOf(now).getTime();
  const h1 = addHours(hourOf(now), -1).getTime();
  const acc = f.accHour.getTime();
  const current = acc === h0 ? f.acc : ZERO;
  const previous = acc === h0 ? (f.prevHour?.getTime() === h1 ? f.prev : ZERO) : acc === h1 ? f.acc : ZERO;
  const gone = (now.getTime() - h0) / 3_600_000;
  const hour = add(current, previous, 1 - gone);
  const recent = add(current, previous);
  const day = add(recent, f.dayRollups);
  const week = add(recent, f.weekRollups);
  return { avgHour: avg(hour), avgDay: avg(day), avgWeek: avg(week), succHour: succ(hour), succDay: succ(day), succWeek: succ(week) };
}
