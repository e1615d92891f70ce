/**
 * The outermost layer of the console inside the hash router: renders the
 * route table's element for the location, gives every component the routes
 * matched there (`useRouteMatches`: the guard's permissions, the breadcrumb),
 * keeps the document title equal to the title of the deepest matched route
 * ("List Accounts | Fleet Console"), and shows a page when a route fails to
 * render or its code fails to load (spec 1 §8 ChunkLoadError) until the user
 * goes to another path.
 */
import { useEffect, useMemo } from 'react';
import { matchRoutes, renderMatches, useLocation, type RouteObject } from 'react-router';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { RouteMatchesContext, titledMatches, type RouteMatch } from './routes';

export const APP_NAME = 'Fleet Console';

export function RootLayout({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  // Matched once: rendered (`renderMatches`, as `useRoutes` would) and given to the components that read them.
  const routeMatches = useMemo(() => matchRoutes(routes, location), [routes, location]);
  const matches = useMemo<RouteMatch[]>(() => (routeMatches ?? []).map(({ pathname, route }) => ({ pathname, handle: route.handle as unknown })), [routeMatches]);
  const element = renderMatches(routeMatches);
  const title = titledMatches(matches).at(-1)?.handle.title;

  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : APP_NAME;
  }, [title]);

  return (
    <RouteMatchesContext value={matches}>
      <ErrorBoundary FallbackComponent={RouteError} resetKeys={[location.pathname]}>
        {element}
      </ErrorBoundary>
    </RouteMatchesContext>
  );
}

/** Plain markup on purpose: this page must show even when antd's code failed to load. */
export function RouteError({ error }: FallbackProps) {
  const detail = error instanceof Error ? error.message : 'The page could not be shown.';
  return (
    <main role="alert" style={{ maxWidth: 560, margin: '15vh auto', padding: 24, textAlign: 'center' }}>
      <h1 style={{ fontSize: 24, fontWeight: 500 }}>Something went wrong</h1>
      <p style={{ color: 'rgba(0,0,0,0.65)' }}>{detail}</p>
      <button type="button" onClick={() => window.location.reload()} style={{ padding: '6px 16px', cursor: 'pointer' }}>
        Reload
      </button>
    </main>
  );
}
