/**
 * Lookups of the License Settings card (spec 1 §2, §7 Lookups):
 * `GET /cloud/redis-instance-types`, `GET /lookup/features` and
 * `GET /lookup/reporting-categories` (id and name; the license stores names).
 * Failures are silent (spec 1 §8 "loading ... instance types"): the pickers
 * stay empty. Machine instance types: `useInstanceTypes` of the machines feature.
 */
import { useQuery } from '@tanstack/react-query';
import type { TInstanceType, TLookupItem } from '@fleet/contracts';
import { api } from '../../../../app/api-client';
import { licenseLookupKeys } from './keys';

/** Lookups change rarely; a minute is fresh enough for a form. */
const LOOKUP_STALE_MS = 60_000;

/** `GET /cloud/redis-instance-types`: the Redis (cache) instance types, for the optional Redis picker. */
export function useRedisInstanceTypes() {
  return useQuery({
    queryKey: licenseLookupKeys.redisInstanceTypes(),
    queryFn: ({ signal }) => api.get<TInstanceType[]>('cloud/redis-instance-types', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

/** `GET /lookup/features`: license features (the license keeps their names). */
export function useFeatures() {
  return useQuery({
    queryKey: licenseLookupKeys.features(),
    queryFn: ({ signal }) => api.get<TLookupItem[]>('lookup/features', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

/** `GET /lookup/reporting-categories`: report categories (the license keeps their names). */
export function useReportingCategories() {
  return useQuery({
    queryKey: licenseLookupKeys.reportingCategories(),
    queryFn: ({ signal }) => api.get<TLookupItem[]>('lookup/reporting-categories', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}
