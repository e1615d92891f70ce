/** Display formats shared by the screens (spec 1 §2: creation and expiration date and time). */
import dayjs, { type Dayjs } from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';
export const DATE_TIME_SECONDS_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** An ISO time in the user's time zone as `YYYY-MM-DD HH:mm`; empty for null. */
export function formatDateTime(iso: string | null | undefined, format = DATE_TIME_FORMAT): string {
  return iso ? dayjs(iso).format(format) : '';
}

/** A value of unknown shape as text: strings as they are, everything else as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * A picker value that shows the **UTC** wall clock of `iso` (antd's pickers show
 * local time): the times the scheduler runs (idle Stop at, auto-stop time, DESIGN
 * §13) are entered and shown in UTC. Null for null or an invalid time.
 */
export function utcPickerValue(iso: string | null | undefined): Dayjs | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return dayjs(new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
}

/** The ISO time of a picker value read as a UTC wall clock: the inverse of {@link utcPickerValue}. */
export function fromUtcPickerValue(value: Dayjs | null | undefined): string | null {
  if (!value?.isValid()) return null;
  return new Date(Date.UTC(value.year(), value.month(), value.date(), value.hour(), value.minute(), value.second(), value.millisecond())).toISOString();
}

/** An ISO time as `YYYY-MM-DD HH:mm` in UTC (the scheduler's times); empty for null. */
export function formatUtcDateTime(iso: string | null | undefined, format = DATE_TIME_FORMAT): string {
  return utcPickerValue(iso)?.format(format) ?? '';
}
