/**
 * antd's `DatePicker` and `DatePicker.RangePicker`, loaded when a screen first
 * draws one (issue 26, script per route): rc-picker with dayjs's plugins is
 * about 40 KB gzip, on screens where the picker is a filter or one field of a
 * form. Until its code is in (a moment, on the first screen that has one), a
 * read-only box of the same height and width stands in, with the picker's
 * accessible name, id, placeholder, value and disabled state, so nothing
 * moves when the picker comes. Props are antd's, passed through as they are (a Form.Item's value
 * and onChange included).
 */
import { Suspense, type ComponentProps, type CSSProperties } from 'react';
import { Input } from 'antd';
import type { DatePicker as AntDatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazyNamed } from '../lib/lazy-named';

type DatePickerProps = ComponentProps<typeof AntDatePicker>;
type RangePickerProps = ComponentProps<typeof AntDatePicker.RangePicker>;

const LoadedDatePicker = lazyNamed(() => import('./date-picker'), 'DatePicker');
const LoadedRangePicker = lazyNamed(() => import('./date-picker'), 'RangePicker');

/**
 * What stands in while the picker loads: an input the picker's size, named as it is, showing its value, read-only,
 * and disabled when the picker would be (its prop, or antd's form-wide `disabled`, which antd's Input reads too).
 */
function PickerPlaceholder(props: { label?: string; id?: string; placeholder?: string; value?: string; disabled?: boolean; style?: CSSProperties }) {
  return <Input readOnly id={props.id} aria-label={props.label} placeholder={props.placeholder} value={props.value} disabled={props.disabled} style={props.style} />;
}

/** antd's `DatePicker`, loaded when first drawn. */
export function DatePicker(props: DatePickerProps) {
  const placeholder = typeof props.placeholder === 'string' ? props.placeholder : undefined;
  const value = props.value && typeof props.format === 'string' ? (props.value as Dayjs).format(props.format) : undefined;
  return (
    <Suspense fallback={<PickerPlaceholder label={props['aria-label']} id={props.id} placeholder={placeholder} value={value} disabled={props.disabled} style={props.style} />}>
      <LoadedDatePicker {...props} />
    </Suspense>
  );
}

/** antd's `DatePicker.RangePicker`, loaded when first drawn; its placeholder shows both ends ("From → To"). */
export function RangePicker(props: RangePickerProps) {
  const id = typeof props.id === 'object' ? props.id.start : props.id;
  const placeholder = Array.isArray(props.placeholder) ? props.placeholder.join(' → ') : undefined;
  const format = typeof props.format === 'string' ? props.format : undefined;
  const ends = props.value && format ? props.value.map((end) => end?.format(format) ?? '') : [];
  const value = ends.some(Boolean) ? ends.join(' → ') : undefined;
  return (
    <Suspense fallback={<PickerPlaceholder label={props['aria-label']} id={id} placeholder={placeholder} value={value} disabled={props.disabled === true} style={props.style} />}>
      <LoadedRangePicker {...props} />
    </Suspense>
  );
}
