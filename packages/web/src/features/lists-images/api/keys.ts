/**
 * Query keys of the image catalogue screens (spec 3 §2.2–§2.4). They extend the
 * shared catalogue keys (`features/catalogues/api/keys.ts`), so that a change
 * invalidates the screens and the pickers that read the same data (the image
 * picker of the instance settings, the IRMN version lookups) at once.
 */
import type { TListCloudImagesQuery, TListSaasImagesQuery } from '@fleet/contracts';
import { catalogueKeys } from '../../catalogues/api/keys';

export const imageKeys = {
  /** Every IRMN version query, the pickers' included. */
  irmnVersions: () => catalogueKeys.irmnVersions(),
  irmnVersionStatuses: () => [...catalogueKeys.all, 'irmn-version-statuses'] as const,
  /** Every SaaS image query, the image picker's included. */
  saasImages: () => catalogueKeys.saasImages(),
  saasImageList: (query: TListSaasImagesQuery) => [...catalogueKeys.saasImages(), 'list', query] as const,
  cloudImages: () => [...catalogueKeys.all, 'cloud-images'] as const,
  cloudImageList: (query: TListCloudImagesQuery) => [...imageKeys.cloudImages(), query] as const,
};
