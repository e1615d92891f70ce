/**
 * Reads of the edit-account screen (spec 1 §2 Edit account, §7 Accounts), one
 * hook per call. A failure of the account itself is shown by the page (the
 * server's detail in an error alert, spec 1 §8); sites and services show an
 * empty table with a note.
 */
import { useQuery } from '@tanstack/react-query';
import type { TAccountDetail, TAccountService, TSite } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { accountEditKeys } from './keys';

/** `GET /accounts/{id}`: the account with its settings sections and section versions. */
export function useAccount(accountId: number | undefined) {
  return useQuery({
    queryKey: accountEditKeys.detail(accountId ?? 0),
    queryFn: ({ signal }) => api.get<TAccountDetail>(`accounts/${accountId}`, { signal }),
    enabled: accountId !== undefined,
  });
}

/** `GET /accounts/{id}/sites`. */
export function useSites(accountId: number, enabled = true) {
  return useQuery({
    queryKey: accountEditKeys.sites(accountId),
    queryFn: ({ signal }) => api.get<TSite[]>(`accounts/${accountId}/sites`, { signal }),
    enabled,
  });
}

/** `GET /accounts/{id}/software-status`: the account's services, derived from its machines. */
export function useSoftwareStatus(accountId: number, enabled = true) {
  return useQuery({
    queryKey: accountEditKeys.softwareStatus(accountId),
    queryFn: ({ signal }) => api.get<TAccountService[]>(`accounts/${accountId}/software-status`, { signal }),
    enabled,
    staleTime: 0,
  });
}
