/**
 * The accounts list's reads for a first screen (issue 26; `RouteHandle.prefetch`
 * in app/routes.tsx): started from the URL's query once the user is known,
 * while the list's code still loads. Statically imported by the router table:
 * keep it to the query definitions and the URL parsing.
 */
import type { QueryClient } from '@tanstack/react-query';
import { prefetchAccountsList } from './api/queries';
import { accountListState } from './use-account-list-params';

export function prefetchAccountsListPage(client: QueryClient, search: URLSearchParams): void {
  const { query, filter } = accountListState(search);
  prefetchAccountsList(client, query, filter);
}
