/**
 * The signed-in user as the console sees it (spec 1 §6): the user of
 * `GET /user/me`, `canWrite` (permission write), `hasCustomerProductionAccess`
 * (group CustomerProductionAccess), and sign-in / sign-out.
 */
import { createContext, useContext } from 'react';
import type { TUserMe } from '@fleet/contracts';

export interface AuthState {
  /** The stored, unexpired access token, or null when signed out. */
  token: string | null;
  /** The user of `GET /user/me`; undefined while loading or signed out. */
  user: TUserMe | undefined;
  /** True while a token exists and `GET /user/me` has not answered yet. */
  loadingUser: boolean;
  canWrite: boolean;
  hasCustomerProductionAccess: boolean;
  hasPermission(permission: string): boolean;
  /** `POST /auth/login`, then stores the token. Rejects with the `ApiError`. */
  login(username: string, password: string): Promise<void>;
  /** `POST /auth/sso/exchange` of a single sign-on's one-time code, then stores the token. Rejects with the `ApiError`. */
  loginWithSsoCode(code: string): Promise<void>;
  /** `POST /auth/logout` (best effort), clears the token and reloads the page. */
  logout(): Promise<void>;
}

export const AuthContext = createContext<AuthState | null>(null);

/** The auth state; must be used under `AuthProvider`. */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used under <AuthProvider>');
  return state;
}

/** The signed-in user is an admin (role `admin` of `GET /user/me`: permission admin, or write with CustomerProductionAccess). */
export function useIsAdmin(): boolean {
  return useAuth().user?.roles.includes('admin') ?? false;
}
