/**
 * Catalogue lookups used by other screens (spec 1 §7 Lookups, spec 3 §7 Cloud):
 * `GET /cloud/images` and `GET /irmn-versions` (the marketing version
 * suggestions and the library file dialog's version filter). Failures are
 * silent (spec 1 §8 "loading images").
 */
import { useQuery } from '@tanstack/react-query';
import type { TIrmnVersion, TSaasImage } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { catalogueKeys } from './keys';

/** Catalogues change rarely; a minute keeps the options fresh enough. */
const CATALOGUE_STALE_MS = 60_000;

export function useSaasImages() {
  return useQuery({
    queryKey: catalogueKeys.saasImages(),
    queryFn: ({ signal }) => api.get<TSaasImage[]>('cloud/images', { signal }),
    staleTime: CATALOGUE_STALE_MS,
  });
}

export function useIrmnVersions() {
  return useQuery({
    queryKey: catalogueKeys.irmnVersions(),
    queryFn: ({ signal }) => api.get<TIrmnVersion[]>('irmn-versions', { signal }),
    staleTime: CATALOGUE_STALE_MS,
  });
}
