/**
 * Change windows of MMA classes (issue 25 point 5; `ZChangeWindow` in the
 * contracts): when a wave of a rollout may start on a class's machines.
 *
 * The rule: a class without windows is always open. Otherwise it is open at an
 * instant when, for one of its windows, the wall-clock time in the window's zone
 * falls on one of its days (ISO weekdays, Monday 1) and within
 * `[start, end)` (start inclusive, end exclusive, minute precision; `24:00` is the
 * end of the day). Time zones and their daylight saving changes are luxon's (the
 * runtime's IANA data):
 *
 * - a start that does not exist that day (the clock jumps over it) opens the
 *   window at the first instant after the jump (`Sun 03:00` for 02:00 in
 *   Europe/Berlin on the last Sunday of March); a window wholly inside the jump
 *   does not open that day;
 * - a start that exists twice (the clock goes back over it) opens the window at
 *   each occurrence; a clock going back into a window that has just ended
 *   opens it again (the wall clock is inside it once more).
 *
 * Pure functions (`windowOpen`, `nextOpening`) and one read (`selectClosedClasses`,
 * for the rollout engine's pass).
 *
 * Known limitations: an opening is looked for up to {@link HORIZON_DAYS} days
 * ahead. A closed class whose next opening lay beyond would be left out of
 * `selectClosedClasses` (treated as open); a valid window always opens within
 * the horizon (each of its weekdays comes twice, and no zone changes its clock
 * twice in a week). The zone data are those of the Node.js runtime (its ICU);
 * the console's are the browser's.
 */
import { eq, ne, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { TChangeWindow } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { fleetFreeze, mmaClasses } from '../../db/schema.js';
import { selectPendingTargetClasses } from './rollouts.repository.js';

/** How many days ahead `nextOpening` looks: two weeks and a day, so a window skipped by a clock change opens the week after. */
const HORIZON_DAYS = 15;

/** The minutes since local midnight of `HH:mm` (`24:00` is 1,440). */
const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when window `w` is open at `now`: its zone's wall clock on one of its days and in `[start, end)`. */
function openAt(w: TChangeWindow, now: Date): boolean {
  const local = DateTime.fromJSDate(now, { zone: w.timeZone });
  if (!local.isValid || !w.days.includes(local.weekday)) return false;
  const minute = local.hour * 60 + local.minute;
  return minute >= minutesOf(w.start) && minute < minutesOf(w.end);
}

/**
 * True when a wave may start at `now` on a class with `windows`: the list is
 * empty, or `now` is inside one of them (module docstring).
 */
export function windowOpen(windows: TChangeWindow[], now: Date): boolean {
  return windows.length === 0 || windows.some((w) => openAt(w, now));
}

/**
 * The instants at which the wall clock of `day`'s zone shows `hhmm` (a start:
 * 00:00–23:59) on that day: one, or two when the clock goes back over it, none
 * when it jumps over it.
 */
function instantsAt(day: DateTime, hhmm: string): DateTime[] {
  const minutes = minutesOf(hhmm);
  const wall = { year: day.year, month: day.month, day: day.day, hour: Math.floor(minutes / 60), minute: minutes % 60 };
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const offsets = new Set([day.startOf('day').offset, day.endOf('day').offset]);
  return [...offsets]
    .map((offset) => DateTime.fromMillis(asUtc - offset * 60_000, { zone: day.zone }))
    .filter((t) => t.year === wall.year && t.month === wall.month && t.day === wall.day && t.hour === wall.hour && t.minute === wall.minute);
}

/**
 * The instant `day`'s zone changes its offset that day (daylight saving), or
 * null: found by halving the day, to the second (offsets change on whole minutes).
 */
function clockChangeOn(day: DateTime): DateTime | null {
  const start = day.startOf('day');
  if (start.offset === day.endOf('day').offset) return null;
  let before = start.toMillis();
  let after = day.endOf('day').toMillis();
  while (after - before > 1_000) {
    const middle = before + Math.floor((after - before) / 2_000) * 1_000;
    if (DateTime.fromMillis(middle, { zone: day.zone }).offset === start.offset) before = middle;
    else after = middle;
  }
  return DateTime.fromMillis(after, { zone: day.zone });
}

/**
 * The first instant after `now` at which window `w` opens, or null within the
 * horizon. A window only opens when its zone's clock reaches its start, or when
 * the clock changes (jumping over its start, or going back into it): those are
 * the candidates of each of its days.
 */
function nextOpeningOf(w: TChangeWindow, now: Date): DateTime | null {
  const today = DateTime.fromJSDate(now, { zone: w.timeZone }).startOf('day');
  if (!today.isValid) return null;
  for (let offset = 0; offset < HORIZON_DAYS; offset += 1) {
    const day = today.plus({ days: offset });
    if (!w.days.includes(day.weekday)) continue;
    const change = clockChangeOn(day);
    const opening = [...instantsAt(day, w.start), ...(change ? [change] : [])]
      .sort((a, b) => a.toMillis() - b.toMillis())
      .find((t) => t.toMillis() > now.getTime() && openAt(w, t.toJSDate()));
    if (opening) return opening;
  }
  return null;
}

/**
 * When the next window of `windows` opens after `now`: `at`, and `text` as the
 * rollout page says it (`Tue 02:00 Europe/Berlin`: the short English weekday and
 * the wall-clock time of the opening in the window's zone, then the zone; the
 * window's start, or the time after a clock change that skipped it). Null when
 * the list is empty or a window is open at `now`.
 */
export function nextOpening(windows: TChangeWindow[], now: Date): { at: Date; text: string } | null {
  if (windowOpen(windows, now)) return null;
  let first: { at: DateTime; zone: string } | null = null;
  for (const w of windows) {
    const at = nextOpeningOf(w, now);
    if (at && (!first || at < first.at)) first = { at, zone: w.timeZone };
  }
  if (!first) return null;
  return { at: first.at.toJSDate(), text: `${first.at.setLocale('en-US').toFormat('ccc HH:mm')} ${first.zone}` };
}

/**
 * The MMA classes (by id) that have change windows and are closed at `now`,
 * each with its next opening (`opensAt`, and `text` as {@link nextOpening} says
 * it). One read of `mma_classes` (a handful of rows).
 */
export async function selectClosedClasses(tx: DbOrTx, now: Date): Promise<Map<number, { opensAt: Date; text: string }>> {
  const rows = await tx
    .select({ id: mmaClasses.id, changeWindows: mmaClasses.changeWindows })
    .from(mmaClasses)
    .where(ne(mmaClasses.changeWindows, sql`'[]'::jsonb`));
  const closed = new Map<number, { opensAt: Date; text: string }>();
  for (const { id, changeWindows } of rows) {
    const next = nextOpening(changeWindows, now);
    if (next) closed.set(id, { opensAt: next.at, text: next.text });
  }
  return closed;
}

/**
 * What a Running rollout's current wave waits for before its Pending targets
 * are released (`GET /rollouts/{id}`; issue 25 point 5), or null: the fleet
 * freeze ('Waiting for the fleet freeze to be released: frozen by admin:
 * reason'), then the change windows of its Pending targets' classes ('Waiting
 * for the change window (opens Tue 02:00 Europe/Berlin)', or 'n of m Pending
 * targets wait for …' when only some do; the earliest opening).
 */
export async function rolloutWaitingFor(db: DbOrTx, r: { id: number; kind: 'machines' | 'accounts'; currentWave: number }, now: Date): Promise<string | null> {
  const [freeze] = await db.select().from(fleetFreeze).where(eq(fleetFreeze.frozen, true));
  if (freeze) return `Waiting for the fleet freeze to be released: frozen by ${freeze.frozenBy ?? 'an admin'}${freeze.reason ? `: ${freeze.reason}` : ''}`;
  const closed = await selectClosedClasses(db, now);
  if (closed.size === 0) return null;
  const pending = await selectPendingTargetClasses(db, r.id, r.currentWave, r.kind);
  const waiting = pending.flatMap((t) => {
    const openings = t.classIds.flatMap((c) => closed.get(c) ?? []);
    // A target waits until every closed class of it opens: its latest opening.
    return openings.length === 0 ? [] : [openings.reduce((a, b) => (b.opensAt > a.opensAt ? b : a))];
  });
  if (waiting.length === 0) return null;
  const first = waiting.reduce((a, b) => (b.opensAt < a.opensAt ? b : a));
  const who = waiting.length === pending.length ? 'Waiting' : `${waiting.length} of ${pending.length} Pending targets wait`;
  return `${who} for the change window (opens ${first.text})`;
}
