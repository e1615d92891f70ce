/**
 * A real OpenID provider for tests of single sign-on (issue 28 point 2):
 * `oidc-provider` on a free localhost port, one confidential client (the
 * console), PKCE required, its development login page (any login, any
 * password: the login is the subject), consent given without asking, and users
 * whose claims (name, email, groups) the test sets and changes between sign-ins.
 *
 * `signIn` drives the provider's pages over HTTP the way a browser would (API
 * tests); the e2e spec uses the same provider through Chromium.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Server } from 'node:http';
import getPort from 'get-port';
import Provider from 'oidc-provider';

export interface TestIdpUser {
  name: string;
  email: string;
  /** The `groups` claim; omitted from the claims when undefined. */
  groups?: string[];
}

export interface TestIdp {
  /** The issuer (`OIDC_ISSUER`), `http://localhost:<port>`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sets (or replaces) the claims of the user whose login is `login`; the next token issued reads them. */
  setUser(login: string, user: TestIdpUser): void;
  /**
   * Follows `authorizationUrl` through the provider's login page as `login`
   * (a fresh browser: no provider session) and answers the URL the provider
   * sends the browser back to (the redirect URI with code, state and iss).
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

/** Starts the provider with `redirectUris` registered for its client. */
export async function startTestIdp(opts: { redirectUris: string[] }): Promise<TestIdp> {
  const port = await getPort();
  const issuer = `http://localhost:${port}`;
  const clientId = 'fleet-console';
  const clientSecret = 'fleet-console-test-secret-0123456789';
  const users = new Map<string, TestIdpUser>();
  const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' };

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: opts.redirectUris, response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['fleet-console-test-idp-cookie-key'] },
    pkce: { required: () => true, methods: ['S256'] },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'groups'], email: ['email', 'email_verified'] },
    // The scope's claims in the ID token itself, as most providers put a groups claim there.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, id) => {
      const user = users.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, preferred_username: id, name: user.name, email: user.email, email_verified: true, ...(user.groups ? { groups: user.groups } : {}) }),
      };
    },
    // The console is a first-party client: consent is given without a page.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, () => resolve(s));
  });

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const cookies = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}) => {
      const res = await fetch(new URL(url, issuer), {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return res;
    };
    const location = (res: Response) => {
      const to = res.headers.get('location');
      if (!to || res.status < 300 || res.status > 399) throw new Error(`the provider answered ${res.status} without a redirect`);
      return new URL(to, issuer);
    };
    const interaction = location(await send(authorizationUrl));
    await send(interaction.href);
    const resume = location(
      await send(interaction.href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      }),
    );
    return location(await send(resume.href));
  }

  return {
    issuer,
    clientId,
    clientSecret,
    setUser: (login, user) => users.set(login, user),
    signIn,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
