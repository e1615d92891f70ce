/**
 * The change windows of the Edit MMA Class dialog (issue 25 point 5): the zone
 * a new window starts in (the browser's), the zones offered, a new window, and
 * form rules that give the contract's own messages (`ZChangeWindow`).
 */
import { DEFAULT_CHANGE_WINDOW_TIME_ZONE, isTimeZone, ZChangeWindow, type TChangeWindow } from '@fleet/contracts';

/** The browser's IANA zone, or {@link DEFAULT_CHANGE_WINDOW_TIME_ZONE} when it names none the contract accepts. */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : DEFAULT_CHANGE_WINDOW_TIME_ZONE;
}

/**
 * The zones the time zone select offers: UTC first, then the runtime's IANA zones
 * (`Intl.supportedValuesOf`), with any zone in `inUse` it does not list (an alias
 * such as `Europe/Kiev` stored earlier) so that a stored window shows its zone.
 */
export function timeZoneChoices(inUse: readonly string[] = []): string[] {
  const zones = new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  const extra = inUse.filter((z) => z && !zones.has(z));
  return [...zones, ...new Set(extra)];
}

/** The window Add window adds: Monday to Friday, 02:00 to 05:00, in `timeZone`. */
export const newChangeWindow = (timeZone: string): TChangeWindow => ({ days: [1, 2, 3, 4, 5], start: '02:00', end: '05:00', timeZone });

/** A form rule checking a field with the contract's schema of it, with the contract's message. */
function contractRule(field: keyof typeof ZChangeWindow.shape) {
  return {
    validator: async (_: unknown, value: unknown) => {
      const result = ZChangeWindow.shape[field].safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
    },
  };
}

/**
 * Form rules of a window's fields (in the form list `changeWindows`). `end` also
 * checks it is after the window's `start`, with the contract's rule and message
 * (the other fields set to valid values, so that only start and end are judged;
 * the contract leaves a malformed start to its own error).
 */
export const changeWindowRules = {
  days: [contractRule('days')],
  start: [contractRule('start')],
  timeZone: [contractRule('timeZone')],
  end: (index: number) => [
    contractRule('end'),
    ({ getFieldValue }: { getFieldValue(name: (string | number)[]): unknown }) => ({
      validator: async (_: unknown, end: unknown) => {
        const start = getFieldValue(['changeWindows', index, 'start']);
        const result = ZChangeWindow.safeParse({ days: [1], start, end, timeZone: 'UTC' });
        const issue = result.error?.issues.find((i) => i.path.join('.') === 'end' && i.code === 'custom');
        if (issue) throw new Error(issue.message);
      },
    }),
  ],
};
