/**
 * Browser helpers of the e2e specs: one Chromium per spec file, a fresh context
 * per test, and sign-in through the real login form.
 */
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

export async function launchBrowser(): Promise<Browser> {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
}

export async function newPage(browser: Browser, opts: { width?: number; height?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  return { context, page };
}

/** Opens `/#/login`, signs in through the form and waits to leave the login page. */
export async function signIn(page: Page, username: string, password = username, path = '/') {
  await page.goto(`/#/login${path === '/' ? '' : `?redirect=${encodeURIComponent(path)}`}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /sign in|log in/i }).click();
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
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
  const res = await fetch(`${baseUrl()}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
