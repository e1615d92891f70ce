/**
 * Lookups of the Account Properties card (spec 1 §2, §5, §7):
 * `GET /lookup/accounts?parentCandidates=true` (the add-on parent picker: no
 * templates, no accounts that have a parent, no add-on accounts). Failures are
 * silent (spec 1 §8 "loading ... accounts"): the picker stays empty. Customers
 * are the catalogue's `useCustomers`; auto test branches the software
 * catalogue's `useBranches`.
 */
import { useQuery } from '@tanstack/react-query';
import type { TAccountLookup, TAccountLookupQuery } from '@fleet/contracts';
import { api } from '../../../../app/api-client';
import { propertiesKeys } from './keys';

/** Lookups change rarely; a minute is fresh enough for a form. */
const LOOKUP_STALE_MS = 60_000;

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
