/**
 * The hash router (spec 1 §2 "Routing is hash-based"): the login route, then the
 * signed-in shell with every route of the table in `routes.tsx`. Unknown paths
 * go to `/`, which redirects to the accounts list.
 */
import { Navigate, createHashRouter } from 'react-router';
import { FullPageSpin, PublicOnly, RequireAuth } from './guards';
import { RootLayout, RouteError } from './RootLayout';
import { APP_ROUTES, HOME_PATH, lazyPage, toRouteObject, type RouteHandle } from './routes';

const loginHandle: RouteHandle = { title: 'Login' };

export const router = createHashRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first route's page code loads.
    hydrateFallbackElement: <FullPageSpin />,
    children: [
      {
        path: 'login',
        handle: loginHandle,
        element: <PublicOnly />,
        children: [{ index: true, lazy: lazyPage(() => import('./LoginPage')) }],
      },
      {
        path: '/',
        element: <RequireAuth />,
        children: [
          {
            lazy: lazyPage(() => import('./Shell')),
            children: [
              { index: true, element: <Navigate to={HOME_PATH} replace /> },
              ...APP_ROUTES.map(toRouteObject),
              { path: '*', element: <Navigate to="/" replace /> },
            ],
          },
        ],
      },
    ],
  },
]);
