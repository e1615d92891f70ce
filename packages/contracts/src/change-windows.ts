/**
 * Change windows of an MMA class (issue 25 point 5): the times at which a wave
 * of a rollout may start on the class's machines. A class without windows
 * allows any time. The schemas are shared by `PUT /mma/classes/{id}`, the
 * class list and the rollout engine's rule (`server/src/engine/rollouts/windows.ts`);
 * {@link changeWindowLabel} is the one text of a window on every screen.
 */
import { z } from 'zod';

/** At most this many windows per class. */
export const MAX_CHANGE_WINDOWS = 20;

/** The zone the console offers when the browser names none (an IANA name). */
export const DEFAULT_CHANGE_WINDOW_TIME_ZONE = 'UTC';

/** Short English names of the ISO weekdays, Monday (1) first: index `day - 1`. */
export const ISO_WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const START = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const END = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
/** The shape of an IANA zone name (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`), before Intl is asked. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,3}$/;

/** True when `zone` is an IANA time zone name this runtime's Intl knows (aliases such as `UTC` included). */
export function isTimeZone(zone: string): boolean {
  if (!ZONE_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * One change window: on `days` (ISO weekdays, Monday 1 … Sunday 7, each at most
 * once), from `start` (inclusive) to `end` (exclusive), both `HH:mm` wall-clock
 * times in `timeZone` (an IANA name). `end` is after `start` on the same day: a
 * window never crosses midnight (`end` may be `24:00`); a night from 22:00 to
 * 02:00 is two windows.
 */
export const ZChangeWindow = z
  .object({
    days: z
      .array(z.number().int().min(1, 'A day is 1 (Monday) to 7 (Sunday)').max(7, 'A day is 1 (Monday) to 7 (Sunday)'))
      .min(1, 'At least one day is required')
      .max(7, 'At most 7 days')
      .refine((days) => new Set(days).size === days.length, 'Each day at most once')
      .meta({ uniqueItems: true, description: 'ISO weekdays: 1 Monday … 7 Sunday, each at most once' }),
    start: z.string().max(5).regex(START, 'Start must be a time HH:mm from 00:00 to 23:59').describe('Wall-clock start in `timeZone`, inclusive'),
    end: z.string().max(5).regex(END, 'End must be a time HH:mm from 00:00 to 24:00').describe('Wall-clock end in `timeZone`, exclusive; after `start` (a window never crosses midnight)'),
    timeZone: z
      .string()
      .min(1, 'Time zone is required')
      .max(64)
      .refine(isTimeZone, 'Time zone must be an IANA time zone name, such as Europe/Berlin')
      .describe('IANA time zone name, such as Europe/Berlin'),
  })
  // Judged only for well-formed times (each has its own error otherwise): `HH:mm` strings compare as times.
  .refine((w) => !START.test(w.start) || !END.test(w.end) || w.end > w.start, { path: ['end'], message: 'End must be after start: a window never crosses midnight (split it in two)' });
export type TChangeWindow = z.infer<typeof ZChangeWindow>;

/** A class's change windows, at most {@link MAX_CHANGE_WINDOWS}; empty: any time. */
export const ZChangeWindows = z.array(ZChangeWindow).max(MAX_CHANGE_WINDOWS, `At most ${MAX_CHANGE_WINDOWS} change windows`);

/** Days as people read them: runs of three or more joined (`Mon–Fri`), others listed (`Sat, Sun`); every day is `Every day`. */
export function changeWindowDaysLabel(days: readonly number[]): string {
  const sorted = [...new Set(days)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (sorted.length === 7) return 'Every day';
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    const name = (d: number) => ISO_WEEKDAY_NAMES[d - 1]!;
    if (j - i >= 2) parts.push(`${name(sorted[i]!)}–${name(sorted[j]!)}`);
    else for (let k = i; k <= j; k += 1) parts.push(name(sorted[k]!));
    i = j + 1;
  }
  return parts.join(', ');
}

/** A window as people read it: `Mon–Fri 02:00–05:00 Europe/Berlin`. */
export const changeWindowLabel = (w: TChangeWindow): string => `${changeWindowDaysLabel(w.days)} ${w.start}–${w.end} ${w.timeZone}`;
