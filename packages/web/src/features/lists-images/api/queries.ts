/**
 * Reads of the image catalogue screens (spec 3 §2.2–§2.4, §7 IRMN versions,
 * Cloud), one hook per call. The IRMN versions list itself is the catalogue's
 * `useIrmnVersions` (same key, same data as the lookups).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TCloudImage, TIrmnVersion, TListCloudImagesQuery, TListSaasImagesQuery, TSaasImage } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { imageKeys } from './keys';

/** `GET /lookup/irmn-version-statuses`: InDevelopment, Planned, Released. */
export function useIrmnVersionStatuses() {
  return useQuery({
    queryKey: imageKeys.irmnVersionStatuses(),
    queryFn: ({ signal }) => api.get<TIrmnVersion['status'][]>('lookup/irmn-version-statuses', { signal }),
    staleTime: Infinity,
  });
}

/** `GET /cloud/images?search=&region=`: the SaaS Images table; the previous rows stay while a new search loads. */
export function useSaasImageList(query: TListSaasImagesQuery) {
  return useQuery({
    queryKey: imageKeys.saasImageList(query),
    queryFn: ({ signal }) => api.get<TSaasImage[]>('cloud/images', { searchParams: query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /cloud/caa-images?name=&region=`: images held by the cloud provider. */
export function useCloudImages(query: TListCloudImagesQuery, enabled = true) {
  return useQuery({
    queryKey: imageKeys.cloudImageList(query),
    queryFn: ({ signal }) => api.get<TCloudImage[]>('cloud/caa-images', { searchParams: query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
