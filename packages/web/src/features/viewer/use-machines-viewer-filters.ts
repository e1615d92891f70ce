/**
 * The Machines viewer's own filters (spec 2 §2.7, spec 3 §2.9; issue 24 point
 * 4): `class` (a class id), `needsAdmin`, `turbo` and `unmanaged` (`true` or
 * `false`), kept in the URL beside the viewers' shared `machine` and `page`
 * (use-viewer-params.ts). The top bar's chips link here with one of them
 * ({@link machinesViewerLink}); `GET /machines` filters with the conditions the
 * chips count with, so the viewer's total equals the chip.
 *
 * Values the URL holds that are not valid are ignored (no filter), so a stale
 * link shows every machine rather than an error.
 */
import { useMemo } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CLASS_IDS, type TMachinesPage } from '@fleet/contracts';
import { api } from '../../app/api-client';
import { writeParam } from '../../lib/url-params';
import { viewerKeys, type ViewerPageQuery } from './api/keys';

/** The status filters, as URL and API parameters. */
export const MACHINE_FLAG_FILTERS = ['needsAdmin', 'turbo', 'unmanaged'] as const;
export type MachineFlagFilter = (typeof MACHINE_FLAG_FILTERS)[number];

export interface MachinesViewerFilters {
  classId?: number;
  needsAdmin?: boolean;
  turbo?: boolean;
  unmanaged?: boolean;
}

/** URL parameter of the class filter. */
const CLASS_PARAM = 'class';

const readFlag = (raw: string | null) => (raw === 'true' ? true : raw === 'false' ? false : undefined);

/** The filters in a query string; invalid values are left out. */
export function readMachinesViewerFilters(params: URLSearchParams): MachinesViewerFilters {
  const classId = Number(params.get(CLASS_PARAM) ?? NaN);
  const filters: MachinesViewerFilters = {};
  if ((CLASS_IDS as readonly number[]).includes(classId)) filters.classId = classId;
  for (const name of MACHINE_FLAG_FILTERS) {
    const value = readFlag(params.get(name));
    if (value !== undefined) filters[name] = value;
  }
  return filters;
}

/** The Machines viewer's URL showing exactly the machines of `filters` (what a top bar chip links to). */
export function machinesViewerLink(filters: MachinesViewerFilters): string {
  const params = new URLSearchParams();
  if (filters.classId !== undefined) params.set(CLASS_PARAM, String(filters.classId));
  for (const name of MACHINE_FLAG_FILTERS) if (filters[name] !== undefined) params.set(name, String(filters[name]));
  const search = params.toString();
  return `/viewer/machines${search ? `?${search}` : ''}`;
}

/** The filters of the URL with setters: each change goes back to page 1. */
export function useMachinesViewerFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readMachinesViewerFilters(params), [params]);
  const update = (key: string, value: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      writeParam(next, key, value);
      next.delete('page');
      return next;
    });
  return {
    filters,
    setClass: (classId: number | undefined) => update(CLASS_PARAM, classId?.toString()),
    setFlag: (name: MachineFlagFilter, value: boolean | undefined) => update(name, value?.toString()),
    clear: () =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const key of [CLASS_PARAM, ...MACHINE_FLAG_FILTERS, 'page']) next.delete(key);
        return next;
      }),
  };
}

/**
 * One page of the Machines viewer, filtered: `GET /machines?machineId&classId&needsAdmin&turbo&unmanaged&startIndex&limit`
 * → TMachinesPage. Under the viewers' list keys (a machine selection clears it);
 * the previous page stays shown while the next one of the same selection and filters loads.
 */
export function useFilteredViewerMachines(query: ViewerPageQuery & { sort?: 'name'; order?: 'asc' | 'desc' }, filters: MachinesViewerFilters) {
  const key = { ...query, ...filters };
  return useQuery({
    queryKey: viewerKeys.machines(key),
    queryFn: ({ signal }) => {
      const searchParams: Record<string, string | number | boolean> = {};
      for (const [name, value] of Object.entries(key)) if (value !== undefined) searchParams[name] = value;
      return api.get<TMachinesPage>('machines', { searchParams, signal });
    },
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey.at(-1) as (ViewerPageQuery & MachinesViewerFilters) | undefined;
      const same =
        before?.machineId === query.machineId &&
        before?.classId === filters.classId &&
        MACHINE_FLAG_FILTERS.every((f) => before?.[f] === filters[f]);
      return same ? keepPreviousData(previous) : undefined;
    },
    staleTime: 0,
  });
}
