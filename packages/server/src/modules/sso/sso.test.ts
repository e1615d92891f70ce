/**
 * Single sign-on through the real app, real PostgreSQL and a real OpenID
 * provider (`oidc-provider`, test/oidc-idp.ts) started here (issue 28 point 2):
 * the start's PKCE, state and nonce, a forged, reused or other browser's state
 * refused, a first sign-in making the user with its mapped permission and
 * groups, later sign-ins re-reading them (and refusing a user with no mapped
 * group), the one-time code, and LOCAL_LOGIN=false.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { startTestIdp, type TestIdp } from '../../../test/oidc-idp.js';
import { ssoStates, userIdentities, users } from '../../db/schema.js';
import { HttpProblem } from '../../lib/problem.js';
import { SSO_CALLBACK_PATH, ssoConfig, type SsoConfig } from './sso.config.js';
import { createSsoService } from './sso.service.js';

const PUBLIC_URL = 'http://console.test';
const GROUP_MAP = 'fleet-admins=write+CustomerProductionAccess,fleet-operators=write,fleet-viewers=';

let idp: TestIdp;
let sso: SsoConfig;
let t: TestApp;
beforeAll(async () => {
  idp = await startTestIdp({ redirectUris: [`${PUBLIC_URL}${SSO_CALLBACK_PATH}`] });
  const env = { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_NAME: 'Test IdP', OIDC_GROUP_MAP: GROUP_MAP };
  sso = ssoConfig(env, PUBLIC_URL, Error);
  t = await startTestApp({ sso });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** `GET /auth/sso/start` with the browser cookie `cookie` (if any): the provider URL and the cookie to keep. */
async function start(cookie?: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/sso/start', headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(302);
  const setCookie = String(res.headers['set-cookie']);
  return { res, location: String(res.headers.location), cookie: setCookie.split(';')[0]!, setCookie };
}

const callback = (url: URL, cookie: string) => t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie } });

/** A whole sign-in of `login` at the provider: the callback's answer. */
async function signIn(login: string) {
  const started = await start();
  const back = await idp.signIn(started.location, login);
  return { res: await callback(back, started.cookie), back, cookie: started.cookie };
}

/** The one-time code of the callback's redirect, exchanged for a token in the browser `cookie` (the sign-in's own by default). */
async function exchange(signedIn: { res: { headers: Record<string, unknown> }; cookie: string }, cookie = signedIn.cookie) {
  const code = new URLSearchParams(String(signedIn.res.headers.location).split('#/login?')[1]).get('sso')!;
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/sso/exchange', payload: { code }, headers: { cookie } });
}

const me = (token: string) => t.call({ method: 'GET', url: '/user/me', token });

describe('GET /auth/sso', () => {
  it('says single sign-on is on, with the provider name, and that the password form stays', async () => {
    const res = await t.call({ method: 'GET', url: '/auth/sso' });
    expect(res.json()).toEqual({ enabled: true, name: 'Test IdP', localLogin: true });
  });
});

describe('GET /auth/sso/start', () => {
  it('redirects to the provider with a PKCE S256 challenge, a state and a nonce, kept server-side and bound to an HttpOnly cookie', async () => {
    const { location, setCookie } = await start();
    const url = new URL(location);
    expect(`${url.origin}/`).toBe(new URL(idp.issuer).href);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ client_id: idp.clientId, response_type: 'code', redirect_uri: `${PUBLIC_URL}${SSO_CALLBACK_PATH}`, code_challenge_method: 'S256', scope: 'openid profile email' });
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(setCookie).toMatch(/^fleet_sso=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/auth\/sso; Max-Age=600; HttpOnly; SameSite=Lax$/);
    const [row] = await t.database.db.select().from(ssoStates).where(eq(ssoStates.state, params.state!));
    expect(row).toMatchObject({ nonce: params.nonce, redirect: null });
    expect(row!.codeVerifier).not.toBe(params.code_challenge);
  });

  it('refuses a redirect to another origin with 400', async () => {
    const res = await t.call({ method: 'GET', url: '/auth/sso/start', query: { redirect: '//evil.example/' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe('redirect');
  });
});

describe('GET /auth/sso/callback', () => {
  it('makes the user at the first sign-in with the permission and groups its provider groups map to, and hands the console a one-time code', async () => {
    idp.setUser('alice', { name: 'Alice Admin', email: 'alice@idp.example', groups: ['fleet-admins', 'unrelated'] });
    const signedIn = await signIn('alice');
    const { res } = signedIn;
    expect(res.statusCode).toBe(302);
    const location = String(res.headers.location);
    expect(location).toMatch(/^http:\/\/console\.test\/#\/login\?sso=[A-Za-z0-9_-]{43}$/);
    expect(location).not.toContain('eyJ'); // no token in a URL

    // Planted in another browser (a sign-in CSRF: the victim would be signed in as alice), or sent without the cookie: refused.
    const elsewhere = await exchange(signedIn, (await start()).cookie);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().errors[0]).toMatchObject({ propertyName: 'code', errorMessage: 'The sign-in code is unknown, expired or already used' });
    expect((await exchange(signedIn, '')).statusCode).toBe(400);

    // The code is still the right browser's.
    const exchanged = await exchange(signedIn);
    expect(exchanged.statusCode).toBe(200);
    const token = exchanged.json().accessToken.token as string;
    expect((await me(token)).json()).toEqual({
      name: 'Alice Admin',
      email: 'alice@idp.example',
      avatar: null,
      roles: ['admin'],
      permissions: ['write'],
      groups: ['CustomerProductionAccess'],
    });
    const [identity] = await t.database.db.select().from(userIdentities).where(eq(userIdentities.subject, 'alice'));
    expect(identity!.issuer).toBe(idp.issuer);

    const again = await exchange(signedIn);
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatchObject({ propertyName: 'code', errorMessage: 'The sign-in code is unknown, expired or already used' });
  });

  it('re-reads the groups at each sign-in: updated when they change, refused (403, sessions and unexchanged codes ended) when none is mapped', async () => {
    idp.setUser('olga', { name: 'Olga Ops', email: 'olga@idp.example', groups: ['fleet-admins'] });
    const first = await exchange(await signIn('olga'));
    const firstToken = first.json().accessToken.token as string;
    expect((await me(firstToken)).json().roles).toEqual(['admin']);

    idp.setUser('olga', { name: 'Olga Operator', email: 'olga.ops@idp.example', groups: ['fleet-operators'] });
    const second = await exchange(await signIn('olga'));
    expect((await me(second.json().accessToken.token)).json()).toMatchObject({
      name: 'Olga Operator',
      email: 'olga.ops@idp.example',
      roles: ['operator'],
      permissions: ['write'],
      groups: [],
    });

    // A code of a sign-in still allowed, not exchanged before the next one refuses the user: it goes with the access.
    const pending = await signIn('olga');
    idp.setUser('olga', { name: 'Olga Operator', email: 'olga.ops@idp.example', groups: ['marketing'] });
    const refused = (await signIn('olga')).res;
    expect((await exchange(pending)).statusCode).toBe(400);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({ status: 403, detail: 'Your groups at Test IdP grant no access to Fleet Console' });
    expect((await me(firstToken)).statusCode).toBe(401);
    expect((await me(second.json().accessToken.token)).statusCode).toBe(401);
    const [olga] = await t.database.db.select().from(users).where(eq(users.username, 'olga'));
    expect(olga).toMatchObject({ permissions: [], groups: [] });
  });

  it('gives a viewer group access without write, and refuses a first sign-in with no mapped group without making a user', async () => {
    idp.setUser('vera', { name: 'Vera Viewer', email: 'vera@idp.example', groups: ['fleet-viewers'] });
    const vera = await exchange(await signIn('vera'));
    expect((await me(vera.json().accessToken.token)).json()).toMatchObject({ roles: ['viewer'], permissions: [], groups: [] });

    idp.setUser('nobody', { name: 'No Body', email: 'nobody@idp.example' });
    expect((await signIn('nobody')).res.statusCode).toBe(403);
    expect(await t.database.db.select().from(users).where(eq(users.username, 'nobody'))).toEqual([]);
  });

  it('never links a provider user to the local user of the same name (break-glass users stay local)', async () => {
    idp.setUser('admin', { name: 'Impostor', email: 'impostor@idp.example', groups: ['fleet-viewers'] });
    const res = await exchange(await signIn('admin'));
    expect((await me(res.json().accessToken.token)).json()).toMatchObject({ name: 'Impostor', roles: ['viewer'] });
    const [local] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
    expect(local).toMatchObject({ name: 'Ada Admin', permissions: ['write'] });
    const [linked] = await t.database.db
      .select({ username: users.username })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(eq(userIdentities.subject, 'admin'));
    expect(linked!.username).toBe('admin.sso');
  });

  it('refuses a forged state, a reused state and another browser\'s state with 400, signing no one in', async () => {
    idp.setUser('mallory', { name: 'Mallory', email: 'mallory@idp.example', groups: ['fleet-admins'] });
    const started = await start();
    const back = await idp.signIn(started.location, 'mallory');

    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-forged-state-forged-state-forg');
    const forgedRes = await callback(forged, started.cookie);
    expect(forgedRes.statusCode).toBe(400);
    expect(forgedRes.json().detail).toBe('The sign-in state is unknown, expired, already used or from another browser: start the sign-in again');

    const otherBrowser = await callback(back, (await start()).cookie);
    expect(otherBrowser.statusCode).toBe(400);
    // The state was spent by that refused try: the right browser cannot use it either.
    expect((await callback(back, started.cookie)).statusCode).toBe(400);
    expect(await t.database.db.select().from(users).where(eq(users.username, 'mallory'))).toEqual([]);

    const ok = await signIn('mallory');
    expect(ok.res.statusCode).toBe(302);
    const reused = await callback(ok.back, ok.cookie);
    expect(reused.statusCode).toBe(400);
  });

  it("sends a browser's refused callback back to the login page with why (never the server's text), a script the problem", async () => {
    idp.setUser('nora', { name: 'Nora', email: 'nora@idp.example', groups: ['marketing'] });
    const started = await start();
    const back = await idp.signIn(started.location, 'nora');
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const noAccess = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: started.cookie, ...html } });
    expect(noAccess.statusCode).toBe(302);
    expect(noAccess.headers.location).toBe(`${PUBLIC_URL}/#/login?ssoError=no-access`);
    expect(noAccess.headers['cache-control']).toBe('no-store');

    const stale = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: started.cookie, ...html } });
    expect(stale.headers.location).toBe(`${PUBLIC_URL}/#/login?ssoError=state`);
    const cancelled = await start();
    const denied = await t.app.inject({
      method: 'GET',
      url: `/api/v1/auth/sso/callback?${new URLSearchParams({ state: new URL(cancelled.location).searchParams.get('state')!, error: 'access_denied', error_description: 'Call +1 555 0100 now' })}`,
      headers: { cookie: cancelled.cookie, ...html },
    });
    expect(denied.headers.location).toBe(`${PUBLIC_URL}/#/login?ssoError=refused`);

    // The same refusal asked by a script: the problem, with the server's detail.
    const again = await start();
    const scripted = await callback(await idp.signIn(again.location, 'nora'), again.cookie);
    expect(scripted.statusCode).toBe(403);
    expect(scripted.json().detail).toBe('Your groups at Test IdP grant no access to Fleet Console');
  });

  it('refuses a user disabled in the console whatever the provider says, dropping the code an earlier sign-in left', async () => {
    idp.setUser('dora', { name: 'Dora', email: 'dora@idp.example', groups: ['fleet-operators'] });
    expect((await exchange(await signIn('dora'))).statusCode).toBe(200);
    const pending = await signIn('dora');
    const [dora] = await t.database.db.select({ id: users.id }).from(userIdentities).innerJoin(users, eq(users.id, userIdentities.userId)).where(eq(userIdentities.subject, 'dora'));
    await t.database.db.update(users).set({ disabled: true }).where(eq(users.id, dora!.id));
    const refused = (await signIn('dora')).res;
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('The user is disabled');
    expect((await exchange(pending)).statusCode).toBe(400);
  });

  it('keeps the console path asked at the start through the provider, and refuses an expired code', async () => {
    idp.setUser('rita', { name: 'Rita', email: 'rita@idp.example', groups: ['fleet-viewers'] });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/sso/start?redirect=%2Fviewer%2Fissues%3Fmachine%3D7' });
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const back = await callback(await idp.signIn(String(res.headers.location), 'rita'), cookie);
    const location = new URL(String(back.headers.location));
    expect(new URLSearchParams(location.hash.split('?')[1]).get('redirect')).toBe('/viewer/issues?machine=7');

    await t.database.db.execute(sql`update sso_handoffs set expires_at = now() - interval '1 second'`);
    expect((await exchange({ res: back, cookie })).statusCode).toBe(400);
  });

  it('answers 400 for a callback without state, and 503 when the provider cannot be reached', async () => {
    const noState = await t.call({ method: 'GET', url: '/auth/sso/callback', query: { code: 'x' } });
    expect(noState.statusCode).toBe(400);

    const away = createSsoService({
      db: t.database.db,
      sso: ssoConfig({ OIDC_ISSUER: 'http://localhost:9', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_GROUP_MAP: GROUP_MAP }, PUBLIC_URL, Error),
      auth: t.app.services.auth,
      audit: t.app.services.audit,
    });
    const failure = await away.start({ browser: undefined }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpProblem);
    expect((failure as HttpProblem).status).toBe(503);
    expect((failure as HttpProblem).detail).toBe('The sign-in provider SSO cannot be reached right now; try again in a minute');
  });
});

describe('a console behind https, and a provider away', () => {
  let https: TestApp;
  let away: TestApp;
  beforeAll(async () => {
    const env = { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_GROUP_MAP: GROUP_MAP };
    https = await startTestApp({ sso: ssoConfig(env, 'https://console.test', Error) });
    away = await startTestApp({ sso: ssoConfig({ ...env, OIDC_ISSUER: 'http://localhost:9', OIDC_NAME: 'Okta' }, PUBLIC_URL, Error) });
  });
  afterAll(async () => {
    await https?.close();
    await away?.close();
  });

  it('marks the browser cookie Secure when PUBLIC_URL is https, whatever the request came through', async () => {
    const res = await https.app.inject({ method: 'GET', url: '/api/v1/auth/sso/start' });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });

  it("sends a person whose 'Sign in with …' finds the provider away to the login page, a script the 503", async () => {
    const navigation = await away.app.inject({ method: 'GET', url: '/api/v1/auth/sso/start', headers: { accept: 'text/html' } });
    expect(navigation.statusCode).toBe(302);
    expect(navigation.headers.location).toBe(`${PUBLIC_URL}/#/login?ssoError=unreachable`);
    const scripted = await away.app.inject({ method: 'GET', url: '/api/v1/auth/sso/start' });
    expect(scripted.statusCode).toBe(503);
    expect(scripted.json().detail).toBe('The sign-in provider Okta cannot be reached right now; try again in a minute');
  });
});

describe('LOCAL_LOGIN=false and single sign-on off', () => {
  let off: TestApp;
  let ssoOnly: TestApp;
  beforeAll(async () => {
    off = await startTestApp();
    ssoOnly = await startTestApp({ sso: { ...sso, localLogin: false } });
  });
  afterAll(async () => {
    await off?.close();
    await ssoOnly?.close();
  });

  it('refuses the password sign-in with 403 naming the provider, and says so to the login page', async () => {
    const res = await ssoOnly.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'admin', password: 'admin' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, detail: 'Local sign-in is switched off; sign in with Test IdP' });
    expect((await ssoOnly.call({ method: 'GET', url: '/auth/sso' })).json()).toEqual({ enabled: true, name: 'Test IdP', localLogin: false });
  });

  it('without OIDC settings, says single sign-on is off, answers 404 to its start and callback, and knows no code', async () => {
    expect((await off.call({ method: 'GET', url: '/auth/sso' })).json()).toEqual({ enabled: false, name: null, localLogin: true });
    expect((await off.call({ method: 'GET', url: '/auth/sso/start' })).statusCode).toBe(404);
    expect((await off.call({ method: 'GET', url: '/auth/sso/callback', query: { code: 'c', state: 's' } })).statusCode).toBe(404);
    const exchanged = await off.call({ method: 'POST', url: '/auth/sso/exchange', body: { code: 'a'.repeat(43) } });
    expect(exchanged.statusCode).toBe(400);
  });
});
