/**
 * Helpers of the viewers' specs (spec 2 §2.5–2.10; issue 24 point 7:
 * `viewers.spec.ts`, `issues.spec.ts`, `issues-filters.spec.ts`,
 * `request-statistics.spec.ts`): the query string of the console's hash URL,
 * the answers the page got from a list call (to check the rows against what
 * the server answered the page: other spec files change the fleet on the same
 * server), and typing a time range into a viewer's range picker.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { localDateTime } from './browser.js';

/** The query string of the page's hash route (`#/viewer/states?class=2` → `class=2`). */
export const hashParams = (page: Page) => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');

/** One successful answer of a list call: the URL asked (its query) and the body. */
export interface Answer<T> {
  url: URL;
  body(): Promise<T>;
}

/** Records, in order, the successful answers the page gets from `GET /api/v1{path}` (e.g. `/issues`). */
export function recordAnswers<T>(page: Page, path: string): Answer<T>[] {
  const answers: Answer<T>[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname === `/api/v1${path}` && res.request().method() === 'GET' && res.ok()) answers.push({ url, body: () => res.json() as Promise<T> });
  });
  return answers;
}

/** The whole minute at or before `ms` (epoch ms), as ISO 8601: what a range picker of minutes writes for it. */
export const wholeMinute = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();

/** Types both ends of the range picker whose inputs have the placeholders `from` and `to` (each ISO 8601), each confirmed with Enter. */
export async function fillTimeRange(scope: Locator, placeholders: [from: string, to: string], range: [from: string, to: string]) {
  for (const [n, placeholder] of placeholders.entries()) {
    const input = scope.getByPlaceholder(placeholder, { exact: true });
    await input.click();
    await input.fill(localDateTime(range[n]!));
    await input.press('Enter');
  }
}

/**
 * Clicks the sortable column header `title` twice: the first click sorts by
 * `sort` newest first (`order=desc` in the URL, the header descending), the
 * second oldest first (`order=asc`).
 */
export async function sortNewestThenOldest(page: Page, title: string, sort: string) {
  const header = page.locator('.ant-table-thead th', { hasText: title });
  await header.click();
  await page.waitForURL(() => hashParams(page).get('sort') === sort && hashParams(page).get('order') === 'desc');
  await page.locator('.ant-table-thead th[aria-sort="descending"]', { hasText: title }).waitFor();
  await header.click();
  await page.waitForURL(() => hashParams(page).get('sort') === sort && hashParams(page).get('order') === 'asc');
}

/** Reloads the page and waits until it has had a new answer of the list call `answers` records ({@link recordAnswers}). */
export async function reloadForAnswer(page: Page, answers: Answer<unknown>[], timeout = 30_000) {
  const before = answers.length;
  await page.reload();
  await expect.poll(() => answers.length, { timeout }).toBeGreaterThan(before);
}
