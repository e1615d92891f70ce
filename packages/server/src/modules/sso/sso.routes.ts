/**
 * `GET /auth/sso`, `GET /auth/sso/start`, `GET /auth/sso/callback`,
 * `POST /auth/sso/exchange` (issue 28 point 2; `modules/sso/README.md`). All
 * public: they are how a user without a token gets one.
 *
 * The start and the callback are browser navigations answered with redirects,
 * not API calls: they are left out of the OpenAPI document (`hide`), whose
 * operations each answer a 2xx; their query is validated all the same.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLoginResponse, ZSsoCallbackQuery, ZSsoExchangeRequest, ZSsoInfo, ZSsoStartQuery } from '@fleet/contracts';
import { SSO_BROWSER_COOKIE, SSO_STATE_TTL_MS, ssoFailureOf } from './sso.service.js';

const COOKIE_PATH = '/api/v1/auth/sso';

/** The browser binding cookie of the request, if any (no cookie plugin: this is the console's only cookie). */
function browserCookie(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SSO_BROWSER_COOKIE) return value.join('=');
  }
  return undefined;
}

/** Sets the browser binding cookie; Secure when the console is reached over https (`PUBLIC_URL`, or this request behind no proxy). */
function setBrowserCookie(reply: FastifyReply, req: FastifyRequest, value: string, publicHttps: boolean): void {
  const secure = publicHttps || req.protocol === 'https' ? '; Secure' : '';
  // Lax: sent on the provider's top-level redirect back to the callback, never on another site's POST or fetch.
  reply.header('set-cookie', `${SSO_BROWSER_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${SSO_STATE_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`);
}

/** A browser's navigation (it takes HTML), as opposed to a script's call. */
const isNavigation = (req: FastifyRequest) => /\btext\/html\b/.test(req.headers.accept ?? '');

const ZRedirect = z.null().describe('A redirect (`Location`)');

export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * A refused sign-in told to a person: a browser's navigation is sent back to
   * the login page, which says why (`failureLocation`); a script's call, or an
   * error that is no refusal (single sign-on off, a bug), is thrown on as the problem.
   */
  function toLoginPage(req: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
    const why = ssoFailureOf(error);
    if (why === undefined || !isNavigation(req)) throw error;
    req.log.info({ err: error, ssoFailure: why }, 'single sign-on refused');
    return reply.header('cache-control', 'no-store').redirect(app.services.sso.failureLocation(why), 302);
  }

  app.get(
    '/auth/sso',
    {
      config: { public: true },
      schema: {
        operationId: 'getSsoInfo',
        description: "Whether the login page offers 'Sign in with <name>' (single sign-on configured: `OIDC_ISSUER`…), the provider's name (`OIDC_NAME`), and whether it offers the password form (`LOCAL_LOGIN`).",
        tags: ['Single sign-on'],
        summary: 'Single sign-on and password sign-in offered',
        response: { 200: ZSsoInfo },
      },
    },
    () => app.services.sso.info(),
  );

  app.get(
    '/auth/sso/start',
    {
      config: { public: true, problems: [404] },
      schema: {
        hide: true,
        operationId: 'startSso',
        description:
          "Starts a sign-in at the OpenID provider: redirects (302) to its authorization endpoint with a PKCE code challenge (S256), a state and a nonce, kept by the server for 10 minutes and bound to this browser by an HttpOnly cookie. `redirect`: the console path to open after the sign-in. 404 when single sign-on is not configured; 503 when the provider cannot be reached (a browser's navigation is sent to `/#/login?ssoError=unreachable` instead).",
        tags: ['Single sign-on'],
        summary: 'Go to the provider to sign in',
        querystring: ZSsoStartQuery,
        response: { 302: ZRedirect },
      },
    },
    async (req, reply) => {
      try {
        const started = await app.services.sso.start({ browser: browserCookie(req), redirect: req.query.redirect });
        setBrowserCookie(reply, req, started.browser, app.services.sso.publicHttps);
        return reply.header('cache-control', 'no-store').redirect(started.location, 302);
      } catch (error) {
        // The provider away: a person clicking 'Sign in with …' is told so on the login page, a script gets the 503.
        return toLoginPage(req, reply, error);
      }
    },
  );

  app.get(
    '/auth/sso/callback',
    {
      config: { public: true, problems: [403, 404, 409] },
      schema: {
        hide: true,
        operationId: 'ssoCallback',
        description:
          "The provider's redirect back (the redirect URI `PUBLIC_URL/api/v1/auth/sso/callback`): takes the state once (unknown, expired, reused or another browser's: 400), exchanges the code (PKCE, nonce and ID token checked: 400 when a check fails), finds or makes the user by issuer and subject and sets name, email, permissions and groups from the claims (`OIDC_GROUPS_CLAIM`, `OIDC_GROUP_MAP`), then redirects (302) to the console's `/#/login?sso=<one-time code>`. A user none of whose groups is mapped is refused (403) and loses any session. 503 when the provider cannot be reached. A browser's navigation (`Accept: text/html`) is redirected instead of each of these refusals, to `/#/login?ssoError=<why>` (`state`, `refused`, `failed`, `no-access`, `disabled`, `busy`, `unreachable`), where the login page says what happened.",
        tags: ['Single sign-on'],
        summary: "The provider's callback",
        querystring: ZSsoCallbackQuery,
        response: { 302: ZRedirect },
      },
    },
    async (req, reply) => {
      try {
        const { location } = await app.services.sso.callback({ browser: browserCookie(req), query: req.query, address: req.ip });
        return reply.header('cache-control', 'no-store').redirect(location, 302);
      } catch (error) {
        return toLoginPage(req, reply, error);
      }
    },
  );

  app.post(
    '/auth/sso/exchange',
    {
      config: { public: true },
      schema: {
        operationId: 'exchangeSsoCode',
        description:
          "Exchanges the one-time code the single sign-on's callback put in the console's URL (`/#/login?sso=<code>`; valid once, for a minute) for the bearer JWT `POST /auth/login` answers (issue 28 point 2), in the browser whose sign-in made it (its `fleet_sso` cookie, sent by the console's same-origin call). An unknown, expired, used or another browser's code: 400 naming `code`.",
        tags: ['Single sign-on'],
        summary: 'The access token of a single sign-on',
        body: ZSsoExchangeRequest,
        response: { 200: ZLoginResponse },
      },
    },
    (req) => app.services.sso.exchange({ code: req.body.code, browser: browserCookie(req), address: req.ip }),
  );
};
