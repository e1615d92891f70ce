/**
 * Access tokens: HS256 JWTs (jose) with claims sub, name, email, permissions and
 * groups as comma lists, exp and jti (DESIGN §5). Lifetime 12 hours.
 */
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import type { TTokenClaims } from '@fleet/contracts';

export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;

export interface TokenService {
  issue(user: { id: number; name: string; email: string; permissions: string[]; groups: string[] }): Promise<{
    token: string;
    jti: string;
    expiresAt: Date;
  }>;
  /** Verifies signature and expiry; throws on an invalid token. */
  verify(token: string): Promise<TTokenClaims>;
}

/** How many verified tokens are remembered (one entry per signed-in session). */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Signs and verifies access tokens with `secret` (HS256).
 *
 * `verify` remembers the claims of tokens whose signature it has checked, so a
 * busy session does not pay for an HMAC on every request. Only the signature
 * check is remembered: expiry is checked on every call, and revocation, disabled
 * users and changed permissions are read from the database by the caller
 * (`AuthService.authenticate`) on every request.
 */
export function createTokenService(secret: string, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): TokenService {
  const key = new TextEncoder().encode(secret);
  const verified = new LRUCache<string, TTokenClaims>({ max: VERIFIED_CACHE_SIZE });
  return {
    async issue(user) {
      const jti = randomUUID();
      const expiresAt = new Date(Math.floor(Date.now() / 1000 + lifetimeSeconds) * 1000);
      const token = await new SignJWT({
        name: user.name,
        email: user.email,
        permissions: user.permissions.join(','),
        groups: user.groups.join(','),
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(user.id))
        .setJti(jti)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, jti, expiresAt };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp * 1000 > Date.now()) return known;
        verified.delete(token);
      }
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      const claims = payload as unknown as TTokenClaims;
      verified.set(token, claims);
      return claims;
    },
  };
}
