/**
 * antd's date pickers, in a module of their own so that `LazyDatePicker.tsx`
 * loads them (rc-picker and dayjs's plugins) when a screen first draws one.
 */
import { DatePicker as AntDatePicker } from 'antd';

export const DatePicker = AntDatePicker;
export const RangePicker = AntDatePicker.RangePicker;
