/**
 * Browser helpers of the e2e specs: one Chromium per spec file, a fresh context
 * per test, and sign-in through the real login form.
 */
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

/**
 * Flags of @sparticuz/chromium that suit AWS Lambda but not a test run:
 * `--single-process` kills the browser with its first closed context, and the
 * web-security switches would hide what a real browser refuses.
 */
const UNSUITED_FLAGS = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content']);
/** This machine has no network beyond the npm registry; keep Chromium from trying. */
const OFFLINE_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export async function launchBrowser(): Promise<Browser> {
  const args = [...chromium.args.filter((a) => !UNSUITED_FLAGS.has(a)), ...OFFLINE_FLAGS];
  return playwright.launch({ executablePath: await chromium.executablePath(), args, headless: true });
}

export async function newPage(browser: Browser, opts: { width?: number; height?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    acceptDownloads: true,
  });
  // Well under the test timeout, so that a stuck step names itself.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Opens `/#/login` (with `path` as its redirect), signs in through the form and
 * waits until the console has landed on `path` (or the accounts list for `/`).
 */
export async function signIn(page: Page, username: string, password = username, path = '/') {
  await page.goto(`/#/login${path === '/' ? '' : `?redirect=${encodeURIComponent(path)}`}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /sign in|log in/i }).click();
  const landing = `#${path === '/' ? '/account/list' : path.split('?')[0]}`;
  await page.waitForURL((url) => url.hash.startsWith(landing));
}

/** A bearer token for API calls made by a test beside the browser. */
export async function apiToken(username: string, password = username): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { accessToken: { token: string } }).accessToken.token;
}

export async function api<T>(path: string, token: string, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl()}/api/v1${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Chooses `option` in an antd Select: opens it and clicks the first option of
 * its own dropdown containing that text (or, with `exact`, whose text is exactly
 * it). The dropdown is found by the listbox the combobox controls, so that
 * another select's dropdown still fading out is never used.
 */
export async function chooseOption(page: Page, select: Locator, option: string, opts: { exact?: boolean } = {}) {
  await select.click();
  const input = (await select.getAttribute('role')) === 'combobox' ? select : select.getByRole('combobox').first();
  const listId = await input.getAttribute('aria-controls');
  const dropdown = listId
    ? page.locator('.ant-select-dropdown', { has: page.locator(`[id="${listId}"]`) })
    : page.locator('.ant-select-dropdown:visible');
  const options = dropdown.locator('.ant-select-item-option');
  await (opts.exact ? options.getByText(option, { exact: true }) : options.filter({ hasText: option })).first().click();
}
