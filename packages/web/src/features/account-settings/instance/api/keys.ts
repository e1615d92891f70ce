/**
 * Query keys of the lookups the Instance Settings card reads (spec 1 §7
 * Lookups). They sit under the catalogue prefix, so invalidating every
 * catalogue query reaches them too.
 */
import { catalogueKeys } from '../../../catalogues/api/keys';

export const instanceLookupKeys = {
  regions: () => [...catalogueKeys.all, 'regions'] as const,
  irmnVersions: () => [...catalogueKeys.all, 'irmn-versions'] as const,
  sampleDataFiles: () => [...catalogueKeys.all, 'sample-data-files'] as const,
};
