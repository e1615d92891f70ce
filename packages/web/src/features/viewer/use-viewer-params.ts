/**
 * The viewers' state kept in the URL query string (spec 2 §2.1, §4; DESIGN §10
 * "URLs that keep filters"): `machine` (the selected machine id, shared by every
 * viewer: the sidebar carries it from one viewer to the next), `page` (1-based)
 * and each viewer's own filters.
 *
 * Choosing another machine goes back to page 1 and clears the cached paged
 * lists of the viewers (spec 2 §4), so that no list of the former selection is
 * shown again from the cache.
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { readPage, writeParam } from '../../lib/url-params';
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

/** The part of a query string the viewers share: `?machine=…`, or '' without a selection. */
export function viewerSearch(search: string): string {
  const id = readMachineParam(new URLSearchParams(search));
  return id === undefined ? '' : `?${MACHINE_PARAM}=${id}`;
}

/**
 * The selected machine, the page and the viewer's own parameters, with setters.
 * `setParam` changes one filter (back to page 1); `setMachine` selects a machine
 * (back to page 1, viewer lists cleared).
 */
export function useViewerParams() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const state = useMemo(() => ({ machineId: readMachineParam(params), page: readPage(params), params }), [params]);

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

  const setParam = (key: string, value: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      writeParam(next, key, value);
      next.delete('page');
      return next;
    });

  const setPage = (page: number) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      writeParam(next, 'page', page > 1 ? String(page) : undefined);
      return next;
    });

  return { ...state, setMachine, setParam, setPage };
}
