/**
 * The outermost route: keeps the document title equal to the title of the
 * deepest matched route ("List Accounts | Fleet Console"), and shows a page
 * when a route fails to render or its code fails to load (spec 1 §8
 * ChunkLoadError).
 */
import { useEffect } from 'react';
import { Outlet, useMatches, useRouteError } from 'react-router';
import { titledMatches } from './routes';

export const APP_NAME = 'Fleet Console';

export function RootLayout() {
  const matches = useMatches();
  const title = titledMatches(matches).at(-1)?.handle.title;

  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : APP_NAME;
  }, [title]);

  return <Outlet />;
}

/** Plain markup on purpose: this page must show even when antd's code failed to load. */
export function RouteError() {
  const error = useRouteError();
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
