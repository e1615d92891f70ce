/**
 * Access tokens: HS256 JWTs (jose) with claims sub, name, email, permissions and
 * groups as comma lists, exp and jti (DESIGN §5). Lifetime 12 hours.
 */
import { SignJWT, jwtVerify } from 'jose';
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

export function createTokenService(secret: string, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): TokenService {
  const key = new TextEncoder().encode(secret);
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
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      return payload as unknown as TTokenClaims;
    },
  };
}
