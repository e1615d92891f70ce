/**
 * Settings of single sign-on (issue 28 point 2; `modules/sso/README.md`), read
 * from the environment by `loadConfig`:
 *
 * - `OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`: the OpenID provider
 *   and the console's client there, all three or none. The issuer is https, or
 *   http on localhost (a provider of tests and development).
 * - `OIDC_NAME` (default `SSO`): the provider's name on the login page.
 * - `OIDC_GROUPS_CLAIM` (default `groups`): the claim holding the user's groups
 *   at the provider (a list of strings, or one string).
 * - `OIDC_GROUP_MAP`: which provider group grants what, e.g.
 *   `fleet-admins=write+CustomerProductionAccess,fleet-operators=write,fleet-viewers=`;
 *   each grant is a console permission (`write`, `admin`) or group
 *   (`CustomerProductionAccess`). A user with none of the mapped groups is refused.
 * - `PUBLIC_URL` (`Config.publicUrl`, read by `config.ts`): the console's address
 *   as the browser sees it; the redirect URI registered at the provider is
 *   `PUBLIC_URL/api/v1/auth/sso/callback`.
 * - `LOCAL_LOGIN` (default true): false switches the username and password
 *   sign-in off (only with single sign-on on).
 *
 * Every inconsistency is a `ConfigError` naming the variables.
 */
import { GROUP_CUSTOMER_PRODUCTION_ACCESS, PERMISSION_ADMIN, PERMISSION_WRITE } from '@fleet/contracts';

/** Thrown for a bad setting; `config.ts` re-exports its own `ConfigError`, this one is the same class given in. */
type ConfigErrorClass = new (message: string) => Error;

/** What one provider group grants in the console. */
export interface GroupGrant {
  permissions: string[];
  groups: string[];
}

/** The OpenID provider and how its users map to console users. */
export interface OidcSettings {
  /** `OIDC_ISSUER`, as given (discovery reads `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `OIDC_NAME`: shown as 'Sign in with <name>'. */
  name: string;
  /** `OIDC_GROUPS_CLAIM`. */
  groupsClaim: string;
  /** `OIDC_GROUP_MAP` by provider group. */
  groupMap: ReadonlyMap<string, GroupGrant>;
  /** `PUBLIC_URL` (`Config.publicUrl`) without its trailing slash. */
  publicUrl: string;
  /** `PUBLIC_URL/api/v1/auth/sso/callback`. */
  redirectUri: string;
}

/** `Config.sso`: the provider (null: single sign-on off) and whether the password sign-in stays on. */
export interface SsoConfig {
  oidc: OidcSettings | null;
  localLogin: boolean;
}

/** Single sign-on off, password sign-in on: the default, and the tests' app. */
export const SSO_OFF: SsoConfig = { oidc: null, localLogin: true };

export const DEFAULT_OIDC_NAME = 'SSO';
export const DEFAULT_GROUPS_CLAIM = 'groups';
export const SSO_CALLBACK_PATH = '/api/v1/auth/sso/callback';

const PERMISSIONS = [PERMISSION_WRITE, PERMISSION_ADMIN];
const GROUPS = [GROUP_CUSTOMER_PRODUCTION_ACCESS];
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function issuerUrl(value: string, Err: ConfigErrorClass): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const allowedHttp = url?.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  if (!url || !(url.protocol === 'https:' || allowedHttp) || url.search || url.hash) {
    throw new Err(`OIDC_ISSUER must be an https URL (http only on localhost) without query or fragment (got '${value}')`);
  }
  return url;
}

/** Parses `OIDC_GROUP_MAP` (see the module docstring); throws naming the entry that is wrong. */
export function parseGroupMap(value: string, Err: ConfigErrorClass): Map<string, GroupGrant> {
  const map = new Map<string, GroupGrant>();
  const entries = value.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const group = at < 0 ? '' : entry.slice(0, at).trim();
    if (!group) throw new Err(`OIDC_GROUP_MAP entries are group=grant+grant (an empty grant: access without write), got '${entry}'`);
    if (map.has(group)) throw new Err(`OIDC_GROUP_MAP names group '${group}' twice`);
    const grants = entry.slice(at + 1).split('+').map((g) => g.trim()).filter((g) => g !== '');
    const unknown = grants.filter((g) => !PERMISSIONS.includes(g) && !GROUPS.includes(g));
    if (unknown.length > 0) {
      throw new Err(`OIDC_GROUP_MAP grants ${unknown.join(', ')} to '${group}': a grant is one of ${[...PERMISSIONS, ...GROUPS].join(', ')}`);
    }
    map.set(group, { permissions: grants.filter((g) => PERMISSIONS.includes(g)), groups: grants.filter((g) => GROUPS.includes(g)) });
  }
  if (map.size === 0) throw new Err('OIDC_GROUP_MAP must map at least one group of the provider (e.g. fleet-operators=write): a user with no mapped group has no access');
  return map;
}

/** `Config.sso` from the environment; throws `Err` (the `ConfigError` of `config.ts`) for partial or bad settings. */
export function ssoConfig(env: NodeJS.ProcessEnv, publicUrl: string, Err: ConfigErrorClass): SsoConfig {
  const localLoginValue = env.LOCAL_LOGIN ?? '';
  if (!['', 'true', 'false'].includes(localLoginValue)) throw new Err(`LOCAL_LOGIN must be true or false (got '${localLoginValue}')`);
  const localLogin = localLoginValue !== 'false';

  const required = { OIDC_ISSUER: env.OIDC_ISSUER, OIDC_CLIENT_ID: env.OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET };
  const set = Object.entries(required).filter(([, v]) => v);
  const others = ['OIDC_NAME', 'OIDC_GROUPS_CLAIM', 'OIDC_GROUP_MAP'].filter((name) => env[name]);
  if (set.length === 0) {
    if (others.length > 0) throw new Err(`${others.join(', ')} set without OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three to switch single sign-on on`);
    if (!localLogin) throw new Err('LOCAL_LOGIN=false needs single sign-on (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET): no one could sign in');
    return SSO_OFF;
  }
  if (set.length < 3) {
    const missing = Object.keys(required).filter((name) => !required[name as keyof typeof required]);
    throw new Err(`OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (missing ${missing.join(' and ')})`);
  }
  const issuer = issuerUrl(env.OIDC_ISSUER!, Err);
  const name = (env.OIDC_NAME ?? '').trim() || DEFAULT_OIDC_NAME;
  if (name.length > 40) throw new Err(`OIDC_NAME must be at most 40 characters (got ${name.length})`);
  const groupsClaim = (env.OIDC_GROUPS_CLAIM ?? '').trim() || DEFAULT_GROUPS_CLAIM;
  return {
    localLogin,
    oidc: {
      issuer: issuer.href,
      clientId: env.OIDC_CLIENT_ID!,
      clientSecret: env.OIDC_CLIENT_SECRET!,
      name,
      groupsClaim,
      groupMap: parseGroupMap(env.OIDC_GROUP_MAP ?? '', Err),
      publicUrl,
      redirectUri: `${publicUrl}${SSO_CALLBACK_PATH}`,
    },
  };
}
