/**
 * Single sign-on (issue 28 point 2; invariants in `modules/sso/README.md`).
 *
 * - `start` keeps a new sign-in's state, nonce and PKCE verifier (10 minutes,
 *   bound to the browser's `fleet_sso` cookie) and answers the provider's
 *   authorization URL.
 * - `callback` takes the state once (a forged, reused, expired or other
 *   browser's state: 400, no one signed in), exchanges the code (nonce and PKCE
 *   checked by openid-client), then finds the user by issuer and subject, or
 *   makes one, and sets name, email, permissions and groups from the claims at
 *   every sign-in (`OIDC_GROUP_MAP`). A user none of whose groups is mapped is
 *   refused (403): an existing one loses its permissions and groups and its live
 *   sessions. It answers the console's login URL with a one-time code
 *   (`/#/login?sso=<code>`, a minute, once, bound to the browser like the
 *   state): never the access token itself. A refused or disabled user's
 *   codes not yet exchanged are deleted.
 * - `exchange` turns that code into the access token of `POST /auth/login`.
 *
 * Known limitations: a user made by a sign-in has an unusable random password
 * (no password sign-in); sign-out ends the console session only, not the
 * provider's (no RP-initiated logout).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as openid from 'openid-client';
import type { TLoginResponse, TSsoCallbackQuery, TSsoFailure, TSsoInfo } from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { HttpProblem, badRequest, conflict, forbidden, notFound } from '../../lib/problem.js';
import type { AuditService } from '../audit/audit.service.js';
import { hashPassword, type AuthService } from '../auth/auth.service.js';
import type { GroupGrant, OidcSettings, SsoConfig } from './sso.config.js';
import { createOidcClient, type OidcClient, type SsoClaims } from './sso.oidc.js';
import * as repo from './sso.repository.js';

/** How long a started sign-in may take at the provider. */
export const SSO_STATE_TTL_MS = 10 * 60_000;
/** How long the console has to exchange the callback's one-time code. */
export const SSO_HANDOFF_TTL_MS = 60_000;
/** The browser binding cookie's name. */
export const SSO_BROWSER_COOKIE = 'fleet_sso';
const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;
const MAX_CLAIM_LENGTH = 200;

export interface SsoService {
  /** `GET /auth/sso`: for the login page. */
  info(): TSsoInfo;
  /** Whether the console is reached over https (`PUBLIC_URL`): its cookies are then Secure whatever a proxy says. */
  readonly publicHttps: boolean;
  /** A new sign-in: the provider's URL to go to, and the browser binding to keep in the cookie (the one given when well formed). */
  start(opts: { browser: string | undefined; redirect?: string }): Promise<{ location: string; browser: string }>;
  /**
   * The provider's callback (see the module docstring): the console URL with the one-time code. 400, 403, 404 (off), 503
   * (provider away); each but 404 tagged with its {@link ssoFailureOf}.
   */
  callback(opts: { browser: string | undefined; query: TSsoCallbackQuery; address: string }): Promise<{ location: string }>;
  /** The console's login page saying why a sign-in failed (`/#/login?ssoError=<failure>`). */
  failureLocation(why: TSsoFailure): string;
  /**
   * The access token for a one-time code, in the browser (`fleet_sso` cookie) whose sign-in made it; 400 naming `code`
   * when it is unknown, expired, used or another browser's (so too with single sign-on off).
   */
  exchange(opts: { code: string; browser: string | undefined; address: string }): Promise<TLoginResponse>;
}

/** A callback's refusal: the problem an API client is answered, and why, for the login page a browser is sent back to (`ssoFailureOf`). */
const failure = <P extends HttpProblem>(problem: P, why: TSsoFailure): P => Object.assign(problem, { ssoFailure: why });

/**
 * Why the callback failed, for a browser (`TSsoFailure`): the tag the service
 * gave, else from the status of the provider client's problem (400 a failed
 * check, 503 away); undefined for anything else (single sign-on off, a bug).
 */
export function ssoFailureOf(error: unknown): TSsoFailure | undefined {
  if (!(error instanceof HttpProblem)) return undefined;
  const tagged = (error as { ssoFailure?: TSsoFailure }).ssoFailure;
  if (tagged) return tagged;
  return error.status === 503 ? 'unreachable' : error.status === 400 ? 'failed' : undefined;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomId = () => randomBytes(32).toString('base64url');
const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, MAX_CLAIM_LENGTH) : '');

/** The provider groups of the claims: a list of strings, or one string of names separated by commas or spaces. */
export function claimGroups(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((g) => g !== '');
  return [];
}

/** What the user's provider groups grant (`OIDC_GROUP_MAP`), or null when none of them is mapped (no access). */
export function mapGroups(groups: readonly string[], map: ReadonlyMap<string, GroupGrant>): GroupGrant | null {
  const grants = groups.flatMap((g) => map.get(g) ?? []);
  if (grants.length === 0) return null;
  return {
    permissions: [...new Set(grants.flatMap((g) => g.permissions))].sort(),
    groups: [...new Set(grants.flatMap((g) => g.groups))].sort(),
  };
}

export function createSsoService(deps: { db: Db; sso: SsoConfig; auth: AuthService; audit: AuditService; oidcClient?: OidcClient }): SsoService {
  const { db, sso, auth, audit } = deps;
  const oidcClient = deps.oidcClient ?? (sso.oidc ? createOidcClient(sso.oidc) : undefined);

  /** The provider and its client; 404 when single sign-on is off. */
  function configured(): { oidc: OidcSettings; client: OidcClient } {
    if (!sso.oidc || !oidcClient) throw notFound('Single sign-on (it is not configured)');
    return { oidc: sso.oidc, client: oidcClient };
  }

  /** A free username for a new user: the provider's preferred username, email or subject, suffixed when taken. */
  async function createUser(tx: DbOrTx, claims: SsoClaims, fields: { name: string; email: string } & GroupGrant) {
    // At most 80 characters, so that a suffix still fits the username's 100.
    const base = (text(claims.preferred_username) || fields.email || text(claims.sub)).slice(0, 80);
    const passwordHash = await hashPassword(randomId());
    for (const username of [base, `${base}.sso`, ...Array.from({ length: 3 }, () => `${base}.${randomBytes(3).toString('hex')}`)]) {
      const user = await repo.insertUserIfFree(tx, { username, passwordHash, ...fields });
      if (user) return user;
    }
    throw conflict(`No free username for '${base}'`);
  }

  return {
    info() {
      return { enabled: sso.oidc !== null, name: sso.oidc?.name ?? null, localLogin: sso.localLogin };
    },

    publicHttps: sso.oidc?.publicUrl.startsWith('https:') ?? false,

    async start({ browser, redirect }) {
      const { client } = configured();
      const binding = browser && BROWSER_ID.test(browser) ? browser : randomId();
      const checks = { state: openid.randomState(), nonce: openid.randomNonce(), codeVerifier: openid.randomPKCECodeVerifier() };
      const location = await client.authorizationUrl(checks);
      await repo.insertState(db, {
        ...checks,
        browserHash: sha256(binding),
        redirect: redirect ?? null,
        expiresAt: new Date(Date.now() + SSO_STATE_TTL_MS),
      });
      return { location: location.href, browser: binding };
    },

    async callback({ browser, query, address }) {
      const { oidc, client } = configured();
      const started = query.state ? await repo.takeState(db, query.state) : undefined;
      if (!started || !browser || sha256(browser) !== started.browserHash) {
        throw failure(new HttpProblem(400, 'Bad Request', 'The sign-in state is unknown, expired, already used or from another browser: start the sign-in again'), 'state');
      }
      if (query.error) {
        throw failure(new HttpProblem(400, 'Bad Request', `${oidc.name} refused the sign-in: ${query.error}${query.error_description ? ` (${query.error_description})` : ''}`), 'refused');
      }
      if (!query.code) throw badRequest([{ propertyName: 'code', errorMessage: 'The provider sent no authorization code' }]);
      const callbackUrl = new URL(oidc.redirectUri);
      for (const [key, value] of Object.entries({ code: query.code, state: query.state!, iss: query.iss })) {
        if (value !== undefined) callbackUrl.searchParams.set(key, value);
      }
      const claims = await client.claims(callbackUrl, started);
      const grant = mapGroups(claimGroups(claims, oidc.groupsClaim), oidc.groupMap);
      const name = text(claims.name) || text(claims.preferred_username) || text(claims.email) || text(claims.sub);
      const email = text(claims.email);

      const outcome = await db.transaction(async (tx): Promise<{ refused: string } | { user: repo.UserRow }> => {
        const known = await repo.findUserByIdentity(tx, claims.iss, claims.sub);
        const identity = { issuer: claims.iss, subject: claims.sub, name, email };
        if (!grant) {
          if (known) {
            await repo.updateFromClaims(tx, { ...identity, userId: known.id, permissions: [], groups: [] });
            await repo.revokeUserTokens(tx, known.id);
            // A code an earlier sign-in handed out but the console has not exchanged yet goes too.
            await repo.deleteHandoffsOf(tx, known.id);
          }
          const user = known?.username ?? (text(claims.preferred_username) || name);
          await audit.record(tx, { action: 'LoginFailed', user, params: { address, via: oidc.name, reason: 'no mapped group' } });
          return { refused: `Your groups at ${oidc.name} grant no access to Fleet Console` };
        }
        if (known) return { user: await repo.updateFromClaims(tx, { ...identity, userId: known.id, ...grant }) };
        const user = await createUser(tx, claims, { name, email, ...grant });
        // Two first sign-ins at once: the later one's user is rolled back with its transaction.
        if (!(await repo.insertIdentity(tx, { issuer: claims.iss, subject: claims.sub, userId: user.id }))) {
          throw failure(conflict('Another sign-in of this user is under way; sign in again'), 'busy');
        }
        return { user };
      });
      if ('refused' in outcome) throw failure(forbidden(outcome.refused), 'no-access');
      if (outcome.user.disabled) {
        await db.transaction(async (tx) => {
          await repo.deleteHandoffsOf(tx, outcome.user.id);
          await audit.record(tx, { action: 'LoginFailed', user: outcome.user.username, params: { address, via: oidc.name, reason: 'disabled' } });
        });
        throw failure(forbidden('The user is disabled'), 'disabled');
      }

      const code = randomId();
      // Bound to this browser, as the state was: a code taken from this redirect and planted in another browser (a
      // sign-in CSRF, signing the victim in as the attacker) is refused there.
      await repo.insertHandoff(db, { codeHash: sha256(code), userId: outcome.user.id, browserHash: started.browserHash, expiresAt: new Date(Date.now() + SSO_HANDOFF_TTL_MS) });
      const params = new URLSearchParams({ sso: code, ...(started.redirect ? { redirect: started.redirect } : {}) });
      return { location: `${oidc.publicUrl}/#/login?${params}` };
    },

    failureLocation(why) {
      return `${configured().oidc.publicUrl}/#/login?${new URLSearchParams({ ssoError: why })}`;
    },

    async exchange({ code, browser, address }) {
      // No provider needed: a code exists only if a callback made it.
      const userId = browser && BROWSER_ID.test(browser) ? await repo.takeHandoff(db, sha256(code), sha256(browser)) : undefined;
      if (userId === undefined) throw badRequest([{ propertyName: 'code', errorMessage: 'The sign-in code is unknown, expired or already used' }]);
      return auth.startSession({ userId, address, via: sso.oidc?.name ?? 'single sign-on' });
    },
  };
}
