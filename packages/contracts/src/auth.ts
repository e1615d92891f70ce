/**
 * Sign-in and the signed-in user (spec 1 §2 Login, §6, §7 Auth and user; DESIGN §5).
 */
import { z } from 'zod';
import { GROUP_CUSTOMER_PRODUCTION_ACCESS, PERMISSION_ADMIN, PERMISSION_WRITE } from './constants.js';

export const ZLoginRequest = z.object({
  username: z.string().trim().min(1, 'Username is required').max(100),
  password: z.string().min(1, 'Password is required').max(200),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZLoginResponse = z.object({
  accessToken: z.object({ token: z.string(), expiresAt: z.string() }),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/**
 * The roles of a session (spec 1 §3 Session state: "token, name, email,
 * avatar, roles, permissions, groups"; the specification names no role, §6 and
 * spec 2 §6: "Role names and which users hold which permission are not
 * shown"). They are not stored: each is the name of what the user's
 * permissions and groups allow (DESIGN §4 names the demo users so).
 */
export const SESSION_ROLES = ['admin', 'operator', 'viewer'] as const;
export const ZSessionRole = z.enum(SESSION_ROLES);
export type TSessionRole = z.infer<typeof ZSessionRole>;

/**
 * The roles of a user with these permissions and groups, one of
 * {@link SESSION_ROLES}: `admin` with permission `admin`, or with `write` and
 * group CustomerProductionAccess (acts on every account); `operator` with
 * `write`; `viewer` otherwise (reads only). A list, as the session state holds it.
 */
export function sessionRoles(permissions: readonly string[], groups: readonly string[]): TSessionRole[] {
  const canWrite = permissions.includes(PERMISSION_WRITE);
  if (permissions.includes(PERMISSION_ADMIN) || (canWrite && groups.includes(GROUP_CUSTOMER_PRODUCTION_ACCESS))) return ['admin'];
  return canWrite ? ['operator'] : ['viewer'];
}

/** `GET /user/me`: name, email, avatar, roles ({@link sessionRoles}), permissions, groups (spec 1 §3 Session state, §7). */
export const ZUserMe = z.object({
  name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  roles: z.array(ZSessionRole),
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
