/**
 * Access tokens (DESIGN §5): signature, expiry and the remembered verifications.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.js';

const user = { id: 7, name: 'Pat', email: 'pat@example.test', permissions: ['write'], groups: ['CustomerProductionAccess'] };

describe('token service', () => {
  it('issues a token whose claims carry comma lists, exp and jti', async () => {
    const tokens = createTokenService('a-secret-of-enough-length-0123456789');
    const { token, jti, expiresAt } = await tokens.issue(user);
    const claims = await tokens.verify(token);
    expect(claims).toMatchObject({ sub: '7', name: 'Pat', permissions: 'write', groups: 'CustomerProductionAccess', jti });
    expect(claims.exp * 1000).toBe(expiresAt.getTime());
    // A second verification (remembered) answers the same claims.
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses a token signed with another secret and a tampered token', async () => {
    const mine = createTokenService('a-secret-of-enough-length-0123456789');
    const theirs = createTokenService('another-secret-of-enough-length-987');
    const { token } = await theirs.issue(user);
    await expect(mine.verify(token)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    const { token: good } = await mine.issue(user);
    await mine.verify(good);
    const [head, body, sig] = good.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: '1', exp: 4_000_000_000, jti: 'x' })).toString('base64url')}.${sig}`;
    expect(body).not.toBe(forged.split('.')[1]);
    await expect(mine.verify(forged)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  it('refuses a remembered token once it has expired', async () => {
    const tokens = createTokenService('a-secret-of-enough-length-0123456789', 1);
    const { token } = await tokens.issue(user);
    await tokens.verify(token);
    // Two seconds later by the clock the expiry is read with (jose reads Date.now()).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2_100);
      await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    } finally {
      vi.useRealTimers();
    }
  });
});
