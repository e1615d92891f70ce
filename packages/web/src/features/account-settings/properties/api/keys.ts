/**
 * Query keys of the lookups the Account Properties card reads (spec 1 §7
 * Lookups, Accounts). Customers sit under the catalogue prefix; the parent
 * candidates under the accounts prefix, so a push (which invalidates every
 * account query) refreshes them too.
 */
import { accountKeys } from '../../../accounts/api/keys';
import { catalogueKeys } from '../../../catalogues/api/keys';

export const propertiesKeys = {
  customers: () => [...catalogueKeys.all, 'customers'] as const,
  parentCandidates: () => [...accountKeys.lookup(), 'parent-candidates'] as const,
};
