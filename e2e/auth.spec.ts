/**
 * Sign-in, guards and redirects (spec 1 §2 routes and Login, §6), in Chromium
 * against the real server.
 */
import { describe, expect, it } from 'vitest';
import { api, apiToken, pagesPerTest, signInWithForm, useBrowser } from './browser.js';

useBrowser();
const openPage = pagesPerTest();

describe('login and guards', () => {
  it('sends an unauthenticated user to /login with a redirect, and back there after signing in', async () => {
    const { page } = await openPage();
    await page.goto('/#/activity?action=Login');
    await page.waitForURL(/#\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain('redirect=/activity?action=Login');
    await page.getByLabel('Username').fill('operator');
    await page.getByLabel('Password').fill('operator');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/#\/activity\?action=Login/);
    await expect.poll(() => page.title()).toContain('Activity Logs');
  });

  it('shows the server error for a wrong password and stays on /login', async () => {
    const { page } = await openPage();
    await page.goto('/#/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username or password');
    expect(page.url()).toContain('#/login');
  });

  it('validates the form before calling the server', async () => {
    const { page } = await openPage();
    await page.goto('/#/login');
    let calls = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/v1/auth/login')) calls += 1;
    });
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    // The first refused field has the focus, and says why to a screen reader.
    const username = page.getByLabel('Username');
    await expect.poll(() => username.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    expect(await username.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('Username is required');

    // A blank username is refused too; a password alone clears its own error only.
    await username.fill('   ');
    await page.getByLabel('Password').fill('x');
    await expect.poll(() => page.getByText('Password is required').count()).toBe(0);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Username is required').waitFor();
    expect(calls, 'sign-in calls while a field is refused').toBe(0);

    await username.fill('admin');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username or password');
    expect(calls).toBe(1);
  });

  it('sends a signed-in user opening /login to the accounts list', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'viewer');
    await page.waitForURL(/#\/account\/list/);
    await page.goto('/#/login');
    await page.waitForURL(/#\/account\/list/);
  });

  it('sends a user without write away from /account/new and /updater, and hides them from the sidebar', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'viewer');
    await page.goto('/#/updater');
    await page.waitForURL(/#\/account\/list/);
    await page.goto('/#/account/new');
    await page.waitForURL(/#\/account\/list/);
    const nav = page.locator('.ant-layout-sider');
    await nav.getByText('Activity Logs').waitFor();
    expect(await nav.getByText('Updater').count()).toBe(0);
  });

  it('lets a writer open /updater', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'operator', 'operator', '/updater');
    await page.waitForURL(/#\/updater/);
    await page.getByRole('radiogroup', { name: 'Updater mode' }).or(page.getByLabel('Updater mode')).first().waitFor();
    await page.locator('.ant-layout-sider').getByText('Updater').waitFor();
  });

  it('logs out with the error when the stored token was revoked', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'viewer');
    await page.waitForURL(/#\/account\/list/);
    const token = await page.evaluate(() => localStorage.getItem('fleet.token'));
    // A JWT: header, claims and signature.
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await api('/auth/logout', token!, { method: 'POST' });
    // The error is a toast of 5 s: wait for it from before the reload, so that a slow runner cannot miss it.
    const shown = page.getByText(/revoked|Verification failed, please login again/).first().waitFor();
    await page.reload();
    await page.waitForURL(/#\/login/);
    await shown;
  });

  it("goes on without toasts when the toasts' code cannot load (its file gone with a new deploy)", async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'viewer');
    await page.waitForURL(/#\/account\/list/);
    const token = await page.evaluate(() => localStorage.getItem('fleet.token'));
    await api('/auth/logout', token!, { method: 'POST' });
    await page.route(/\/assets\/ToastHolder-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const logged = page.waitForEvent('console', (m) => m.type() === 'error' && m.text().includes("The toasts' code did not load"));
    // The revoked token's error would be a toast: with its code missing, the sign-out still happens and the form works.
    await page.reload();
    await page.waitForURL(/#\/login/);
    await logged;
    await page.getByLabel('Username').fill('viewer');
    await page.getByLabel('Password').fill('viewer');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/#\/account\/list/);
    expect(await page.locator('.ant-message-notice').count()).toBe(0);
  });

  it('treats an expired stored token as signed out', async () => {
    const { page } = await openPage();
    await page.goto('/#/login');
    const header = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60, name: 'x' })).toString('base64url');
    await page.evaluate((t) => localStorage.setItem('fleet.token', t), `${header}.${payload}.sig`);
    await page.goto('/#/activity');
    await page.waitForURL(/#\/login\?redirect=/);
  });

  it('Log Out revokes the token and reloads to the login page', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'operator');
    const token = await page.evaluate(() => localStorage.getItem('fleet.token'));
    await page.getByRole('button', { name: /Oscar Operator/ }).click();
    // Log Out reloads the page: wait for that load, registered before the click.
    const reloaded = page.waitForEvent('load');
    await page.getByText('Log Out').click();
    await reloaded;
    await page.waitForURL(/#\/login/);
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('fleet.token'))).toBeNull();
    const res = await fetch(new URL('/api/v1/user/me', page.url()), { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });
});

describe('Account Settings', () => {
  it('shows the user with roles, permissions and groups', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'admin');
    await page.getByRole('button', { name: /Ada Admin/ }).click();
    await page.getByText('Account Settings').click();
    await page.waitForURL(/#\/account-settings/);
    const main = page.locator('.ant-layout-content');
    const row = (label: string) => main.locator('tr').filter({ has: page.locator('th', { hasText: label }) });
    await main.getByText('admin@fleet.example').waitFor();
    await row('Roles').getByText('admin', { exact: true }).waitFor();
    await row('Permissions').getByText('write', { exact: true }).waitFor();
    await row('Groups').getByText('CustomerProductionAccess').waitFor();

    // An operator's role, named from the permission write without the group.
    const operator = await openPage();
    await signInWithForm(operator.page, 'operator', 'operator', '/account-settings');
    const roles = operator.page.locator('.ant-layout-content tr').filter({ has: operator.page.locator('th', { hasText: 'Roles' }) });
    await roles.getByText('operator', { exact: true }).waitFor();
    expect(await roles.locator('.ant-tag').allInnerTexts()).toEqual(['operator']);
  });

  it('changes the password: the old one stops working, the new one works', async () => {
    const { page } = await openPage();
    await signInWithForm(page, 'pat', 'pat-password-1', '/account-settings');
    await page.waitForURL(/#\/account-settings/);
    await page.getByLabel('Current password').fill('wrong-one');
    await page.getByLabel('New password', { exact: true }).fill('pat-password-2');
    await page.getByLabel(/Confirm/).fill('pat-password-2');
    await page.getByRole('button', { name: /Change password/i }).click();
    await page.getByText('The current password is wrong').first().waitFor();
    await page.getByLabel('Current password').fill('pat-password-1');
    await page.getByRole('button', { name: /Change password/i }).click();
    await page.getByText('Password changed').waitFor();
    await apiToken('pat', 'pat-password-2');
    await expect(apiToken('pat', 'pat-password-1')).rejects.toThrow('401');
  });
});
