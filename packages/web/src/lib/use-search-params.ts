/**
 * `useSearchParams` of react-router whose updates see every update made
 * before them, from any component and any render (DESIGN §10 "URLs that keep
 * filters"; issue 24 point 7).
 *
 * React Router hands a functional update the query string of the render its
 * setter came from. Its navigations render in a transition, so an update made
 * before that render caught up (a filter chosen, then a column sorted at once),
 * or through a setter of an older render or of another component on the page
 * (the Machines viewer reads its filters and its order through two), started
 * from an old query string and dropped the updates made since: a viewer sorted
 * right after a filter lost the filter. Here every update starts from the
 * query string written last, until a render shows it or another navigation.
 */
import { useCallback, useLayoutEffect } from 'react';
import { createSearchParams, useLocation, useNavigate, useSearchParams as useRouterSearchParams, type NavigateOptions, type URLSearchParamsInit } from 'react-router';

/**
 * The query string as the console's updates know it: the path and query
 * string rendered last, and the query strings written since on that path that
 * no render has shown yet, oldest first (at most {@link MAX_WRITES}).
 */
export type TSearchState = { path: string; rendered: string; writes: string[] };

/** Writes kept at most while no render catches up (a bound, never reached by hand). */
export const MAX_WRITES = 50;

type TInit = URLSearchParamsInit | ((prev: URLSearchParams) => URLSearchParamsInit);

/**
 * The state once `path` has rendered with the query string `search`: a render
 * of one of the writes keeps the writes after it; any other location (a link,
 * Back, another page) drops them.
 */
export function renderedSearch(state: TSearchState, path: string, search: string): TSearchState {
  if (state.path === path && state.rendered === search) return state;
  const shown = state.path === path ? state.writes.indexOf(search) : -1;
  return { path, rendered: search, writes: shown === -1 ? [] : state.writes.slice(shown + 1) };
}

/**
 * The query string an update makes: `init` applied to the query string written
 * last, or rendered when none is pending; the state that remembers it.
 */
export function nextSearch(state: TSearchState, init: TInit): { params: URLSearchParams; state: TSearchState } {
  const base = new URLSearchParams(state.writes.at(-1) ?? state.rendered);
  const params = createSearchParams(typeof init === 'function' ? init(base) : init);
  return { params, state: { ...state, writes: [...state.writes, params.toString()].slice(-MAX_WRITES) } };
}

/** One router, one URL: the state every mounted hook shares. */
let shared: TSearchState = { path: '', rendered: '', writes: [] };

/** Drop-in for react-router's `useSearchParams`: `[params, setParams]`; `setParams` is stable. */
export function useSearchParams(): [URLSearchParams, (init: TInit, options?: NavigateOptions) => void] {
  const [params] = useRouterSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const search = params.toString();
  // At commit, before any event can reach the rendered screen.
  useLayoutEffect(() => {
    shared = renderedSearch(shared, pathname, search);
  }, [pathname, search]);
  const setParams = useCallback(
    (init: TInit, options?: NavigateOptions) => {
      const next = nextSearch(shared, init);
      shared = next.state;
      void navigate(`?${next.params.toString()}`, options);
    },
    [navigate],
  );
  return [params, setParams];
}
