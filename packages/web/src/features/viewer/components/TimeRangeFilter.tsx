/**
 * A viewer's time range filter (issue 24 point 7): two dates with times
 * (minutes, in the browser's zone, shown with its offset from UTC), either end open. `value` and `onChange`
 * carry the ends as ISO 8601 strings (undefined: open), as the URL and the
 * server's `from` and `to` take them.
 */
import { RangePicker } from '../../../components/LazyDatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { zonedPickerFormat } from '../../../lib/format';

type Range = [Dayjs | null, Dayjs | null] | null;

export interface TimeRangeFilterProps {
  /** The accessible name, e.g. "Queued between". */
  label: string;
  /** Prefix of the two inputs' ids (`{id}-from`, `{id}-to`). */
  id: string;
  /** Placeholders of the two ends, e.g. ["Queued from", "Queued to"]. */
  placeholder: [string, string];
  value: { from?: string; to?: string };
  onChange(range: { from: string | undefined; to: string | undefined }): void;
  disabled?: boolean;
}

export function TimeRangeFilter({ label, id, placeholder, value, onChange, disabled }: TimeRangeFilterProps) {
  const range: Range = value.from || value.to ? [value.from ? dayjs(value.from) : null, value.to ? dayjs(value.to) : null] : null;
  return (
    <RangePicker
      aria-label={label}
      id={{ start: `${id}-from`, end: `${id}-to` }}
      showTime={{ format: 'HH:mm' }}
      format={zonedPickerFormat()}
      allowEmpty={[true, true]}
      placeholder={placeholder}
      value={range}
      disabled={disabled}
      onChange={(next) => {
        const [from, to] = (next as Range) ?? [null, null];
        onChange({ from: from?.toISOString(), to: to?.toISOString() });
      }}
      style={{ width: 430 }}
    />
  );
}
