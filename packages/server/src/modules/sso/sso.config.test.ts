/** `ssoConfig`: the settings of single sign-on from the environment, and every inconsistency named (issue 28 point 2). */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { parseGroupMap, ssoConfig } from './sso.config.js';

const FULL = { OIDC_ISSUER: 'https://idp.example/realms/fleet', OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'secret', OIDC_GROUP_MAP: 'ops=write' };
const load = (env: NodeJS.ProcessEnv) => ssoConfig(env, 'https://console.example', ConfigError);

describe('ssoConfig', () => {
  it('is off without OIDC settings, with the password sign-in on', () => {
    expect(load({})).toEqual({ oidc: null, localLogin: true });
  });

  it('reads the provider, its defaults and the redirect URI under PUBLIC_URL', () => {
    const { oidc, localLogin } = load({ ...FULL, LOCAL_LOGIN: 'false' });
    expect(localLogin).toBe(false);
    expect(oidc).toMatchObject({ issuer: 'https://idp.example/realms/fleet', name: 'SSO', groupsClaim: 'groups', redirectUri: 'https://console.example/api/v1/auth/sso/callback' });
  });

  it('names what is missing or wrong', () => {
    expect(() => load({ OIDC_ISSUER: FULL.OIDC_ISSUER })).toThrow('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (missing OIDC_CLIENT_ID and OIDC_CLIENT_SECRET)');
    expect(() => load({ OIDC_GROUP_MAP: 'ops=write' })).toThrow('OIDC_GROUP_MAP set without OIDC_ISSUER');
    expect(() => load({ LOCAL_LOGIN: 'false' })).toThrow('LOCAL_LOGIN=false needs single sign-on');
    expect(() => load({ LOCAL_LOGIN: 'no' })).toThrow('LOCAL_LOGIN must be true or false');
    expect(() => load({ ...FULL, OIDC_ISSUER: 'http://idp.example' })).toThrow('OIDC_ISSUER must be an https URL (http only on localhost)');
    expect(() => load({ ...FULL, OIDC_GROUP_MAP: '' })).toThrow('OIDC_GROUP_MAP must map at least one group');
    expect(() => load({ ...FULL, OIDC_GROUP_MAP: 'ops=root' })).toThrow("OIDC_GROUP_MAP grants root to 'ops'");
    expect(() => load({ ...FULL, OIDC_GROUP_MAP: 'ops=write,ops=' })).toThrow("OIDC_GROUP_MAP names group 'ops' twice");
  });
});

describe('parseGroupMap', () => {
  it('splits each grant into permissions and groups; an empty grant is access without write', () => {
    const map = parseGroupMap('fleet-admins=write+CustomerProductionAccess, fleet-operators=write ,fleet-viewers=', ConfigError);
    expect(Object.fromEntries(map)).toEqual({
      'fleet-admins': { permissions: ['write'], groups: ['CustomerProductionAccess'] },
      'fleet-operators': { permissions: ['write'], groups: [] },
      'fleet-viewers': { permissions: [], groups: [] },
    });
  });
});
