/**
 * Single sign-on in Chromium (issue 28 point 2): a console server of this spec's
 * own, started with `OIDC_*` settings pointing to a real OpenID provider
 * (`oidc-provider`, `packages/server/test/oidc-idp.ts`) started here, signed in
 * through the provider's login page: the sign-in landing on the accounts list
 * with the permission its groups map to and signing out (the token revoked), a
 * user whose groups were removed refused at the next sign-in (and its open
 * session ended), a forged state and another browser's sign-in refused; the
 * link accessible (axe, keyboard); and the login page of the worker's server,
 * without OIDC settings, showing no single sign-on link.
 */
import getPort from 'get-port';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdp, type TestIdp } from '../packages/server/test/oidc-idp.js';
import { baseUrl, browser, expectAccessible, newPage, useBrowser } from './browser.js';
import { startConsole } from './global-setup.js';

useBrowser();

const SSO_LINK = 'Sign in with Test IdP';

let idp: TestIdp;
let consoleUrl: string;
let stopConsole: () => Promise<void>;

beforeAll(async () => {
  const port = await getPort();
  consoleUrl = `http://localhost:${port}`;
  idp = await startTestIdp({ redirectUris: [`${consoleUrl}/api/v1/auth/sso/callback`] });
  ({ stop: stopConsole } = await startConsole(port, {
    DEMO_SCHEDULES: 'false',
    PROBE_INTERVAL_S: '0',
    PUBLIC_URL: consoleUrl,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: 'Test IdP',
    OIDC_GROUP_MAP: 'fleet-admins=write+CustomerProductionAccess,fleet-operators=write,fleet-viewers=',
  }));
});
afterAll(async () => {
  await stopConsole?.();
  await idp?.close();
});

/** The SSO console's callback (the provider's redirect back). */
const isCallback = (url: URL) => url.origin === consoleUrl && url.pathname === '/api/v1/auth/sso/callback';

/** A fresh context (no console token, no provider session) on the SSO console's login page. */
async function ssoLoginPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: consoleUrl, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto('/#/login');
  return { context, page };
}

/** Clicks 'Sign in with Test IdP' and signs in at the provider's own login page as `login`. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByRole('link', { name: SSO_LINK }).click();
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

/** `GET /user/me` of the SSO console with the page's stored token: status and body. */
async function currentUser(page: Page, token?: string | null): Promise<{ status: number; body: { roles?: string[]; name?: string } }> {
  const bearer = token ?? (await page.evaluate(() => localStorage.getItem('fleet.token')));
  const res = await fetch(`${consoleUrl}/api/v1/user/me`, { headers: { authorization: `Bearer ${bearer}` } });
  return { status: res.status, body: (await res.json()) as { roles?: string[]; name?: string } };
}

describe('single sign-on', () => {
  it('signs in through the provider and lands on the accounts list with the permission its groups map to', async () => {
    idp.setUser('alice', { name: 'Alice Admin', email: 'alice@idp.example', groups: ['fleet-admins'] });
    const { context, page } = await ssoLoginPage();
    await page.getByLabel('Username').waitFor();
    await signInAtProvider(page, 'alice');
    await page.waitForURL((url) => url.origin === consoleUrl && url.hash.startsWith('#/account/list'));
    await page.getByRole('button', { name: /Alice Admin/ }).waitFor();
    expect(await currentUser(page)).toMatchObject({ status: 200, body: { name: 'Alice Admin', roles: ['admin'] } });
    // The one-time code is gone from the address once exchanged.
    expect(page.url()).not.toContain('sso=');

    // Sign-out ends the console session: the token is revoked.
    const token = await page.evaluate(() => localStorage.getItem('fleet.token'));
    await page.getByRole('button', { name: /Alice Admin/ }).click();
    const reloaded = page.waitForEvent('load');
    await page.getByText('Log Out').click();
    await reloaded;
    await page.waitForURL(/#\/login/);
    expect((await currentUser(page, token)).status).toBe(401);
    await context.close();
  });

  it('maps a viewer group to access without write: no Updater in the sidebar', async () => {
    idp.setUser('vera', { name: 'Vera Viewer', email: 'vera@idp.example', groups: ['fleet-viewers'] });
    const { context, page } = await ssoLoginPage();
    await signInAtProvider(page, 'vera');
    await page.waitForURL((url) => url.hash.startsWith('#/account/list'));
    await page.getByRole('button', { name: /Vera Viewer/ }).waitFor();
    expect(await currentUser(page)).toMatchObject({ body: { roles: ['viewer'] } });
    await expect.poll(() => page.locator('.ant-layout-sider').getByText('Updater').count()).toBe(0);
    await context.close();
  });

  it('refuses a user whose groups were removed at the next sign-in, and ends the session it had', async () => {
    idp.setUser('olga', { name: 'Olga Operator', email: 'olga@idp.example', groups: ['fleet-operators'] });
    const first = await ssoLoginPage();
    await signInAtProvider(first.page, 'olga');
    await first.page.waitForURL((url) => url.hash.startsWith('#/account/list'));
    const token = await first.page.evaluate(() => localStorage.getItem('fleet.token'));
    expect((await currentUser(first.page, token)).body.roles).toEqual(['operator']);

    idp.setUser('olga', { name: 'Olga Operator', email: 'olga@idp.example', groups: ['marketing'] });
    const second = await ssoLoginPage();
    const refused = second.page.waitForResponse((res) => isCallback(new URL(res.url())));
    await signInAtProvider(second.page, 'olga');
    // The browser is sent back to the login page (a script calling the callback gets the 403 problem: sso.test.ts).
    expect((await refused).status()).toBe(302);
    await second.page.waitForURL((url) => url.hash === '#/login?ssoError=no-access');
    await second.page.getByRole('alert').getByText('Your groups at Test IdP grant no access to Fleet Console. Ask an administrator for access.').waitFor();
    await second.page.getByRole('link', { name: SSO_LINK }).waitFor();
    expect(await second.page.evaluate(() => localStorage.getItem('fleet.token'))).toBeNull();

    expect((await currentUser(first.page, token)).status).toBe(401);
    await first.page.reload();
    await first.page.waitForURL(/#\/login/);
    await first.context.close();
    await second.context.close();
  });

  it('refuses a forged state, and a sign-in started in another browser, back on the login page saying so, signing no one in', async () => {
    idp.setUser('mallory', { name: 'Mallory', email: 'mallory@idp.example', groups: ['fleet-admins'] });
    const { context, page } = await ssoLoginPage();
    // The browser starts a sign-in of its own (it now holds the binding cookie)…
    await page.getByRole('link', { name: SSO_LINK }).click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    // …and comes back with a state no one issued.
    const forged = page.waitForResponse((res) => isCallback(new URL(res.url())));
    await page.goto(`${consoleUrl}/api/v1/auth/sso/callback?code=forged-code&state=forged-state-forged-state-forged-state-forg`);
    expect((await forged).status()).toBe(302);
    await page.waitForURL((url) => url.hash === '#/login?ssoError=state');
    await page.getByRole('alert').getByText('The sign-in took too long, was used already or was started in another browser. Start it again.').waitFor();

    // Another party's real sign-in (a real code and state, started outside this browser) planted in it.
    const started = await fetch(`${consoleUrl}/api/v1/auth/sso/start`, { redirect: 'manual' });
    const back = await idp.signIn(started.headers.get('location')!, 'mallory');
    const planted = page.waitForResponse((res) => isCallback(new URL(res.url())));
    await page.goto(back.href);
    expect((await planted).status()).toBe(302);
    await page.waitForURL((url) => url.hash === '#/login?ssoError=state');

    await page.goto('/#/login');
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('fleet.token'))).toBeNull();
    await context.close();
  });

  it('shows the single sign-on link only on a console with OIDC settings, accessible and reached by keyboard', async () => {
    const { context, page } = await newPage(browser);
    const ssoInfo = page.waitForResponse((res) => res.url() === `${baseUrl()}/api/v1/auth/sso`);
    await page.goto('/#/login');
    expect(await (await ssoInfo).json()).toEqual({ enabled: false, name: null, localLogin: true });
    await page.getByLabel('Username').waitFor();
    expect(await page.getByRole('link', { name: /Sign in with/ }).count()).toBe(0);

    const sso = await ssoLoginPage();
    await sso.page.getByRole('link', { name: SSO_LINK }).waitFor();
    await sso.page.getByLabel('Username').waitFor();
    await expectAccessible(sso.page, 'login with single sign-on');
    // Keyboard: the link is reached with Tab after the form and opens the provider with Enter.
    await sso.page.getByRole('button', { name: 'Log In' }).focus();
    await sso.page.keyboard.press('Tab');
    await expect.poll(() => sso.page.evaluate(() => document.activeElement?.textContent)).toBe(SSO_LINK);
    await sso.page.keyboard.press('Enter');
    await sso.page.waitForURL((url) => url.origin === idp.issuer);
    await sso.context.close();
    await context.close();
  });

  it('hides the password form when the console says local sign-in is off (LOCAL_LOGIN=false)', async () => {
    const { context, page } = await ssoLoginPage();
    // This console keeps local sign-in; the answer of one with LOCAL_LOGIN=false (sso.test.ts proves the server's side).
    await page.route(
      (url) => url.origin === consoleUrl && url.pathname === '/api/v1/auth/sso',
      (route) => route.fulfill({ json: { enabled: true, name: 'Test IdP', localLogin: false } }),
    );
    await page.reload();
    await page.getByRole('link', { name: SSO_LINK }).waitFor();
    await page.getByText('Sign in with Test IdP.').waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Log In' }).count()).toBe(0);
    await context.close();
  });
});
