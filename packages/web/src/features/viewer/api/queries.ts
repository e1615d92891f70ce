/**
 * Reads of the viewers (spec 2 §2.1, §2.7–2.9, §7), one hook per call, paged
 * and filtered on the server:
 *
 * - `GET /lookup/machines?search&limit` → `{id, name, className}[]` (the machine selector's options; failures leave it empty)
 * - `GET /lookup/machines?ids` → the selected machine's entry (its label; none: `Machine {id}`)
 * - `GET /machines?machineId&startIndex&limit` → `{items, totalItems, totalCapped}` (Machines viewer)
 * - `GET /version-states?state&machineId&classId&component&branch&from&to&sort&order&startIndex&limit` → the same shape (States viewer)
 * - `GET /cloud-instance?machineId&classId&status&active&order&startIndex&limit` → the same shape (Cloud Instances viewer)
 *
 * The previous page stays shown while the next one of the same machine loads;
 * another machine's list is never shown in its place (spec 2 §4).
 */
import { keepPreviousData, useQuery, type Query } from '@tanstack/react-query';
import type { TCloudInstancesPage, TMachineLookup, TMachinesPage, TVersionStatesViewerPage } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { viewerKeys, type CloudInstancesPageQuery, type StatesPageQuery, type ViewerPageQuery } from './keys';

/** Placeholder data: the previous page while the next loads, only when it was of the same machine selection. */
function previousOfSameMachine(machineId: number | undefined) {
  return <T,>(previous: T | undefined, previousQuery: Query<T, Error, T, readonly unknown[]> | undefined): T | undefined => {
    const key = previousQuery?.queryKey.at(-1) as ViewerPageQuery | undefined;
    return key?.machineId === machineId ? previous : undefined;
  };
}

/** Options of the machine selector: at most this many machines a search (spec 2 §2.1). */
export const MACHINE_SELECTOR_LIMIT = 50;

/**
 * The machine selector's options (spec 2 §2.1): the visible machines whose name
 * contains `search` (trimmed; '' = the first machines by name), at most
 * `MACHINE_SELECTOR_LIMIT`, searched on the server: the fleet is never loaded
 * whole. The previous options stay shown while the next search loads.
 */
export function useMachineSearch(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: viewerKeys.machineSearch(term),
    queryFn: ({ signal }) =>
      api.get<TMachineLookup[]>('lookup/machines', {
        searchParams: { search: term, limit: MACHINE_SELECTOR_LIMIT },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The lookup entry of machine `id` (the selected machine's label); `null` when the lookup does not know it. */
export function useMachineEntry(id: number | undefined) {
  return useQuery({
    queryKey: viewerKeys.machineById(id ?? 0),
    queryFn: async ({ signal }) =>
      (await api.get<TMachineLookup[]>('lookup/machines', { searchParams: { ids: String(id) }, signal }))[0] ?? null,
    enabled: id !== undefined,
    staleTime: 60_000,
  });
}

/** One page of the Machines viewer. */
export function useViewerMachines(query: ViewerPageQuery) {
  return useQuery({
    queryKey: viewerKeys.machines(query),
    queryFn: ({ signal }) => api.get<TMachinesPage>('machines', { searchParams: { ...query }, signal }),
    placeholderData: previousOfSameMachine(query.machineId),
    staleTime: 0,
  });
}

/** One page of the States viewer. */
export function useVersionStatesPage(query: StatesPageQuery) {
  return useQuery({
    queryKey: viewerKeys.states(query),
    queryFn: ({ signal }) => api.get<TVersionStatesViewerPage>('version-states', { searchParams: { ...query }, signal }),
    placeholderData: previousOfSameMachine(query.machineId),
    staleTime: 0,
  });
}

/** One page of the Cloud Instances viewer. */
export function useCloudInstancesPage(query: CloudInstancesPageQuery) {
  return useQuery({
    queryKey: viewerKeys.cloudInstances(query),
    queryFn: ({ signal }) => api.get<TCloudInstancesPage>('cloud-instance', { searchParams: { ...query }, signal }),
    placeholderData: previousOfSameMachine(query.machineId),
    staleTime: 0,
  });
}
