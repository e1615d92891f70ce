/**
 * Sign-in and the signed-in user (spec 1 §2 Login, §6, §7 Auth and user; DESIGN §5).
 */
import { z } from 'zod';

export const ZLoginRequest = z.object({
  username: z.string().trim().min(1, 'Username is required').max(100),
  password: z.string().min(1, 'Password is required').max(200),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZLoginResponse = z.object({
  accessToken: z.object({ token: z.string(), expiresAt: z.string() }),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/** `GET /user/me`: name, email, avatar, permissions, groups (spec 1 §7). */
export const ZUserMe = z.object({
  name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  permissions: z.array(z.string()),
  groups: z.array(z.string()),
});
export type TUserMe = z.infer<typeof ZUserMe>;

export const ZChangePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(200),
  newPassword: z.string().min(8, 'New password must have at least 8 characters').max(200),
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/** Claims of the access token (DESIGN §5): permissions and groups are comma lists. */
export interface TTokenClaims {
  sub: string;
  name: string;
  email: string;
  permissions: string;
  groups: string;
  exp: number;
  jti: string;
}
