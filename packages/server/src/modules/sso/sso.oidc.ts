/**
 * The console as an OpenID Connect client of `OIDC_ISSUER` (openid-client v6):
 * the authorization code flow with PKCE (S256), state and nonce.
 *
 * The provider's metadata is discovered at the first sign-in, not at start, so a
 * provider that is down never stops the console; a failed discovery is not
 * remembered (the next sign-in tries again) and answers 503.
 *
 * Known limitations: the client authenticates with `client_secret_basic` (the
 * OpenID Connect default) only; the provider's keys are openid-client's to
 * fetch and cache.
 */
import * as client from 'openid-client';
import { HttpProblem } from '../../lib/problem.js';
import type { OidcSettings } from './sso.config.js';

/** Scopes asked for: the ID token's identity, name and email (the groups claim comes with them, or from the userinfo). */
export const SSO_SCOPES = 'openid profile email';

/** What the callback learns of the user: the ID token's claims, with the userinfo's when the groups claim is not in the ID token. */
export type SsoClaims = Record<string, unknown> & { iss: string; sub: string };

export interface OidcClient {
  /** The provider's authorization URL for a new sign-in. */
  authorizationUrl(opts: { state: string; nonce: string; codeVerifier: string }): Promise<URL>;
  /**
   * Exchanges the callback's code (`callbackUrl`: the redirect URI with the
   * provider's parameters), checking state, nonce, PKCE and the ID token, and
   * answers the claims. Throws a 400 {@link HttpProblem} when the provider refuses
   * the code or the ID token fails a check, 503 when the provider cannot be reached.
   */
  claims(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<SsoClaims>;
}

const DISCOVERY_TIMEOUT_S = 10;

const unreachable = (name: string) =>
  new HttpProblem(503, 'Service Unavailable', `The sign-in provider ${name} cannot be reached right now; try again in a minute`, undefined, { 'retry-after': '30' });

/** A network failure (the provider is away), as opposed to an answer that failed a check. */
function isNetworkFailure(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError') || (cause !== undefined && cause !== error && isNetworkFailure(cause));
}

/** An OpenID client of `settings`' provider, discovered on first use. */
export function createOidcClient(settings: OidcSettings): OidcClient {
  let discovered: Promise<client.Configuration> | undefined;
  const issuer = new URL(settings.issuer);

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(issuer, settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret), {
        timeout: DISCOVERY_TIMEOUT_S,
        // http is accepted for a provider on localhost only (sso.config.ts).
        execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw Object.assign(unreachable(settings.name), { cause: error });
      });
    return discovered;
  }

  return {
    async authorizationUrl({ state, nonce, codeVerifier }) {
      const config = await configuration();
      return client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: SSO_SCOPES,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
    },

    async claims(callbackUrl, { state, nonce, codeVerifier }) {
      const config = await configuration();
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims()!;
        if (idClaims[settings.groupsClaim] !== undefined || !config.serverMetadata().userinfo_endpoint) return { ...idClaims } as SsoClaims;
        const userinfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        return { ...userinfo, ...idClaims } as SsoClaims;
      } catch (error) {
        if (isNetworkFailure(error)) throw Object.assign(unreachable(settings.name), { cause: error });
        const reason = error instanceof Error ? error.message : String(error);
        throw Object.assign(new HttpProblem(400, 'Bad Request', `The sign-in with ${settings.name} failed: ${reason.slice(0, 300)}`), { cause: error });
      }
    },
  };
}
