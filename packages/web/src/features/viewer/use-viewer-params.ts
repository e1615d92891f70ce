/**
 * The viewers' state kept in the URL query string (spec 2 §2.1, §4; DESIGN §10
 * "URLs that keep filters"; issue 24 point 7): `machine` (the selected machine
 * id, shared by every viewer: the sidebar carries it from one viewer to the
 * next), `page` (1-based), `size` (20, 50 or 100; 20 when absent), `sort` and
 * `order` (`asc`/`desc`: the server's order, absent for the viewer's default)
 * and each viewer's own filters.
 *
 * Choosing another machine goes back to page 1 and clears the cached paged
 * lists of the viewers (spec 2 §4), so that no list of the former selection is
 * shown again from the cache.
 */
import { useMemo } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import { useQueryClient } from '@tanstack/react-query';
import { CLASS_IDS, VIEWER_PAGE_SIZE, VIEWER_PAGE_SIZES, type TSortOrder } from '@fleet/contracts';
import { oneOf, readPage, writeParam } from '../../lib/url-params';
import { clearViewerLists } from './api/keys';

/** Name of the query parameter holding the selected machine (spec 2 §2.1). */
export const MACHINE_PARAM = 'machine';

/** The `machine` parameter as a machine id: a positive integer, else none. */
export function readMachineParam(params: URLSearchParams): number | undefined {
  const raw = params.get(MACHINE_PARAM);
  if (raw === null || raw.trim() === '') return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The `size` parameter: one of VIEWER_PAGE_SIZES, else VIEWER_PAGE_SIZE (20). */
export function readPageSize(params: URLSearchParams): number {
  const size = Number(params.get('size'));
  return (VIEWER_PAGE_SIZES as readonly number[]).includes(size) ? size : VIEWER_PAGE_SIZE;
}

/** The `class` parameter: a machine class id (one of CLASS_IDS), else none. */
export function readClassParam(params: URLSearchParams): number | undefined {
  const raw = params.get('class');
  return CLASS_IDS.find((id) => String(id) === raw);
}

/** A time parameter (`from`, `to`): a date and time of at most 40 characters that parses, else none. */
export function readTimeParam(params: URLSearchParams, key: string): string | undefined {
  const raw = params.get(key);
  return raw && raw.length <= 40 && !Number.isNaN(Date.parse(raw)) ? raw : undefined;
}

/** A viewer's order from `sort` (one of `sorts`) and `order`; none (the viewer's default) when `sort` is absent or unknown. */
export function readSort<S extends string>(params: URLSearchParams, sorts: readonly S[]): { sort: S; order: TSortOrder } | undefined {
  const sort = oneOf(sorts)(params.get('sort'));
  if (sort === undefined) return undefined;
  return { sort, order: params.get('order') === 'asc' ? 'asc' : 'desc' };
}

/**
 * The antd column `sortOrder` of the column sorting by `key` under `current`
 * (controlled sorting: the URL is the truth), null when another order holds.
 */
export function columnSortOrder(current: { sort: string; order: TSortOrder } | undefined, key: string): 'ascend' | 'descend' | null {
  if (current?.sort !== key) return null;
  return current.order === 'asc' ? 'ascend' : 'descend';
}

/** An antd Table `onChange` sorter (one column) as the URL's sort: its column key and order, or none (the default). */
export function sorterToSort(sorter: unknown): { sort: string; order: TSortOrder } | undefined {
  const one = (Array.isArray(sorter) ? sorter[0] : sorter) as { columnKey?: unknown; order?: unknown } | undefined;
  if (!one || typeof one.columnKey !== 'string' || (one.order !== 'ascend' && one.order !== 'descend')) return undefined;
  return { sort: one.columnKey, order: one.order === 'ascend' ? 'asc' : 'desc' };
}

/**
 * An antd Table `onChange` that writes a sort click into the URL (`setSort`):
 * the column's key and order when it is one of `sorts`, else (the sort
 * cleared, or a column of no server order) the viewer's default order.
 * Paging and filtering through the table are not its business.
 */
export function onSortChange<S extends string>(sorts: readonly S[], setSort: (sort: { sort: S; order: TSortOrder } | undefined) => void) {
  return (_pagination: unknown, _filters: unknown, sorter: unknown, extra: { action: string }) => {
    if (extra.action !== 'sort') return;
    const next = sorterToSort(sorter);
    setSort(next && (sorts as readonly string[]).includes(next.sort) ? { sort: next.sort as S, order: next.order } : undefined);
  };
}

/** The part of a query string the viewers share: `?machine=…`, or '' without a selection. */
export function viewerSearch(search: string): string {
  const id = readMachineParam(new URLSearchParams(search));
  return id === undefined ? '' : `?${MACHINE_PARAM}=${id}`;
}

/**
 * The selected machine, the page, its size and the viewer's own parameters,
 * with setters. `setParam` changes one filter, `setParams` several at once
 * (a time range, a sort and its order), both back to page 1; `setMachine`
 * selects a machine (back to page 1, viewer lists cleared); `setPage` moves to
 * a page, with `size` a new page size (back to page 1 when it changes).
 */
export function useViewerParams() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const state = useMemo(() => ({ machineId: readMachineParam(params), page: readPage(params), pageSize: readPageSize(params), params }), [params]);

  const setMachine = (machineId: number | undefined) => {
    if (machineId === state.machineId) return;
    clearViewerLists(queryClient);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, MACHINE_PARAM, machineId?.toString());
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  };

  const setValues = (values: Record<string, string | undefined>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [key, value] of Object.entries(values)) writeParam(next, key, value);
      next.delete('page');
      return next;
    });
  const setParam = (key: string, value: string | undefined) => setValues({ [key]: value });

  const setPage = (page: number, size?: number) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      // A size outside VIEWER_PAGE_SIZES (a viewer of its own fixed size passing antd's onChange on) is no change.
      const sizeChanged = size !== undefined && size !== readPageSize(prev) && (VIEWER_PAGE_SIZES as readonly number[]).includes(size);
      if (sizeChanged) writeParam(next, 'size', size === VIEWER_PAGE_SIZE ? undefined : String(size));
      writeParam(next, 'page', page > 1 && !sizeChanged ? String(page) : undefined);
      return next;
    });

  /** Sets the order (`sort` and `order`), or back to the viewer's default with none. */
  const setSort = (sort: { sort: string; order: TSortOrder } | undefined) => setValues({ sort: sort?.sort, order: sort?.order });

  return { ...state, setMachine, setParam, setParams: setValues, setPage, setSort };
}
