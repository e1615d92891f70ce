/**
 * Holds the session (spec 1 §2 Login, §6, §9): the stored token, the user of
 * `GET /user/me`, sign-in and sign-out.
 *
 * - The token is read through `useSyncExternalStore`, so a 401 anywhere (the API
 *   client clears the token) signs the user out at once.
 * - The token is dropped when its `exp` passes, even with no call in flight.
 * - A failed `GET /user/me` signs the user out and shows the server's detail or
 *   'Verification failed, please login again'.
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { GROUP_CUSTOMER_PRODUCTION_ACCESS, PERMISSION_ADMIN, PERMISSION_WRITE } from '@fleet/contracts/constants';
import { errorText } from '../api-client';
import { useToast } from '../toast';
import { authKeys, fetchCurrentUser, postLogin, postLogout, postSsoExchange } from './auth-api';
import { AuthContext, type AuthState } from './auth-context';
import { clearToken, getToken, setToken, subscribeToken, tokenExpiry } from './token-store';

export const VERIFICATION_FAILED = 'Verification failed, please login again';
/** Longest delay `setTimeout` accepts, milliseconds. */
const MAX_TIMER_MS = 2_147_483_647;

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const token = useSyncExternalStore(subscribeToken, getToken);
  const queryClient = useQueryClient();
  const toast = useToast();

  const userQuery = useQuery({
    queryKey: authKeys.me(token),
    enabled: token !== null,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      try {
        return await fetchCurrentUser(signal);
      } catch (error) {
        if (!isAbort(error)) {
          toast.error(errorText(error, VERIFICATION_FAILED));
          clearToken();
        }
        throw error;
      }
    },
  });

  useEffect(() => {
    if (token === null) return;
    const exp = tokenExpiry(token);
    if (exp === undefined) return;
    const timer = window.setTimeout(clearToken, Math.min(Math.max(0, exp * 1000 - Date.now()), MAX_TIMER_MS));
    return () => window.clearTimeout(timer);
  }, [token]);

  const login = useCallback(
    async (username: string, password: string) => {
      const { accessToken } = await postLogin({ username, password });
      queryClient.removeQueries();
      setToken(accessToken.token);
    },
    [queryClient],
  );

  const loginWithSsoCode = useCallback(
    async (code: string) => {
      const { accessToken } = await postSsoExchange(code);
      queryClient.removeQueries();
      setToken(accessToken.token);
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await postLogout();
    } catch {
      // The token may already be revoked or expired; signing out locally is enough.
    } finally {
      clearToken();
      window.location.reload();
    }
  }, []);

  const user = token === null ? undefined : userQuery.data;
  const value = useMemo<AuthState>(() => {
    const permissions = user?.permissions ?? [];
    const groups = user?.groups ?? [];
    return {
      token,
      user,
      loadingUser: token !== null && user === undefined,
      canWrite: permissions.includes(PERMISSION_WRITE),
      hasCustomerProductionAccess: groups.includes(GROUP_CUSTOMER_PRODUCTION_ACCESS),
      // `admin` is held by the admin role too (permission admin, or write with CustomerProductionAccess: `sessionRoles`), so admin-only routes name it.
      hasPermission: (permission) => permissions.includes(permission) || (permission === PERMISSION_ADMIN && (user?.roles.includes('admin') ?? false)),
      login,
      loginWithSsoCode,
      logout,
    };
  }, [token, user, login, loginWithSsoCode, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
