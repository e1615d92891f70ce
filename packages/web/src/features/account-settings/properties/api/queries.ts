/**
 * Lookups of the Account Properties card (spec 1 §2, §5, §7): `GET /customers`
 * (the customer autocomplete) and `GET /lookup/accounts?parentCandidates=true`
 * (the add-on parent picker: no templates, no accounts that have a parent, no
 * add-on accounts). Failures are silent (spec 1 §8 "loading ... accounts"):
 * the pickers stay empty. Auto test branches are the software catalogue's
 * `useBranches`.
 */
import { useQuery } from '@tanstack/react-query';
import type { TAccountLookup, TAccountLookupQuery } from '@fleet/contracts';
import { api } from '../../../../app/api-client';
import { propertiesKeys } from './keys';

/** Lookups change rarely; a minute is fresh enough for a form. */
const LOOKUP_STALE_MS = 60_000;

/** Known customer names, sorted by the server. */
export function useCustomers(enabled = true) {
  return useQuery({
    queryKey: propertiesKeys.customers(),
    queryFn: ({ signal }) => api.get<string[]>('customers', { signal }),
    staleTime: LOOKUP_STALE_MS,
    enabled,
  });
}

/** Accounts an add-on may have as parent (spec 1 §5), by name; fetched only while `enabled` (an add-on form). */
export function useParentCandidates(enabled: boolean) {
  const searchParams: TAccountLookupQuery = { parentCandidates: 'true' };
  return useQuery({
    queryKey: propertiesKeys.parentCandidates(),
    queryFn: ({ signal }) => api.get<TAccountLookup[]>('lookup/accounts', { searchParams, signal }),
    staleTime: LOOKUP_STALE_MS,
    enabled,
  });
}
