/**
 * Query keys of the lookups the License Settings card reads (spec 1 §7
 * Lookups). They sit under the catalogue prefix. Machine instance types are the
 * machines feature's `useInstanceTypes` (same call, same cache).
 */
import { catalogueKeys } from '../../../catalogues/api/keys';

export const licenseLookupKeys = {
  redisInstanceTypes: () => [...catalogueKeys.all, 'redis-instance-types'] as const,
  features: () => [...catalogueKeys.all, 'features'] as const,
  reportingCategories: () => [...catalogueKeys.all, 'reporting-categories'] as const,
};
