/**
 * `useSearchParams` of react-router whose functional updates see every update
 * made before them (DESIGN §10 "URLs that keep filters"; issue 24 point 7).
 *
 * React Router hands a functional update the query string of the last render.
 * Its navigations render in a transition, so two changes made before that
 * render (a filter chosen, then a column sorted at once) would each start from
 * the same old query string and the second would drop the first: a viewer
 * sorted right after a filter lost the filter. Here each update starts from
 * the query string the previous update of this hook wrote, until a render
 * catches up.
 */
import { useCallback, useRef } from 'react';
import { createSearchParams, useSearchParams as useRouterSearchParams, type NavigateOptions, type URLSearchParamsInit } from 'react-router';

/** The query string written last, and the rendered one it was computed from. */
export type TPendingSearch = { rendered: string; next: string };

type TInit = URLSearchParamsInit | ((prev: URLSearchParams) => URLSearchParamsInit);

/**
 * The query string an update makes: `init` applied to the one written last
 * when no render has happened since (`pending.rendered` is still `rendered`),
 * else to `rendered`. Returns the new query string and what to remember.
 */
export function nextSearch(pending: TPendingSearch | undefined, rendered: URLSearchParams, init: TInit): { params: URLSearchParams; pending: TPendingSearch } {
  const renderedText = rendered.toString();
  const base = pending && pending.rendered === renderedText ? new URLSearchParams(pending.next) : new URLSearchParams(rendered);
  const params = createSearchParams(typeof init === 'function' ? init(base) : init);
  return { params, pending: { rendered: renderedText, next: params.toString() } };
}

/** Drop-in for react-router's `useSearchParams`: `[params, setParams]`. */
export function useSearchParams(): [URLSearchParams, (init: TInit, options?: NavigateOptions) => void] {
  const [params, setRouterParams] = useRouterSearchParams();
  const pending = useRef<TPendingSearch | undefined>(undefined);
  const setParams = useCallback(
    (init: TInit, options?: NavigateOptions) =>
      setRouterParams((rendered) => {
        const next = nextSearch(pending.current, rendered, init);
        pending.current = next.pending;
        return next.params;
      }, options),
    [setRouterParams],
  );
  return [params, setParams];
}
