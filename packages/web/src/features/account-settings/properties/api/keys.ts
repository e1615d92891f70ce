/**
 * Query keys of the lookups the Account Properties card reads (spec 1 §7
 * Lookups, Accounts). The parent candidates sit under the accounts prefix, so a
 * push (which invalidates every account query) refreshes them too. Customers
 * are the catalogue's `useCustomers` (`catalogues/api/lookups`).
 */
import { accountKeys } from '../../../accounts/api/keys';

export const propertiesKeys = {
  parentCandidates: () => [...accountKeys.lookup(), 'parent-candidates'] as const,
};
