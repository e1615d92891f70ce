/**
 * Fleet counters of the top bar (spec 3 §2.9, §7 "Fleet counters"):
 * `GET /machines/stats` and `GET /mma/stats`, refetched every
 * `STATS_REFRESH_MS` (30 s) while signed in. Failures are silent (spec 1 §8):
 * the last counters stay, or none are shown.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { STATS_REFRESH_MS, type TFleetFreeze, type TMachineStats, type TMmaStats } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { fleetKeys } from './keys';

const machineStatsQuery = queryOptions({
  queryKey: fleetKeys.machineStats(),
  queryFn: ({ signal }) => api.get<TMachineStats>('machines/stats', { signal }),
});
const mmaStatsQuery = queryOptions({ queryKey: fleetKeys.mmaStats(), queryFn: ({ signal }) => api.get<TMmaStats>('mma/stats', { signal }) });
const freezeQuery = queryOptions({ queryKey: fleetKeys.freeze(), queryFn: ({ signal }) => api.get<TFleetFreeze>('fleet/freeze', { signal }) });

/**
 * Starts the shell's own reads (machine and MMA stats, the freeze) before the
 * page's: called while the shell first renders, so their requests leave first
 * (a page's queries start in its effects, which run before the shell's) and the
 * banners above the page are known early (issue 26).
 */
export function prefetchShellQueries(client: QueryClient): void {
  void client.prefetchQuery(machineStatsQuery);
  void client.prefetchQuery(mmaStatsQuery);
  void client.prefetchQuery(freezeQuery);
}

export function useMachineStats(enabled: boolean) {
  return useQuery({ ...machineStatsQuery, enabled, refetchInterval: STATS_REFRESH_MS });
}

export function useMmaStats(enabled: boolean) {
  return useQuery({ ...mmaStatsQuery, enabled, refetchInterval: STATS_REFRESH_MS });
}

/** `GET /fleet/freeze` (issue 25): whether the fleet is frozen, refetched with the counters. */
export function useFleetFreeze() {
  return useQuery({ ...freezeQuery, refetchInterval: STATS_REFRESH_MS });
}
