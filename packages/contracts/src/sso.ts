/**
 * Single sign-on with an OpenID provider (issue 28 point 2): what the login
 * page asks, the provider's callback and the exchange of the one-time code the
 * callback hands to the console for the access token of `POST /auth/login`.
 */
import { z } from 'zod';

/** `GET /auth/sso`: whether 'Sign in with <name>' is offered, and whether the password form is. */
export const ZSsoInfo = z.object({
  enabled: z.boolean(),
  /** The provider's name (`OIDC_NAME`), null when single sign-on is off. */
  name: z.string().nullable(),
  /** False when `LOCAL_LOGIN=false`: the username and password form is not offered. */
  localLogin: z.boolean(),
});
export type TSsoInfo = z.infer<typeof ZSsoInfo>;

/** A path of the console to open after the sign-in (never another origin). */
const ZLocalPath = z
  .string()
  .max(500)
  .regex(/^\/(?!\/)/, 'A path of the console, starting with one /');

/** `GET /auth/sso/start`: where to go after the sign-in. */
export const ZSsoStartQuery = z.object({ redirect: ZLocalPath.optional() });
export type TSsoStartQuery = z.infer<typeof ZSsoStartQuery>;

/** `GET /auth/sso/callback`: the provider's authorization response (RFC 6749 §4.1.2, RFC 9207 `iss`). */
export const ZSsoCallbackQuery = z.object({
  code: z.string().min(1).max(2000).optional(),
  state: z.string().min(1).max(200).optional(),
  iss: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});
export type TSsoCallbackQuery = z.infer<typeof ZSsoCallbackQuery>;

/** `POST /auth/sso/exchange`: the one-time code of the callback's redirect (`/#/login?sso=<code>`), valid once for a minute. */
export const ZSsoExchangeRequest = z.object({
  code: z
    .string()
    .min(20)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, 'A sign-in code of letters, digits, - and _'),
});
export type TSsoExchangeRequest = z.infer<typeof ZSsoExchangeRequest>;

/**
 * Why a single sign-on failed, as the callback tells a browser: it sends the
 * browser back to the login page with `?ssoError=<failure>` (never the
 * server's text, so that a link cannot make the login page say what an
 * attacker wrote), and the login page says what happened in its own words.
 * - `state`: the state is unknown, expired, used or from another browser;
 * - `refused`: the provider answered an error (the user cancelled, consent refused);
 * - `failed`: the code or the ID token failed a check;
 * - `no-access`: none of the user's groups is mapped (`OIDC_GROUP_MAP`);
 * - `disabled`: the user is disabled in the console;
 * - `busy`: another first sign-in of the same user was under way;
 * - `unreachable`: the provider cannot be reached.
 */
export const SSO_FAILURES = ['state', 'refused', 'failed', 'no-access', 'disabled', 'busy', 'unreachable'] as const;
export type TSsoFailure = (typeof SSO_FAILURES)[number];
