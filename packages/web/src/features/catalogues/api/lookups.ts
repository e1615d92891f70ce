/**
 * Lookups of the account settings forms (spec 1 §2 cards, §7 Lookups, spec 3
 * §7 Cloud): the pickers' options, each one `GET` kept a minute. Their failures
 * are silent (spec 1 §8 "loading regions, images, ... instance types"): the
 * pickers stay empty. Each key is `[...catalogueKeys.all, name]`, so
 * invalidating every catalogue query reaches them too.
 *
 * Images and IRMN versions are the catalogue's `useSaasImages` and
 * `useIrmnVersions` (`./queries`); machine instance types the machines
 * feature's `useInstanceTypes`; auto test branches the software catalogue's
 * `useBranches`.
 */
import { useQuery } from '@tanstack/react-query';
import type { TInstanceType, TLookupItem, TRegion } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { catalogueKeys } from './keys';

/** Lookups change rarely; a minute is fresh enough for a form. */
const LOOKUP_STALE_MS = 60_000;

type LookupName = 'customers' | 'redis-instance-types' | 'features' | 'reporting-categories' | 'regions' | 'sample-data-files';

/** The query key of a lookup. */
export const lookupKey = (name: LookupName) => [...catalogueKeys.all, name] as const;

/** `GET /{path}` as the lookup `name`; fetched only while `enabled`. */
function useLookup<T>(name: LookupName, path: string, enabled = true) {
  return useQuery({
    queryKey: lookupKey(name),
    queryFn: ({ signal }) => api.get<T>(path, { signal }),
    staleTime: LOOKUP_STALE_MS,
    enabled,
  });
}

/** `GET /customers`: known customer names, sorted by the server (the customer autocomplete). */
export function useCustomers(enabled = true) {
  return useLookup<string[]>('customers', 'customers', enabled);
}

/** `GET /cloud/redis-instance-types`: the Redis (cache) instance types, for the optional Redis picker. */
export function useRedisInstanceTypes() {
  return useLookup<TInstanceType[]>('redis-instance-types', 'cloud/redis-instance-types');
}

/** `GET /lookup/features`: license features (the license keeps their names). */
export function useFeatures() {
  return useLookup<TLookupItem[]>('features', 'lookup/features');
}

/** `GET /lookup/reporting-categories`: report categories (the license keeps their names). */
export function useReportingCategories() {
  return useLookup<TLookupItem[]>('reporting-categories', 'lookup/reporting-categories');
}

/** `GET /cloud/regions`: the regions of the region picker. */
export function useRegions() {
  return useLookup<TRegion[]>('regions', 'cloud/regions');
}

/** `GET /library/sample-data-files`: sample data file names, for the sample data switch's file. */
export function useSampleDataFiles() {
  return useLookup<string[]>('sample-data-files', 'library/sample-data-files');
}
