/**
 * A table column title that is inert while antd renders it in the table's
 * hidden measure row. With horizontal scrolling antd copies every column title
 * into an `aria-hidden` row to measure widths; the copy of a selection column's
 * "Select all" checkbox is then a focusable control a screen reader is told is
 * not there (axe: aria-hidden-focus). Use as `rowSelection.columnTitle`:
 * `columnTitle: (checkbox) => <InertInMeasureRow>{checkbox}</InertInMeasureRow>`.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';

export function InertInMeasureRow({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const span = ref.current;
    // Only the measuring copy: the visible title stays operable.
    if (span?.closest('.ant-table-measure-row')) span.inert = true;
  }, []);
  return <span ref={ref}>{children}</span>;
}
