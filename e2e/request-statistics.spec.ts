/**
 * The Request Statistics viewer (spec 2 §2.1, §2.10, §9; DESIGN §14; issue 11)
 * in Chromium against the real server, whose worker probes every running
 * machine every 10 s (global-setup): 10 rows a page with the server's total,
 * paging with the page in the URL, the `machine` parameter selecting a machine
 * (kept in the URL when the selector changes, and on reload), as admin and as
 * operator, who does not see Customer Production machines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type TRequestStatistic, type TRequestStatisticsPage } from '@fleet/contracts';
import { adminToken, api, apiToken, browser, lookupMachines, openDropdown, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

const LIVE_TIMEOUT = 60_000;

let operatorToken: string;
/** Every probed URL as admin sees them, once every running machine has been probed. */
let all: TRequestStatistic[];

useBrowserAndAdmin();
beforeAll(async () => {
  operatorToken = await apiToken('operator');
  // Wait for a whole interval of probes: the total stops growing (expect.poll works only inside a test).
  const deadline = Date.now() + LIVE_TIMEOUT;
  for (let last = -1; ; ) {
    const n = (await api<TRequestStatisticsPage>('/request-statistics?limit=1', adminToken)).totalItems;
    if (n > 20 && n === last) break;
    if (Date.now() > deadline) throw new Error(`request statistics did not settle (${n} URLs)`);
    last = n;
    await new Promise((r) => setTimeout(r, 6000));
  }
  all = (await api<TRequestStatisticsPage>('/request-statistics?limit=300', adminToken)).items;
}, LIVE_TIMEOUT + 30_000);
const openPage = pagesPerTest(() => browser);

/** The pager's text for the first page as the server counts it for that user ("at least" when capped). */
async function totalText(bearer: string): Promise<string> {
  const first = await api<TRequestStatisticsPage>('/request-statistics?limit=10', bearer);
  return `1-10 of ${first.totalCapped ? 'at least ' : ''}${first.totalItems} URLs`;
}
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
/** The machine names of the shown rows (first column). */
const machineNames = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(1)').allInnerTexts();

describe('Request Statistics viewer', () => {
  it('shows admin 10 rows a page with the columns of the spec, pages on the server with the page in the URL', async () => {
    const { page } = await openPage();
    const requests: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/v1/request-statistics') requests.push(url);
    });
    await signIn(page, 'admin', 'admin', '/viewer/request-statistics');
    await expect.poll(() => rows(page).count(), { timeout: LIVE_TIMEOUT }).toBe(10);
    const headers = await page.locator('.ant-table-thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual([
      'Machine',
      'Url',
      'Last Update',
      'Last Latency',
      'Last Success',
      'Avg Week',
      'Avg Day',
      'Avg Hour',
      'Success Week',
      'Success Day',
      'Success Hour',
    ]);
    await page.getByText(await totalText(adminToken)).waitFor();
    expect(await machineNames(page)).toEqual(all.slice(0, 10).map((s) => s.machineName));
    const firstUrl = await rows(page).first().locator('td:nth-child(2)').innerText();
    expect(firstUrl).toBe(all[0]!.url);
    expect(await rows(page).first().locator('td:nth-child(4)').innerText()).toMatch(/^(\d+\.\d ms|—)$/);

    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL((url) => url.hash.includes('page=2'));
    await expect.poll(() => machineNames(page)).toEqual(all.slice(10, 20).map((s) => s.machineName));
    expect(Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ startIndex: '10', limit: '10' });
    // Reloading keeps the page.
    await page.reload();
    await expect.poll(() => machineNames(page), { timeout: LIVE_TIMEOUT }).toEqual(all.slice(10, 20).map((s) => s.machineName));
  }, 180_000);

  it('selects the machine of the URL, and keeps a machine chosen in the selector in the URL', async () => {
    const lookup = await lookupMachines(all.map((s) => s.machineId), adminToken);
    const cp = lookup.find((m) => all.some((s) => s.machineId === m.id) && m.className === 'Customer Production');
    expect(cp, 'a probed Customer Production machine').toMatchObject({ className: 'Customer Production' });
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/viewer/request-statistics?machine=${cp!.id}`);
    const expected = all.filter((s) => s.machineId === cp!.id);
    await expect.poll(() => rows(page).count(), { timeout: LIVE_TIMEOUT }).toBe(expected.length);
    expect(new Set(await machineNames(page))).toEqual(new Set([cp!.name]));
    expect(await page.locator('.ant-select', { has: page.getByLabel('Machine') }).innerText()).toContain(cp!.name);

    const other = lookup.find((m) => m.id !== cp!.id && all.some((s) => s.machineId === m.id))!;
    // The list of machines is long (virtual): type to filter it, then choose.
    await page.locator('.ant-select', { has: page.getByLabel('Machine') }).click();
    await page.keyboard.type(other.name);
    await openDropdown(page).locator('.ant-select-item-option').filter({ hasText: `${other.name} (${other.className})` }).first().click();
    await page.waitForURL((url) => url.hash.includes(`machine=${other.id}`));
    await expect.poll(() => machineNames(page)).toEqual(all.filter((s) => s.machineId === other.id).map((s) => s.machineName));
  }, 120_000);

  it('shows the operator no Customer Production machine: a smaller total, and an empty list for such a machine in the URL', async () => {
    const cpIds = new Set(
      (await lookupMachines(all.map((s) => s.machineId), adminToken)).filter((m) => m.className === 'Customer Production').map((m) => m.id),
    );
    const cpStat = all.find((s) => cpIds.has(s.machineId))!;
    // Counted exactly (the count stops 100 rows past the page asked).
    const exact = async (bearer: string) => (await api<TRequestStatisticsPage>('/request-statistics?limit=300&startIndex=300', bearer)).totalItems;
    expect(await exact(operatorToken)).toBeLessThan(await exact(adminToken));
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', '/viewer/request-statistics');
    await expect.poll(() => rows(page).count(), { timeout: LIVE_TIMEOUT }).toBe(10);
    await page.getByText(await totalText(operatorToken)).waitFor();
    // Walk the operator's pages through the API: none of them is a Customer Production machine.
    const seen = (await api<TRequestStatisticsPage>('/request-statistics?limit=300', operatorToken)).items;
    expect(seen.some((s) => cpIds.has(s.machineId))).toBe(false);

    await page.goto(`/#/viewer/request-statistics?machine=${cpStat.machineId}`);
    await page.getByText('No request statistics').waitFor({ timeout: LIVE_TIMEOUT });
    expect(await rows(page).count()).toBe(0);
  }, 120_000);
});
