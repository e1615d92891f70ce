/**
 * Sign-in, sign-out, the signed-in user and password change (spec 1 §2 Login, §6;
 * DESIGN §5).
 *
 * - `login` answers 401 for a wrong username or password, and 429 (with
 *   Retry-After) once a username and address pair has 5 failures within a minute,
 *   for a minute. Every attempt is recorded and audited (Login, LoginFailed).
 * - `authenticate` verifies the token, then reads the user and the token's row so
 *   that logout, a disabled user or a changed permission apply on the next request.
 * - `me` answers the session's user with its roles, derived from its permissions
 *   and groups (`sessionRoles`, spec 1 §3 Session state).
 * - With `LOCAL_LOGIN=false` (`localLoginOffFor`: the single sign-on's name,
 *   issue 28 point 2) `login` answers 403 and audits LoginFailed; `startSession`
 *   issues the same token to a user signed in by the provider (`modules/sso`).
 */
import { hash, verify } from '@node-rs/argon2';
import { LOGIN_MAX_FAILURES, LOGIN_THROTTLE_WINDOW_SECONDS, sessionRoles, type TLoginResponse, type TUserMe } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { HttpProblem, forbidden, unauthorized } from '../../lib/problem.js';
import type { Principal } from '../../auth/principal.js';
import type { TokenService } from '../../auth/tokens.js';
import type { AuditService } from '../audit/audit.service.js';
import * as repo from './auth.repository.js';
import { coalesce } from '../../lib/coalesce.js';

export const hashPassword = (password: string) => hash(password);

export interface AuthService {
  login(opts: { username: string; password: string; address: string }): Promise<TLoginResponse>;
  /**
   * Issues the access token of `login` to a user signed in elsewhere (single
   * sign-on, `via` its name), audited as Login; 401 for a missing or disabled user.
   */
  startSession(opts: { userId: number; address: string; via: string }): Promise<TLoginResponse>;
  logout(principal: Principal): Promise<void>;
  authenticate(token: string): Promise<Principal>;
  me(principal: Principal): TUserMe;
  changePassword(principal: Principal, opts: { currentPassword: string; newPassword: string }): Promise<void>;
}

function toPrincipal(user: repo.UserRow, jti: string): Principal {
  return {
    userId: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    permissions: user.permissions,
    groups: user.groups,
    jti,
  };
}

// A hash to verify against when the username is unknown, so both cases take as long.
const DUMMY_HASH = hash('not-a-password');

export function createAuthService({
  db,
  tokens,
  audit,
  localLoginOffFor,
}: {
  db: Db;
  tokens: TokenService;
  audit: AuditService;
  /** The single sign-on's name when `LOCAL_LOGIN=false`; undefined: password sign-in on. */
  localLoginOffFor?: string;
}): AuthService {
  /** The live token's user; the requests of one session at once share each read (lib/coalesce.ts). */
  const liveTokenUser = coalesce((jti: string) => repo.findUserByLiveToken(db, jti), (jti) => jti);

  async function recordAttempt(username: string, address: string, success: boolean, reason?: string) {
    await db.transaction(async (tx) => {
      await repo.insertLoginAttempt(tx, { username, address, success });
      await audit.record(tx, {
        action: success ? 'Login' : 'LoginFailed',
        user: username,
        params: reason ? { address, reason } : { address },
      });
    });
  }

  async function issueToken(user: repo.UserRow): Promise<TLoginResponse> {
    const issued = await tokens.issue(user);
    await repo.insertToken(db, { jti: issued.jti, userId: user.id, expiresAt: issued.expiresAt });
    return { accessToken: { token: issued.token, expiresAt: issued.expiresAt.toISOString() } };
  }

  return {
    async login({ username, password, address }) {
      if (localLoginOffFor !== undefined) {
        await db.transaction((tx) => audit.record(tx, { action: 'LoginFailed', user: username, params: { address, reason: 'local sign-in off' } }));
        throw forbidden(`Local sign-in is switched off; sign in with ${localLoginOffFor}`);
      }
      const failures = await repo.recentFailures(db, username, address, LOGIN_THROTTLE_WINDOW_SECONDS);
      if (failures.length >= LOGIN_MAX_FAILURES) {
        const unlockAt = failures[LOGIN_MAX_FAILURES - 1]!.getTime() + LOGIN_THROTTLE_WINDOW_SECONDS * 1000;
        const retryAfter = Math.max(1, Math.ceil((unlockAt - Date.now()) / 1000));
        await db.transaction((tx) =>
          audit.record(tx, { action: 'LoginFailed', user: username, params: { address, reason: 'throttled' } }),
        );
        throw new HttpProblem(
          429,
          'Too Many Requests',
          `Too many failed sign-ins. Try again in ${retryAfter} seconds.`,
          undefined,
          { 'retry-after': String(retryAfter) },
        );
      }
      const user = await repo.findUserByUsername(db, username);
      const ok = user ? await verify(user.passwordHash, password) : (await verify(await DUMMY_HASH, password), false);
      if (!user || !ok || user.disabled) {
        await recordAttempt(username, address, false, user?.disabled ? 'disabled' : 'bad credentials');
        throw unauthorized('Wrong username or password');
      }
      const session = await issueToken(user);
      await recordAttempt(username, address, true);
      return session;
    },

    async startSession({ userId, address, via }) {
      const user = await repo.findUserById(db, userId);
      if (!user || user.disabled) throw unauthorized('The user is disabled');
      const session = await issueToken(user);
      await db.transaction((tx) => audit.record(tx, { action: 'Login', user: user.username, params: { address, via } }));
      return session;
    },

    async logout(principal) {
      await db.transaction(async (tx) => {
        await repo.revokeToken(tx, principal.jti);
        await audit.record(tx, { action: 'Logout', user: principal.username });
      });
    },

    async authenticate(token) {
      let claims;
      try {
        claims = await tokens.verify(token);
      } catch {
        throw unauthorized('The access token is invalid or expired');
      }
      const user = await liveTokenUser(claims.jti);
      if (!user || String(user.id) !== claims.sub) throw unauthorized('The access token has been revoked');
      if (user.disabled) throw unauthorized('The user is disabled');
      return toPrincipal(user, claims.jti);
    },

    me(principal) {
      return {
        name: principal.name,
        email: principal.email,
        avatar: null,
        roles: sessionRoles(principal.permissions, principal.groups),
        permissions: principal.permissions,
        groups: principal.groups,
      };
    },

    async changePassword(principal, { currentPassword, newPassword }) {
      const user = await repo.findUserById(db, principal.userId);
      if (!user || !(await verify(user.passwordHash, currentPassword))) {
        throw new HttpProblem(400, 'Bad Request', 'The current password is wrong', [
          { propertyName: 'currentPassword', errorMessage: 'The current password is wrong' },
        ]);
      }
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await repo.updatePasswordHash(tx, user.id, passwordHash);
        await audit.record(tx, { action: 'ChangePassword', user: principal.username });
      });
    },
  };
}
