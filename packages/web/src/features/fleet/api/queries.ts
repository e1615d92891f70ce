/**
 * Fleet counters of the top bar (spec 3 §2.9, §7 "Fleet counters"):
 * `GET /machines/stats` and `GET /mma/stats`, refetched every
 * `STATS_REFRESH_MS` (30 s) while signed in. Failures are silent (spec 1 §8):
 * the last counters stay, or none are shown.
 */
import { useQuery } from '@tanstack/react-query';
import { STATS_REFRESH_MS, type TFleetFreeze, type TMachineStats, type TMmaStats } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { fleetKeys } from './keys';

export function useMachineStats(enabled: boolean) {
  return useQuery({
    queryKey: fleetKeys.machineStats(),
    queryFn: ({ signal }) => api.get<TMachineStats>('machines/stats', { signal }),
    enabled,
    refetchInterval: STATS_REFRESH_MS,
  });
}

export function useMmaStats(enabled: boolean) {
  return useQuery({
    queryKey: fleetKeys.mmaStats(),
    queryFn: ({ signal }) => api.get<TMmaStats>('mma/stats', { signal }),
    enabled,
    refetchInterval: STATS_REFRESH_MS,
  });
}

/** `GET /fleet/freeze` (issue 25): whether the fleet is frozen, refetched with the counters. */
export function useFleetFreeze() {
  return useQuery({
    queryKey: fleetKeys.freeze(),
    queryFn: ({ signal }) => api.get<TFleetFreeze>('fleet/freeze', { signal }),
    refetchInterval: STATS_REFRESH_MS,
  });
}

