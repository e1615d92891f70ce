/**
 * Route guards (spec 1 §2 "Screens and routes", Login):
 *
 * - `RequireAuth`: without a token the user goes to `/login?redirect=<path+query>`;
 *   while `GET /user/me` loads a spinner shows; a route whose permission the user
 *   lacks sends the user to `/`.
 * - `PublicOnly` (the login route): a signed-in user goes to the `redirect`
 *   parameter when it is a path of this console, else to `/`.
 */
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { Spin } from 'antd';
import { useAuth } from './auth/auth-context';
import { routeHandle, useRouteMatches } from './routes';

/** The `redirect` parameter when it is a local path (never another origin). */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  return value;
}

export function FullPageSpin() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
      <Spin size="large" aria-label="Loading" />
    </div>
  );
}

export function RequireAuth() {
  const { token, loadingUser, hasPermission } = useAuth();
  const location = useLocation();
  const matches = useRouteMatches();

  if (token === null) {
    const redirect = `${location.pathname}${location.search}`;
    const to = redirect === '/' ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`;
    return <Navigate to={to} replace />;
  }
  if (loadingUser) return <FullPageSpin />;
  const denied = matches.some((match) => {
    const permission = routeHandle(match)?.permission;
    return permission !== undefined && !hasPermission(permission);
  });
  if (denied) return <Navigate to="/" replace />;
  return <Outlet />;
}

export function PublicOnly() {
  const { token } = useAuth();
  const [params] = useSearchParams();
  if (token !== null) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return <Outlet />;
}
