/**
 * The first screen's reads start while its code loads (issue 26 point 2: "data
 * for the first screen starts loading in parallel with the code"). Without it a
 * cold load ran three steps one after the other: the code, then `GET /user/me`,
 * then the shell's and the page's reads from their components' effects.
 *
 * Started the moment `GET /user/me` answers for the stored token (an observer of
 * AuthProvider's query, notified before React renders the answer), never
 * before: a read answered 401 clears the session, and the user's answer must
 * come first so that its error is the one shown. Starts the shell's reads
 * (fleet counters, standby, freeze) and those of the matched routes'
 * `RouteHandle.prefetch`, from the URL's query. Once per page load, for the
 * location the page was opened at; later screens have their code at once.
 */
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { matchRoutes, parsePath, type RouteObject } from 'react-router';
import { authKeys } from './auth/auth-api';
import { getToken } from './auth/token-store';
import type { RouteHandle } from './routes';

/**
 * Starts the reads of the screen the page is at (the location in its hash,
 * matched against `routes`; module docstring). Their code is imported here,
 * not with the entry: the shell's and the page's chunks, which index.html's
 * route preload has already asked for.
 */
function prefetchScreen(client: QueryClient, routes: RouteObject[]): void {
  const { pathname = '/', search = '' } = parsePath(window.location.hash.slice(1) || '/');
  const matches = matchRoutes(routes, pathname) ?? [];
  if (matches.some((m) => m.route.path === 'login')) return;
  void import('../features/fleet/api/queries').then(({ prefetchShellQueries }) => prefetchShellQueries(client));
  const params = new URLSearchParams(search);
  for (const match of matches) {
    const load = (match.route.handle as RouteHandle | undefined)?.prefetch;
    if (load) void load().then(({ default: prefetch }) => prefetch(client, params));
  }
}

/** Call once, before the first render: waits for the stored token's user, then starts the first screen's reads. */
export function prefetchFirstScreen(client: QueryClient, routes: RouteObject[]): void {
  const token = getToken();
  if (token === null) return;
  const observer = new QueryObserver(client, { queryKey: authKeys.me(token), enabled: false });
  const stop = observer.subscribe((result) => {
    if (result.isPending) return;
    stop();
    if (result.isSuccess && getToken() === token) prefetchScreen(client, routes);
  });
}
