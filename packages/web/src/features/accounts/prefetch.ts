/**
 * The accounts list's reads for a first screen (issue 26; `RouteHandle.prefetch`
 * in app/routes.tsx): started from the URL's query once the user is known,
 * while the list's code still loads. Loaded on its own for that: keep it to the
 * query definitions and the URL parsing (the list's chunks have them too).
 */
import type { QueryClient } from '@tanstack/react-query';
import { prefetchAccountsList } from './api/queries';
import { accountListState } from './use-account-list-params';

export default function prefetchAccountsListPage(client: QueryClient, search: URLSearchParams): void {
  const { query, filter } = accountListState(search);
  prefetchAccountsList(client, query, filter);
}
