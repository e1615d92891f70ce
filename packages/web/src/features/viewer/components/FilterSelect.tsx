/**
 * One filter of a viewer's toolbar (issue 24 point 7): an antd Select named by
 * `label` (its accessible name), showing `placeholder` when nothing is chosen,
 * clearable, `width` pixels wide. `onChange` gets the chosen value, or
 * undefined when cleared; the viewer writes it into the URL.
 */
import { Select } from 'antd';

export interface FilterOption<T extends string | number> {
  value: T;
  label: string;
}

export interface FilterSelectProps<T extends string | number> {
  label: string;
  placeholder: string;
  options: readonly FilterOption<T>[];
  value: T | undefined;
  onChange(value: T | undefined): void;
  /** Pixels. */
  width: number;
  /** Type to narrow the options (long lists). */
  showSearch?: boolean;
  disabled?: boolean;
}

export function FilterSelect<T extends string | number>({ label, placeholder, options, value, onChange, width, showSearch, disabled }: FilterSelectProps<T>) {
  return (
    <Select<T>
      aria-label={label}
      placeholder={placeholder}
      allowClear
      showSearch={showSearch}
      disabled={disabled}
      options={options as FilterOption<T>[]}
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      style={{ width }}
    />
  );
}
