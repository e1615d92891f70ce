/**
 * Idle schedule entries as the console edits them (spec 1 §3 Idle schedule
 * entry, §4 Start from scratch, §5 "resume after minimum 0 hours").
 *
 * `stopAt` is the contract's ISO 8601 date-time in UTC (`2026-12-24T18:00:00.000Z`);
 * the console shows and picks it in UTC (the scheduler's time, DESIGN §13) and
 * keeps the ISO string in the form. `resumeAfter` is in hours (0 to 8760, fractions allowed).
 */
import dayjs from 'dayjs';
import type { TIdleScheduleEntry } from '@fleet/contracts';

/** Resume after range, hours (spec 1 §5; the contract's maximum is a year). */
export const MIN_RESUME_AFTER_HOURS = 0;
export const MAX_RESUME_AFTER_HOURS = 8760;
/** Hour of day (UTC) and resume-after hours of Start from scratch and New Idle Time (spec 1 §4). */
const DEFAULT_STOP_HOUR = 6;
const DEFAULT_RESUME_AFTER_HOURS = 1;

/** Form values of the idle schedule section (see `section-forms.ts`). */
export interface IdleFormValues {
  idleSchedules: TIdleScheduleEntry[];
}

/** Tomorrow (UTC) at 06:00 UTC, as an ISO string. */
function tomorrowAtSix(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, DEFAULT_STOP_HOUR)).toISOString();
}

/**
 * The idle schedule of Start from scratch for a new account (spec 1 §4): one
 * entry a day ahead at 6:00 UTC, resuming after 1 hour.
 */
export function defaultIdleSchedules(): TIdleScheduleEntry[] {
  return [{ stopAt: tomorrowAtSix(), resumeAfter: DEFAULT_RESUME_AFTER_HOURS }];
}

/**
 * The entry New Idle Time adds: a day after the latest stop time of `entries`
 * (so that two clicks give two different days), or a day ahead at 6:00 when
 * there is none; resuming after 1 hour. A day is 24 hours (no daylight saving in UTC).
 */
export function nextIdleEntry(entries: readonly (Partial<TIdleScheduleEntry> | undefined)[]): TIdleScheduleEntry {
  const times = entries.map((e) => (e?.stopAt ? dayjs(e.stopAt) : null)).filter((d) => d?.isValid());
  const latest = times.reduce<dayjs.Dayjs | null>((max, d) => (d && (!max || d.isAfter(max)) ? d : max), null);
  return { stopAt: latest ? new Date(latest.valueOf() + 86_400_000).toISOString() : tomorrowAtSix(), resumeAfter: DEFAULT_RESUME_AFTER_HOURS };
}

/** When a stopped machine resumes: `stopAt` plus `resumeAfter` hours, ISO; null while either is missing. */
export function resumeAt(entry: Partial<TIdleScheduleEntry> | undefined): string | null {
  if (!entry?.stopAt || typeof entry.resumeAfter !== 'number') return null;
  const at = dayjs(entry.stopAt);
  return at.isValid() ? at.add(entry.resumeAfter * 60, 'minute').toISOString() : null;
}

/** Whether two idle lists are the same entries in the same order (Revert Changes has something to revert). */
export function sameIdleSchedules(a: readonly (Partial<TIdleScheduleEntry> | undefined)[] | undefined, b: readonly TIdleScheduleEntry[]): boolean {
  const key = (list: readonly (Partial<TIdleScheduleEntry> | undefined)[]) =>
    JSON.stringify(list.map((e) => [e?.stopAt ? dayjs(e.stopAt).valueOf() : null, e?.resumeAfter ?? null]));
  return key(a ?? []) === key(b);
}
