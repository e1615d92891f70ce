/**
 * The Request Statistics viewer (spec 2 §2.1, §2.10, §9; DESIGN §14; issue 11)
 * in Chromium against the real server, whose worker probes every running
 * machine every 10 s (global-setup): 20 rows a page with the server's total,
 * paging with the page in the URL, the `machine` parameter selecting a machine
 * (kept in the URL when the selector changes, and on reload), as admin and as
 * operator, who does not see Customer Production machines; the filters class,
 * last probe and last update, and the sorts by machine name and last update
 * (issue 24 point 7), kept in the URL across a reload.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLASS_CUSTOMER_STAGING, type TRequestStatistic, type TRequestStatisticsPage } from '@fleet/contracts';
import {
  adminToken,
  api,
  apiToken,
  chooseOption,
  localDateTime,
  shownZone,
  lookupMachines,
  openDropdown,
  pagesPerTest,
  selectText,
  signIn,
  useBrowserAndAdmin,
} from './browser.js';
import { fillTimeRange, hashParams, recordAnswers, wholeMinute } from './viewer-fixtures.js';

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
const openPage = pagesPerTest();

/** The pager's text for the first page as the server counts it for that user ("at least" when capped). */
async function totalText(bearer: string): Promise<string> {
  const first = await api<TRequestStatisticsPage>('/request-statistics?limit=20', bearer);
  return `1-20 of ${first.totalCapped ? 'at least ' : ''}${first.totalItems} URLs`;
}
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
/** The machine names of the shown rows (first column). */
const machineNames = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(1)').allInnerTexts();

describe('Request Statistics viewer', () => {
  it('shows admin 20 rows a page with the columns of the spec, pages on the server with the page in the URL', async () => {
    const { page } = await openPage();
    const requests: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/v1/request-statistics') requests.push(url);
    });
    await signIn(page, 'admin', 'admin', '/viewer/request-statistics');
    await expect.poll(() => rows(page).count(), { timeout: LIVE_TIMEOUT }).toBe(20);
    // The figures of the week, the day and the hour under a header naming the figure and its unit.
    const headers = await page.locator('.ant-table-thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual([
      'Machine',
      'Url',
      'Last Update',
      'Last Latency',
      'Last Success',
      'Avg latency (ms)',
      'Success (%)',
      'Week',
      'Day',
      'Hour',
      'Week',
      'Day',
      'Hour',
    ]);
    await page.getByText(await totalText(adminToken)).waitFor();
    expect(await machineNames(page)).toEqual(all.slice(0, 20).map((s) => s.machineName));
    const firstUrl = await rows(page).first().locator('td:nth-child(2)').innerText();
    expect(firstUrl).toBe(all[0]!.url);
    expect(await rows(page).first().locator('td:nth-child(4)').innerText()).toMatch(/^(\d+\.\d ms|—)$/);
    expect(await rows(page).first().locator('td:nth-child(6)').innerText()).toMatch(/^(\d+\.\d|—)$/);

    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL((url) => url.hash.includes('page=2'));
    await expect.poll(() => machineNames(page)).toEqual(all.slice(20, 40).map((s) => s.machineName));
    expect(Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ startIndex: '20', limit: '20' });
    // Reloading keeps the page.
    await page.reload();
    await expect.poll(() => machineNames(page), { timeout: LIVE_TIMEOUT }).toEqual(all.slice(20, 40).map((s) => s.machineName));
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

  it('filters by class, last probe and last update time, sorts by machine name and by last update on the server, all kept in the URL across a reload', async () => {
    const { page } = await openPage();
    // The probes update the rows every 10 s, so the rows are checked against the page the server
    // answered the console, and that page against the filters and the order.
    const answers = recordAnswers<TRequestStatisticsPage>(page, '/request-statistics');
    await signIn(page, 'operator', 'operator', '/viewer/request-statistics');
    await expect.poll(() => rows(page).count(), { timeout: LIVE_TIMEOUT }).toBe(20);
    const card = page.locator('.ant-card');
    await chooseOption(page, card.getByLabel('Class', { exact: true }), 'Customer Staging', { exact: true });
    await page.waitForURL(() => hashParams(page).get('class') === String(CLASS_CUSTOMER_STAGING));
    await chooseOption(page, card.getByLabel('Last probe', { exact: true }), 'Last probe succeeded', { exact: true });
    await page.waitForURL(() => hashParams(page).get('status') === 'success');
    // Probed within the last hour (the minute an hour ago) to an hour from now.
    const from = wholeMinute(Date.now() - 3_600_000);
    const to = wholeMinute(Date.now() + 3_600_000);
    await fillTimeRange(card, ['Last update from', 'Last update to'], [from, to]);
    await page.waitForURL(() => hashParams(page).get('from') === from && hashParams(page).get('to') === to);
    // Machine sorts by name, A to Z first, then Z to A.
    const machine = page.locator('.ant-table-thead th', { hasText: 'Machine' });
    await machine.click();
    await page.waitForURL(() => hashParams(page).get('sort') === 'machine' && hashParams(page).get('order') === 'asc');
    await page.locator('.ant-table-thead th[aria-sort="ascending"]', { hasText: 'Machine' }).waitFor();
    await machine.click();
    await page.waitForURL(() => hashParams(page).get('sort') === 'machine' && hashParams(page).get('order') === 'desc');

    const shownKeys = () => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')));
    const expectRowsOfLastAnswer = async (sort: string, order: string) => {
      await expect.poll(() => Object.fromEntries(answers.at(-1)?.url.searchParams ?? []), { timeout: LIVE_TIMEOUT }).toMatchObject({
        classId: String(CLASS_CUSTOMER_STAGING),
        status: 'success',
        from,
        to,
        sort,
        order,
      });
      const shown = await answers.at(-1)!.body();
      expect(shown.items.length).toBeGreaterThan(0);
      const lookup = new Map((await lookupMachines([...new Set(shown.items.map((s) => s.machineId))], operatorToken)).map((m) => [m.id, m.className]));
      for (const s of shown.items) {
        expect(s.lastSuccess).toBe(true);
        expect(lookup.get(s.machineId)).toBe('Customer Staging');
        expect(s.lastUpdate >= from && s.lastUpdate <= to).toBe(true);
      }
      const keys = sort === 'machine' ? shown.items.map((s) => s.machineName) : shown.items.map((s) => s.lastUpdate);
      expect(keys).toEqual(order === 'asc' ? [...keys].sort() : [...keys].sort().reverse());
      await expect.poll(shownKeys, { timeout: LIVE_TIMEOUT }).toEqual(shown.items.map((s) => `${s.machineId}:${s.kind}`));
    };
    await expectRowsOfLastAnswer('machine', 'desc');

    // Last Update sorts newest first; reloading keeps every filter and the order.
    await page.locator('.ant-table-thead th', { hasText: 'Last Update' }).click();
    await page.waitForURL(() => hashParams(page).get('sort') === 'lastUpdate' && hashParams(page).get('order') === 'desc');
    await expectRowsOfLastAnswer('lastUpdate', 'desc');
    const before = answers.length;
    await page.reload();
    await expect.poll(() => answers.length, { timeout: LIVE_TIMEOUT }).toBeGreaterThan(before);
    await expectRowsOfLastAnswer('lastUpdate', 'desc');
    expect(await page.locator('.ant-table-thead th[aria-sort="descending"]').innerText()).toContain('Last Update');
    expect(await selectText(card, 'Class')).toContain('Customer Staging');
    expect(await selectText(card, 'Last probe')).toContain('Last probe succeeded');
    expect(await card.getByPlaceholder('Last update from', { exact: true }).inputValue()).toBe(`${localDateTime(from)} ${shownZone(from)}`);
  }, 120_000);

  it('shows the operator no Customer Production machine: a smaller total, and an empty list for such a machine in the URL', async () => {
    const cpIds = new Set(
      (await lookupMachines(all.map((s) => s.machineId), adminToken)).filter((m) => m.className === 'Customer Production').map((m) => m.id),
    );
    const cpStat = all.find((s) => cpIds.has(s.machineId))!;
    // Counted exactly (the count stops at the end of the block of 100 rows the page starts in, plus a page).
    const exact = async (bearer: string) => (await api<TRequestStatisticsPage>('/request-statistics?limit=300&startIndex=300', bearer)).totalItems;
    expect(await exact(operatorToken)).toBeLessThan(await exact(adminToken));
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', '/viewer/request-statistics');
    await expect.poll(() => rows(page).count(), { timeout: LIVE_TIMEOUT }).toBe(20);
    await page.getByText(await totalText(operatorToken)).waitFor();
    // Walk the operator's pages through the API: none of them is a Customer Production machine.
    const seen = (await api<TRequestStatisticsPage>('/request-statistics?limit=300', operatorToken)).items;
    expect(seen.some((s) => cpIds.has(s.machineId))).toBe(false);

    await page.goto(`/#/viewer/request-statistics?machine=${cpStat.machineId}`);
    await page.getByText('No request statistics').waitFor({ timeout: LIVE_TIMEOUT });
    expect(await rows(page).count()).toBe(0);
  }, 120_000);
});
