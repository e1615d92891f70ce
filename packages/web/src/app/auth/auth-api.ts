/**
 * Calls of sign-in and the signed-in user (spec 1 §7 Auth and user):
 * `POST /auth/login`, `POST /auth/logout`, `GET /user/me`, `PUT /user/password`.
 */
import { useMutation } from '@tanstack/react-query';
import type { TChangePasswordRequest, TLoginRequest, TLoginResponse, TUserMe } from '@fleet/contracts';
import { api } from '../api-client';

export const authKeys = {
  /** Keyed by token so that a new sign-in never reuses another user's answer. */
  me: (token: string | null) => ['auth', 'me', token] as const,
};

export const fetchCurrentUser = (signal?: AbortSignal) => api.get<TUserMe>('user/me', { signal });

export const postLogin = (body: TLoginRequest) => api.post<TLoginResponse>('auth/login', body);

export const postLogout = () => api.post<{ ok: true }>('auth/logout');

/** `PUT /user/password`; field errors arrive as `ApiError.errors` (currentPassword). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: TChangePasswordRequest) => api.put<{ ok: true }>('user/password', body),
  });
}
