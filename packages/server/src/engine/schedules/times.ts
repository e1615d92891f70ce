/**
 * The scheduler's calendar (DESIGN §13; spec 1 §3 backupConfig, idle schedule
 * entry, §5, §9): pure functions of UTC times, no database, no clock.
 *
 * - Backup times are times of day `HH:mm` (UTC, 30-minute steps, sorted); each
 *   is an occurrence every day.
 * - The category of an occurrence (grandfather-father-son): the day's *first*
 *   backup time is `monthly` on the monthly backup day (1 to 28 of the month),
 *   else `weekly` on the weekly backup day (1 Monday to 7 Sunday), else `daily`;
 *   every other time is `daily`. So a time queues one Backup, never two.
 * - Retention runs once a day at {@link RETENTION_TIME} UTC.
 */
import { normaliseBackupTimes, ZBackupConfig, ZIdleScheduleEntry, type TBackupConfig } from '@fleet/contracts';

export type ScheduledCategory = 'daily' | 'weekly' | 'monthly';
const RANK: Record<ScheduledCategory, number> = { daily: 0, weekly: 1, monthly: 2 };

/** What a backup row is planned from: the account's times and days. */
export interface BackupPlan {
  times: string[];
  weeklyBackupDay: number;
  monthlyBackupDay: number;
}

const DAY_MS = 86_400_000;
/** Retention's daily time of day, UTC. */
export const RETENTION_TIME = '00:00';
/** Most missed days the category of a catch-up run looks at: more than a month missed always contains a monthly day. */
const CATCH_UP_DAYS = 32;

const startOfUtcDay = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Each occurrence of `times` (sorted `HH:mm`) from the UTC day of `from` on, in order; endless. */
function* occurrences(times: readonly string[], from: Date): Generator<Date> {
  if (times.length === 0) return;
  for (let day = startOfUtcDay(from); ; day += DAY_MS) {
    for (const t of times) yield new Date(day + minutesOf(t) * 60_000);
  }
}

/** The first occurrence of `times` strictly after `after`, or null when there are no times. */
export function nextOccurrence(times: readonly string[], after: Date): Date | null {
  for (const at of occurrences(times, after)) if (at.getTime() > after.getTime()) return at;
  return null;
}

/** ISO weekday of a UTC time: 1 Monday … 7 Sunday (spec 1 §9). */
export const isoWeekday = (at: Date) => ((at.getUTCDay() + 6) % 7) + 1;

/** The category of the occurrence `at` of the plan (module docstring). */
export function categoryAt(plan: BackupPlan, at: Date): ScheduledCategory {
  const first = plan.times[0];
  const hhmm = at.toISOString().slice(11, 16);
  if (first === undefined || hhmm !== first) return 'daily';
  if (at.getUTCDate() === plan.monthlyBackupDay) return 'monthly';
  if (isoWeekday(at) === plan.weeklyBackupDay) return 'weekly';
  return 'daily';
}

/**
 * The category of a run that stands for every occurrence from `dueAt` to `now`
 * (a catch-up after the server was down runs once): the highest category among
 * them, so a missed monthly day still gives a monthly backup. Looks at most
 * {@link CATCH_UP_DAYS} days: a longer gap contains a monthly day.
 */
export function catchUpCategory(plan: BackupPlan, dueAt: Date, now: Date): ScheduledCategory {
  if (now.getTime() - dueAt.getTime() > CATCH_UP_DAYS * DAY_MS) return 'monthly';
  let best: ScheduledCategory = categoryAt(plan, dueAt);
  for (const at of occurrences(plan.times, dueAt)) {
    if (at.getTime() > now.getTime()) break;
    if (at.getTime() < dueAt.getTime()) continue;
    const c = categoryAt(plan, at);
    if (RANK[c] > RANK[best]) best = c;
  }
  return best;
}

/** Retention's next run strictly after `after` (daily at {@link RETENTION_TIME} UTC). */
export const nextRetention = (after: Date): Date => nextOccurrence([RETENTION_TIME], after)!;

/**
 * The account's backupConfig read for scheduling, or an error message when the
 * stored JSON is not a valid section (a bad row must not stop the scheduler).
 * Invalid and duplicate times are dropped as the push does (spec 1 §5).
 */
export function readBackupConfig(raw: unknown): { config: TBackupConfig; plan: BackupPlan } | { error: string } {
  const parsed = ZBackupConfig.safeParse(raw ?? {});
  if (!parsed.success) return { error: `Invalid backup settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  const config = parsed.data;
  return {
    config,
    plan: { times: normaliseBackupTimes(config.times), weeklyBackupDay: config.weeklyBackupDay, monthlyBackupDay: config.monthlyBackupDay },
  };
}

/** An idle entry as the scheduler keeps it: `slot` is stopAt as ISO (the entry's identity). */
export interface IdleEntry {
  slot: string;
  stopAt: Date;
  resumeAfterHours: number;
}

/**
 * The valid entries of a stored idle schedule, one per stopAt (the longest
 * resumeAfter when two share it); `invalid` counts the entries left out.
 */
export function readIdleSchedules(raw: unknown): { entries: IdleEntry[]; invalid: number } {
  const list = Array.isArray(raw) ? raw : [];
  const bySlot = new Map<string, IdleEntry>();
  let invalid = Array.isArray(raw) ? 0 : raw === null || raw === undefined ? 0 : 1;
  for (const item of list) {
    const parsed = ZIdleScheduleEntry.safeParse(item);
    const stopAt = parsed.success ? new Date(parsed.data.stopAt) : null;
    if (!parsed.success || !stopAt || Number.isNaN(stopAt.getTime())) {
      invalid += 1;
      continue;
    }
    const slot = stopAt.toISOString();
    const before = bySlot.get(slot);
    if (!before || before.resumeAfterHours < parsed.data.resumeAfter) bySlot.set(slot, { slot, stopAt, resumeAfterHours: parsed.data.resumeAfter });
  }
  return { entries: [...bySlot.values()].sort((a, b) => a.stopAt.getTime() - b.stopAt.getTime()), invalid };
}

/** machineConfig's autoStopTime as a time, or null when none or not a date-time. */
export function readAutoStopTime(machineConfig: unknown): Date | null {
  const value = (machineConfig as { autoStopTime?: unknown } | null)?.autoStopTime;
  if (typeof value !== 'string' || value.length > 40) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** When an idle entry's machines resume: stopAt plus resumeAfter hours. */
export const resumeAtOf = (stopAt: Date, resumeAfterHours: number) => new Date(stopAt.getTime() + Math.round(resumeAfterHours * 3_600_000));
