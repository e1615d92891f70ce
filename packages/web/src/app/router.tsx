/**
 * The hash router (spec 1 §2 "Routing is hash-based"): the login route, then the
 * signed-in shell with every route of the table in `routes.tsx`. Unknown paths
 * go to `/`, which redirects to the accounts list.
 *
 * React Router's declarative hash router, not its data router
 * (`createHashRouter`): the console loads no route data through the router
 * (TanStack Query does), and the data router's state machine is about 16 KB
 * gzip of script on every page, the sign-in page's included (issue 26).
 */
import { HashRouter, Navigate, type RouteObject } from 'react-router';
import { FullPageSpin, PublicOnly, RequireAuth } from './guards';
import { RootLayout } from './RootLayout';
import { APP_ROUTES, HOME_PATH, lazyPageElement, toRouteObject, type RouteHandle } from './routes';

const loginHandle: RouteHandle = { title: 'Login' };

/** The console's routes; the sign-in page and the shell show a whole-page spinner while their code loads. */
export const CONSOLE_ROUTES: RouteObject[] = [
  {
    path: 'login',
    handle: loginHandle,
    element: <PublicOnly />,
    children: [{ index: true, element: lazyPageElement(() => import('./LoginPage'), <FullPageSpin />) }],
  },
  {
    path: '/',
    element: <RequireAuth />,
    children: [
      {
        element: lazyPageElement(() => import('./Shell'), <FullPageSpin />),
        children: [
          { index: true, element: <Navigate to={HOME_PATH} replace /> },
          ...APP_ROUTES.map(toRouteObject),
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];

/** The console under its hash router. */
export function ConsoleRouter() {
  return (
    <HashRouter>
      <RootLayout routes={CONSOLE_ROUTES} />
    </HashRouter>
  );
}
