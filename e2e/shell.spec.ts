/**
 * The shell (spec 1 §2 Shell, spec 3 §2.9): sidebar and its cookie, hamburger,
 * breadcrumb, footer, fleet counters, standby banner, mobile layout.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pagesPerTest, signIn, useBrowser } from './browser.js';
import type { TMachineStats } from '@fleet/contracts';
import { ROUTE_SCRIPTS_FILE, type RouteScripts } from '../packages/web/build/route-pages.js';

useBrowser();
const openPage = pagesPerTest();

/** The scripts of `route` in the build the server sends (its list, written by the build: build/route-preload.ts). */
function routeScripts(route: string): RouteScripts['routes'][number] {
  const scripts = JSON.parse(readFileSync(new URL(`../packages/web/dist/${ROUTE_SCRIPTS_FILE}`, import.meta.url), 'utf8')) as RouteScripts;
  const found = scripts.routes.find((r) => r.route === route);
  if (!found) throw new Error(`the build lists no scripts of ${route}`);
  return found;
}

/** Whether `url` is one of `files` (paths from the build's folder, `assets/…`). */
const isOneOf = (files: string[]) => (url: URL) => files.includes(url.pathname.slice(1));

describe('shell', () => {
  it('shows the breadcrumb with Dashboard, the sidebar footer and the entries of the route table', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin');
    await page.waitForURL(/#\/account\/list/);
    const breadcrumb = page.locator('.ant-breadcrumb');
    await breadcrumb.getByText('Dashboard').waitFor();
    await breadcrumb.getByText('List Accounts').waitFor();
    await page.getByText('DotNet5', { exact: true }).waitFor();
    const nav = page.getByRole('navigation');
    for (const entry of ['Accounts', 'Updater', 'Library Manager', 'MMA', 'Viewer', 'Activity Logs', 'Lists']) {
      await nav.getByText(entry, { exact: true }).first().waitFor();
    }
  });

  it('keeps the sidebar state in a cookie across a reload', async () => {
    const { page } = await openPage();
    await signIn(page, 'operator');
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'fleet.sidebar');
    expect(cookie?.value).toBe('0');
    await page.reload();
    await page.getByRole('button', { name: 'Toggle sidebar' }).waitFor();
    expect(await page.getByRole('button', { name: 'Toggle sidebar' }).getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  });

  it('closes the sidebar in the mobile layout (narrower than 1021 px)', async () => {
    const { page } = await openPage({ width: 1000, height: 800 });
    await signIn(page, 'operator');
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // The closed sidebar shows no pop-up of the current group over the page.
    await page.getByRole('region', { name: 'Fleet counters' }).getByText('Experimental:').waitFor();
    await page.getByRole('row').nth(1).waitFor();
    expect(await page.locator('.ant-menu-submenu-popup:not(.ant-menu-submenu-hidden)').count()).toBe(0);
    await expect.poll(() => page.getByRole('link', { name: 'List Accounts' }).isVisible()).toBe(false);
    // Opened, it shows the current group expanded; choosing an entry closes it.
    await toggle.click();
    await page.getByRole('navigation').getByRole('link', { name: 'New Account' }).click();
    await page.waitForURL(/#\/account\/new/);
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await page.setViewportSize({ width: 1021, height: 800 });
  });

  it('keeps a phone header on one line and lets the actions column scroll with the names', async () => {
    const { page } = await openPage({ width: 390, height: 800 });
    await signIn(page, 'admin');
    const breadcrumb = page.locator('.ant-breadcrumb');
    await breadcrumb.getByText('List Accounts').waitFor();
    expect(await breadcrumb.getByText('Dashboard').count()).toBe(0);
    const actions = page.getByRole('columnheader', { name: 'Actions' });
    await actions.waitFor({ state: 'attached' });
    expect(await actions.evaluate((th) => getComputedStyle(th).position)).not.toBe('sticky');
  });

  it('shows the fleet counters per class; Customer Production, counted for everyone, is no link without the group', async () => {
    const { page } = await openPage();
    const answered = page.waitForResponse((r) => r.url().includes('/api/v1/machines/stats') && r.ok());
    await signIn(page, 'operator');
    const stats = (await (await answered).json()) as TMachineStats;
    const counters = page.getByRole('region', { name: 'Fleet counters' });
    await counters.getByText('Experimental:').waitFor();
    const total = (id: number) => stats.classStats.find((c) => c.class.id === id)!.total;
    expect(stats.restricted.classIds).toEqual([5]);
    // The chips refresh every 30 s: compare with what the server answered, while it still shows.
    expect(await counters.textContent()).toContain(`Experimental: ${total(1)}`);
    const cp = counters.getByRole('note', { name: /^Customer Production: \d+ — .*not in group CustomerProductionAccess/ });
    await cp.waitFor();
    expect(await cp.textContent()).toBe(`Customer Production: ${total(5)}`);
    expect(await counters.getByRole('link', { name: /^Customer Production/ }).count()).toBe(0);
    await counters.getByRole('link', { name: /^Experimental: / }).waitFor();

    const admin = await openPage();
    await signIn(admin.page, 'admin');
    await admin.page.getByRole('region', { name: 'Fleet counters' }).getByRole('link', { name: /^Customer Production: \d+/ }).waitFor();
  });

  it('shows the red standby banner linking to /mma', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer');
    const banner = page.getByRole('link', { name: /on standby/ });
    await banner.waitFor();
    await banner.click();
    await page.waitForURL(/#\/mma/);
    await page.locator('.mma-standby-row').first().waitFor();
  });

  it("shows a page with Reload when a page's code fails to load, and the console again after going back", async () => {
    const { page } = await openPage();
    await signIn(page, 'admin');
    await page.locator('.ant-table-row').first().waitFor();
    // The scripts Activity Logs adds to the accounts list fail as a deploy that removed them would (spec 1 §8 ChunkLoadError).
    const loaded = routeScripts('/account/list').scripts;
    const added = routeScripts('/activity').scripts.filter((file) => !loaded.includes(file));
    expect(added.length).toBeGreaterThan(0);
    await page.route(isOneOf(added), (route) => route.fulfill({ status: 404, body: 'Not Found' }));
    await page.getByRole('navigation').getByText('Activity Logs', { exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await alert.waitFor();
    await expect.poll(() => alert.textContent()).toMatch(/dynamically imported module|Importing a module script failed/);
    await alert.getByRole('button', { name: 'Reload' }).waitFor();
    await page.goBack();
    await page.waitForURL(/#\/account\/list/);
    await page.locator('.ant-table-row').first().waitFor();
    expect(await alert.count()).toBe(0);
  });

  it("starts the first screen's reads while the screen's code still loads (issue 26)", async () => {
    const { page } = await openPage();
    await signIn(page, 'admin');
    await page.locator('.ant-table-row').first().waitFor();
    let requested!: () => void;
    const accountsRequested = new Promise<void>((resolve) => (requested = resolve));
    page.on('request', (request) => {
      if (/\/api\/v1\/accounts\?/.test(request.url())) requested();
    });
    // The file that holds the accounts list's page is held until its list has been asked for: without the early read it
    // never would be.
    const held = routeScripts('/account/list').pages.at(-1)!;
    expect(routeScripts('/account/new').scripts).not.toContain(held);
    let holding = false;
    await page.route(isOneOf([held]), async (route) => {
      holding = true;
      await accountsRequested;
      await route.continue().catch(() => undefined);
    });
    await page.reload();
    await page.locator('.ant-table-row').first().waitFor();
    expect(holding).toBe(true);
  });

  it('keeps its loading spinners still for an operator who asks for reduced motion, and spinning otherwise', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/viewer');
    // The accounts list is held until the checks are done, so that its spinner shows.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/v1\/accounts(\?|$)/, async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.goto('/#/account/list');
    await page.locator('.ant-spin-spinning').first().waitFor();
    /** The endless animations running on the page now, by name. */
    const endless = () =>
      page.evaluate(() =>
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations === Infinity)
          .map((a) => (a as CSSAnimation).animationName),
      );
    // newPage emulates prefers-reduced-motion: reduce.
    expect(await endless()).toEqual([]);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(endless).toContain('antRotate');
    release();
    await page.locator('.ant-table-row').first().waitFor();
  });
});
