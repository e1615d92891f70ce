/**
 * A table's rows rendered in the background (issue 26, Total Blocking Time):
 * React renders them in a transition it can interrupt, in slices, so a page of
 * rows arriving never blocks the main thread in one long task.
 *
 * `items`: the rows, undefined while there are none (one shared empty array
 * stands for them: a new `[]` at each render would never let the deferred
 * value settle). Answers the rows to draw and `pending`: `loading`, or newer
 * rows not drawn yet (a table shows no empty text then).
 */
import { useDeferredValue } from 'react';

const NO_ROWS: never[] = [];

export function useDeferredRows<T>(items: T[] | undefined, loading: boolean): { rows: T[]; pending: boolean } {
  const latest = items ?? NO_ROWS;
  const rows = useDeferredValue(latest);
  return { rows, pending: loading || rows !== latest };
}
