/** Display formats shared by the screens (spec 1 §2: creation and expiration date and time). */
import dayjs from 'dayjs';

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
