import { describe, expect, it } from 'vitest';
import { SSO_FAILURES } from '@fleet/contracts';
import { ssoFailureText } from './sso-failure';

describe('ssoFailureText', () => {
  it('has words for every failure the server sends, naming the provider', () => {
    for (const why of SSO_FAILURES) expect(ssoFailureText(why, 'Okta'), why).toMatch(/\.$/);
    expect(ssoFailureText('no-access', 'Okta')).toBe('Your groups at Okta grant no access to Fleet Console. Ask an administrator for access.');
    expect(ssoFailureText('unreachable', 'Okta')).toBe('Okta cannot be reached right now. Try again in a minute.');
  });

  it('says "the single sign-on provider" before the name is known, capitalised at a sentence start', () => {
    expect(ssoFailureText('refused')).toBe('The single sign-on provider did not sign you in (the sign-in was cancelled or refused there).');
    expect(ssoFailureText('failed')).toBe('The sign-in with the single sign-on provider failed a security check. Start it again.');
  });

  it('says nothing of its own for a reason it does not know (the page then says the sign-in failed)', () => {
    expect(ssoFailureText('Call +1 555 0100')).toBeUndefined();
    expect(ssoFailureText('toString')).toBeUndefined();
  });
});
