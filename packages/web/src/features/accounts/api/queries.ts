/**
 * Reads of the accounts area (spec 1 §2 Accounts list, §7 Accounts), one hook per
 * call. List, statistics and launcher-login failures are silent (spec 1 §8):
 * the screens show an empty table or no statistics.
 */
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TAccountLookup, TAccountsInfo, TLauncherLogin, TListAccountsResponse } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { accountKeys } from './keys';
import { filterParams, listParams, type AccountFilter, type AccountListQuery } from './params';

const accountsQuery = (query: AccountListQuery) =>
  queryOptions({
    queryKey: accountKeys.list(query),
    queryFn: ({ signal }) => api.get<TListAccountsResponse>('accounts', { searchParams: listParams(query), signal }),
  });

const accountsInfoQuery = (filter: AccountFilter) =>
  queryOptions({
    queryKey: accountKeys.info(filter),
    queryFn: ({ signal }) => api.get<TAccountsInfo>('accounts/info', { searchParams: filterParams(filter), signal }),
  });

/** `GET /accounts`: one page of accounts; the previous page stays shown while the next loads. */
export function useAccounts(query: AccountListQuery) {
  return useQuery({ ...accountsQuery(query), placeholderData: keepPreviousData });
}

/** `GET /accounts/info`: footer statistics of the accounts matching `filter`. */
export function useAccountsInfo(filter: AccountFilter) {
  return useQuery({ ...accountsInfoQuery(filter), placeholderData: keepPreviousData });
}

/** Starts the list's two reads for `query` and `filter` before the list's code runs (a first screen, issue 26). */
export function prefetchAccountsList(client: QueryClient, query: AccountListQuery, filter: AccountFilter): void {
  void client.prefetchQuery(accountsQuery(query));
  void client.prefetchQuery(accountsInfoQuery(filter));
}

/**
 * `GET /accounts/{id}/launcher-logins` (write permission; each read is audited
 * by the server, so it is never cached between openings of the dialog).
 */
export function useLauncherLogins(accountId: number | undefined) {
  return useQuery({
    queryKey: accountKeys.launcherLogins(accountId ?? 0),
    queryFn: ({ signal }) => api.get<TLauncherLogin[]>(`accounts/${accountId}/launcher-logins`, { signal }),
    enabled: accountId !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
}

/** `GET /lookup/accounts`: id, name and class of every account the user may see. */
export function useAccountLookup() {
  return useQuery({
    queryKey: accountKeys.lookup(),
    queryFn: ({ signal }) => api.get<TAccountLookup[]>('lookup/accounts', { signal }),
    staleTime: 60_000,
  });
}
