/**
 * Display formats shared by the screens (spec 1 §2: creation and expiration date
 * and time; issue 24 point 8 "times with their zone").
 *
 * The rule for times: every time the console shows says its zone. A time is
 * shown in the browser's zone followed by that zone's offset from UTC, short so
 * that table columns stay narrow: `2027-03-01 19:30 UTC+1`, `… UTC-3`,
 * `… UTC+5:30`, and `… UTC` at offset 0. The scheduler's times (idle Stop at,
 * auto-stop time, DESIGN §13) are shown in UTC and end in `UTC`.
 */
import dayjs, { type Dayjs, type PluginFunc } from 'dayjs';
import utc from 'dayjs/plugin/utc';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';
export const DATE_TIME_SECONDS_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * The zone of `time` as its offset from UTC: `UTC` at offset 0, else `UTC+1`,
 * `UTC-3`, `UTC+5:30` (hours, and minutes only when not whole).
 */
export function zoneLabel(time: Dayjs): string {
  const offset = time.utcOffset();
  if (offset === 0) return 'UTC';
  const minutes = Math.abs(offset) % 60;
  const hours = (Math.abs(offset) - minutes) / 60;
  return `UTC${offset < 0 ? '-' : '+'}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/**
 * The dayjs format token of a time's zone as {@link zoneLabel} writes it
 * (`YYYY-MM-DD HH:mm UTCZ` → `2027-03-01 19:30 UTC+1`), so that a format string
 * (antd's pickers take one) can say the zone. Text in brackets stays literal.
 */
export const ZONE_TOKEN = 'UTCZ';

/** The dayjs plugin of {@link ZONE_TOKEN}. */
const zoneToken: PluginFunc = (_option, dayjsClass) => {
  const format = dayjsClass.prototype.format;
  dayjsClass.prototype.format = function (this: Dayjs, template?: string) {
    if (!template?.includes(ZONE_TOKEN) || !this.isValid()) return format.call(this, template);
    const zone = `[${zoneLabel(this)}]`;
    const parts = template.split(/(\[[^\]]*])/);
    return format.call(this, parts.map((part) => (part.startsWith('[') ? part : part.replaceAll(ZONE_TOKEN, zone))).join(''));
  };
};

dayjs.extend(utc);
dayjs.extend(zoneToken);

/**
 * An ISO time in the browser's zone as `format` (default `YYYY-MM-DD HH:mm`)
 * followed by its zone ({@link zoneLabel}), e.g. `2027-03-01 19:30 UTC+1`;
 * empty for null, the text itself when it is not a time.
 */
export function formatDateTime(iso: string | null | undefined, format = DATE_TIME_FORMAT): string {
  if (!iso) return '';
  const time = dayjs(iso);
  return time.isValid() ? time.format(`${format} ${ZONE_TOKEN}`) : iso;
}

/**
 * The `format` list of an antd picker that shows local time. antd shows the
 * value with the first entry: `format` followed by the value's zone
 * (`2027-03-01 19:30 UTC+1`, the offset of the value's own date, so summer
 * times say summer's). It reads typed text (and the shown text, when Enter is
 * pressed) strictly with each string entry in turn: `format` alone, then
 * `format` followed by each zone the browser's zone has this year (now, 1
 * January, 1 July: its standard and summer offsets), as literal text.
 * Strings, not a function: antd makes a picker whose first format is a
 * function read-only.
 *
 * Known limitation: a shown time of another year whose zone had another offset
 * then (a zone that changed its rules) does not read back on Enter; picking it
 * in the panel or typing it without the zone does.
 */
export function zonedPickerFormat(format = DATE_TIME_FORMAT): string[] {
  const year = dayjs().year();
  const zones = new Set([dayjs(), dayjs(new Date(year, 0, 1)), dayjs(new Date(year, 6, 1))].map(zoneLabel));
  return [`${format} ${ZONE_TOKEN}`, format, ...[...zones].map((zone) => `${format} [${zone}]`)];
}

/**
 * An ISO time in UTC as `format` (default `YYYY-MM-DD HH:mm`) followed by `UTC`,
 * e.g. `2027-03-01 18:30 UTC` (the scheduler's times, DESIGN §13); empty for
 * null, the text itself when it is not a time.
 */
export function formatUtcDateTime(iso: string | null | undefined, format = DATE_TIME_FORMAT): string {
  if (!iso) return '';
  const time = dayjs.utc(iso);
  return time.isValid() ? `${time.format(format)} UTC` : iso;
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
  const time = dayjs.utc(iso);
  return time.isValid() ? dayjs(time.format('YYYY-MM-DDTHH:mm:ss.SSS')) : null;
}

/** The ISO time of a picker value read as a UTC wall clock: the inverse of {@link utcPickerValue}. */
export function fromUtcPickerValue(value: Dayjs | null | undefined): string | null {
  if (!value?.isValid()) return null;
  return dayjs.utc(value.format('YYYY-MM-DDTHH:mm:ss.SSS')).toISOString();
}
