/**
 * Calls of sign-in and the signed-in user (spec 1 §7 Auth and user):
 * `POST /auth/login`, `POST /auth/logout`, `GET /user/me`, `PUT /user/password`;
 * single sign-on (issue 28 point 2): `GET /auth/sso`, `POST /auth/sso/exchange`.
 */
import { useMutation } from '@tanstack/react-query';
import type { TChangePasswordRequest, TLoginRequest, TLoginResponse, TSsoInfo, TUserMe } from '@fleet/contracts';
import { API_BASE, api } from '../api-client';

export const authKeys = {
  /** Keyed by token so that a new sign-in never reuses another user's answer. */
  me: (token: string | null) => ['auth', 'me', token] as const,
  /** Whether single sign-on and the password form are offered (public). */
  sso: () => ['auth', 'sso'] as const,
};

export const fetchCurrentUser = (signal?: AbortSignal) => api.get<TUserMe>('user/me', { signal });

export const postLogin = (body: TLoginRequest) => api.post<TLoginResponse>('auth/login', body);

export const postLogout = () => api.post<{ ok: true }>('auth/logout');

export const fetchSsoInfo = (signal?: AbortSignal) => api.get<TSsoInfo>('auth/sso', { signal });

/** `POST /auth/sso/exchange`: the token for the one-time code the provider's callback put in `/#/login?sso=`. */
export const postSsoExchange = (code: string) => api.post<TLoginResponse>('auth/sso/exchange', { code });

/** Where 'Sign in with …' goes: the server's start of a sign-in at the provider, back to `redirect` after it. */
export const ssoStartUrl = (redirect: string) =>
  `${API_BASE}/auth/sso/start${redirect === '/' ? '' : `?${new URLSearchParams({ redirect })}`}`;

/** `PUT /user/password`; field errors arrive as `ApiError.errors` (currentPassword). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: TChangePasswordRequest) => api.put<{ ok: true }>('user/password', body),
  });
}
