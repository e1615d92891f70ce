/**
 * Lookups of the Instance Settings card (spec 1 §7 Lookups, spec 3 §7 Cloud):
 * `GET /cloud/regions`, `GET /irmn-versions` (the marketing version
 * suggestions) and `GET /library/sample-data-files`. Their failures are silent
 * (spec 1 §8 "loading regions, images, ... files"): the pickers stay empty.
 * The images are the catalogue's `useSaasImages`.
 */
import { useQuery } from '@tanstack/react-query';
import type { TIrmnVersion, TRegion } from '@fleet/contracts';
import { api } from '../../../../app/api-client';
import { instanceLookupKeys } from './keys';

/** Lookups change rarely; a minute is fresh enough for a form. */
const LOOKUP_STALE_MS = 60_000;

export function useRegions() {
  return useQuery({
    queryKey: instanceLookupKeys.regions(),
    queryFn: ({ signal }) => api.get<TRegion[]>('cloud/regions', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

export function useIrmnVersions() {
  return useQuery({
    queryKey: instanceLookupKeys.irmnVersions(),
    queryFn: ({ signal }) => api.get<TIrmnVersion[]>('irmn-versions', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

/** Sample data file names, for the sample data switch's file. */
export function useSampleDataFiles() {
  return useQuery({
    queryKey: instanceLookupKeys.sampleDataFiles(),
    queryFn: ({ signal }) => api.get<string[]>('library/sample-data-files', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}
