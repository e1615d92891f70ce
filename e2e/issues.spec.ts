/**
 * The Issue viewer (spec 2 §2.1, §2.5, §4, §5, §8, §9; DESIGN §14) in Chromium
 * against the real server on the demo seed (its issues, and those the worker's
 * site server status check raises): admin and operator (no Customer Production
 * machine's issue), server paging with the page in the URL, the machine link
 * and tag click filters kept in the URL, the tag filter rules, resolving an
 * issue, the switch put back when the update fails, and the logs drawer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TIssue, TIssueLogsPage, TIssuesPage } from '@fleet/contracts';
import { adminToken, api, apiToken, browser, lookupMachines, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

let operatorToken: string;
useBrowserAndAdmin();
beforeAll(async () => {
  operatorToken = await apiToken('operator');
});
const openPage = pagesPerTest(() => browser);

const issuesPage = (token: string, query: string) => api<TIssuesPage>(`/issues?${query}`, token);
const rows = (page: Page) => page.locator('.issues-table .ant-table-tbody tr.ant-table-row');
/** The machine names of the shown rows (third column). */
const shownMachines = (page: Page) => page.locator('.issues-table .ant-table-tbody tr.ant-table-row td:nth-child(3)').allInnerTexts();
const tagButton = (page: Page) => page.getByRole('button', { name: /^Tags/ });

/** Requests of the page to `GET /api/v1/issues`, as URLs. */
function watchIssueRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/api/v1/issues' && req.method() === 'GET') seen.push(url);
  });
  return seen;
}

describe('Issue viewer', () => {
  it('pages on the server for admin, 10 a page, the page in the URL; the operator sees no Customer Production machine', async () => {
    const { page } = await openPage();
    const requests = watchIssueRequests(page);
    await signIn(page, 'admin', 'admin', '/viewer/issues');
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(10);
    const adminTotal = (await issuesPage(adminToken, 'limit=1')).totalItems;
    expect(adminTotal).toBeGreaterThan(10);
    await page.getByText(new RegExp(`^1-10 of ${adminTotal} issues$`)).waitFor();
    expect(Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ startIndex: '0', limit: '10' });

    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL((url) => url.hash.includes('page=2'));
    await expect.poll(() => Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ startIndex: '10', limit: '10' });
    await expect.poll(() => rows(page).count()).toBe(Math.min(10, adminTotal - 10));
    // Reloading keeps the page.
    await page.reload();
    await expect.poll(() => Object.fromEntries(requests.at(-1)!.searchParams), { timeout: 30_000 }).toMatchObject({ startIndex: '10' });

    // The operator: Customer Production machines' issues are not listed (the demo seed has one).
    const adminOperationIssues = (await issuesPage(adminToken, 'tags=operation&limit=100')).items;
    const issueMachines = adminOperationIssues.map((i) => i.machineId);
    const operatorMachines = new Set((await lookupMachines(issueMachines, operatorToken)).map((m) => m.id));
    const hiddenIssue = adminOperationIssues.find((i) => !operatorMachines.has(i.machineId));
    expect(hiddenIssue, 'the demo seed has an issue of a Customer Production machine').toBeDefined();
    const operatorTotal = (await issuesPage(operatorToken, 'limit=1')).totalItems;
    expect(operatorTotal).toBeLessThan(adminTotal);

    const { page: operator } = await openPage();
    await signIn(operator, 'operator', 'operator', '/viewer/issues?tags=operation');
    await expect.poll(() => rows(operator).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const visible = (await issuesPage(operatorToken, 'tags=operation&limit=10')).items;
    await expect.poll(() => shownMachines(operator)).toEqual(visible.map((i) => i.machineName));
    expect(await shownMachines(operator)).not.toContain(hiddenIssue!.machineName);
    // Even asked for by URL, the hidden machine's issues do not show.
    await operator.goto(`/#/viewer/issues?machine=${hiddenIssue!.machineId}`);
    await operator.getByText('No issues').waitFor({ timeout: 30_000 });
  });

  it('filters by the machine link and by a tag click, both kept in the URL', async () => {
    const { page } = await openPage();
    const requests = watchIssueRequests(page);
    await signIn(page, 'admin', 'admin', '/viewer/issues?tags=operation');
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const first: TIssue = (await issuesPage(adminToken, 'tags=operation&limit=1')).items[0]!;
    await page.getByRole('button', { name: `Filter by machine ${first.machineName}` }).first().click();
    await page.waitForURL((url) => url.hash.includes(`machine=${first.machineId}`) && url.hash.includes('tags=operation'));
    await expect.poll(() => Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ machineId: String(first.machineId), tags: 'operation' });
    await expect.poll(async () => new Set(await shownMachines(page))).toEqual(new Set([first.machineName]));
    // The machine selector shows the machine.
    expect(await page.locator('.ant-select', { has: page.getByLabel('Machine') }).innerText()).toContain(first.machineName);

    // A tag click adds the tag to the filter.
    const other = first.tags.find((t) => t !== 'operation')!;
    await page.getByRole('button', { name: `Filter by tag ${other}` }).first().click();
    await page.waitForURL((url) => url.hash.includes(`tags=operation%2C${encodeURIComponent(other)}`) || url.hash.includes(`tags=operation,${other}`));
    await expect.poll(() => requests.at(-1)!.searchParams.get('tags')).toBe(`operation,${other}`);
    await tagButton(page).getByText('Tags (2)').waitFor();
    await page.reload();
    await tagButton(page).getByText('Tags (2)').waitFor({ timeout: 30_000 });
    await expect.poll(async () => new Set(await shownMachines(page)), { timeout: 30_000 }).toEqual(new Set([first.machineName]));

    // Clearing the machine selector drops the machine filter only.
    await page.locator('.ant-select', { has: page.getByLabel('Machine') }).hover();
    await page.locator('.ant-select-clear').click();
    await page.waitForURL((url) => !url.hash.includes('machine='));
    await expect.poll(() => requests.at(-1)!.searchParams.has('machineId')).toBe(false);
  });

  it('the tag filter adds on Enter or blur, trims, ignores blank and duplicate tags, removes one and clears all', async () => {
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', '/viewer/issues');
    await tagButton(page).click();
    const input = page.getByLabel('Add tag');
    await input.fill('  operation  ');
    await input.press('Enter');
    await page.waitForURL((url) => url.hash.includes('tags=operation'));
    await tagButton(page).getByText('Tags (1)').waitFor();
    for (const ignored of ['operation', '   ', '']) {
      await input.fill(ignored);
      await input.press('Enter');
    }
    await tagButton(page).getByText('Tags (1)').waitFor();
    // Blur adds too.
    await input.fill('Backup');
    await page.locator('.ant-popover-title').click();
    await tagButton(page).getByText('Tags (2)').waitFor();
    await page.waitForURL((url) => url.hash.includes('tags=operation%2CBackup') || url.hash.includes('tags=operation,Backup'));
    const both = (await issuesPage(operatorToken, 'tags=operation,Backup&limit=10')).items;
    await expect.poll(() => shownMachines(page), { timeout: 30_000 }).toEqual(both.map((i) => i.machineName));

    await page.getByLabel('Remove tag operation').click();
    await tagButton(page).getByText('Tags (1)').waitFor();
    await page.waitForURL((url) => url.hash.includes('tags=Backup') && !url.hash.includes('operation'));
    await page.getByRole('button', { name: 'Clear all' }).click();
    await tagButton(page).getByText(/^Tags$/).waitFor();
    await page.waitForURL((url) => !url.hash.includes('tags='));
  });

  it('resolves an issue with the switch; a failed update puts the switch back after 500 ms with the error toast', async () => {
    const { page } = await openPage();
    // The seeded probe issue: nothing raises it again while the test runs.
    const [probe] = (await issuesPage(operatorToken, 'tags=probe&limit=1')).items;
    expect(probe).toMatchObject({ tags: expect.arrayContaining(['probe']) });
    await signIn(page, 'operator', 'operator', `/viewer/issues?machine=${probe!.machineId}&tags=probe`);
    const toggle = page.getByRole('switch', { name: `Resolved: ${probe!.description}` });
    await toggle.waitFor({ timeout: 30_000 });
    expect(await toggle.getAttribute('aria-checked')).toBe(String(probe!.isResolved));

    await toggle.click();
    await page.getByText('Issue updated').waitFor();
    await expect.poll(async () => (await issuesPage(operatorToken, `machineId=${probe!.machineId}&tags=probe`)).items[0]!.isResolved).toBe(!probe!.isResolved);
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(String(!probe!.isResolved));

    // The server refuses the next update: the switch flips, then goes back.
    await page.route('**/api/v1/issues/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }) })
        : route.continue(),
    );
    await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe(String(probe!.isResolved));
    await page.getByText('Error occurred updating issue').waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 5_000 }).toBe(String(!probe!.isResolved));
    expect((await issuesPage(operatorToken, `machineId=${probe!.machineId}&tags=probe`)).items[0]!.isResolved).toBe(!probe!.isResolved);
    await page.unroute('**/api/v1/issues/*');

    // Put back as it was.
    await toggle.click();
    await expect.poll(async () => (await issuesPage(operatorToken, `machineId=${probe!.machineId}&tags=probe`)).items[0]!.isResolved).toBe(probe!.isResolved);

    // The viewer may not resolve.
    const { page: viewer } = await openPage();
    await signIn(viewer, 'viewer', 'viewer', `/viewer/issues?machine=${probe!.machineId}&tags=probe`);
    const readOnly = viewer.getByRole('switch', { name: `Resolved: ${probe!.description}` });
    await readOnly.waitFor({ timeout: 30_000 });
    expect(await readOnly.isDisabled()).toBe(true);
  });

  it('a row opens the logs drawer: timestamp, content, tags, size and Complete', async () => {
    const { page } = await openPage();
    // A seeded operation issue with more than one occurrence, else the first.
    const operationIssues = (await issuesPage(adminToken, 'tags=operation&limit=100')).items;
    const issue = operationIssues.find((i) => i.logCount > 1) ?? operationIssues[0]!;
    const logs = await api<TIssueLogsPage>(`/issues/${issue.id}/logs?limit=10`, adminToken);
    await signIn(page, 'admin', 'admin', `/viewer/issues?machine=${issue.machineId}&tags=operation`);
    const row = rows(page).filter({ hasText: issue.description });
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.first().locator('td').last().innerText()).toBe(String(issue.logCount));
    await row.first().getByText(issue.description).click();
    const drawer = page.locator('.ant-drawer', { hasText: `Logs: ${issue.description}` });
    await drawer.waitFor();
    const logRows = drawer.locator('.ant-table-tbody tr.ant-table-row');
    await expect.poll(() => logRows.count()).toBe(logs.items.length);
    const headers = await drawer.locator('.ant-table-thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual(['Timestamp', 'Content', 'Tags', 'Size', 'Complete']);
    const first = logRows.first();
    const cells = await first.locator('td').allInnerTexts();
    expect(cells[1]!.trim()).toBe(logs.items[0]!.content.trim());
    expect(cells[3]).toBe(String(logs.items[0]!.size));
    expect(cells[4]).toBe(logs.items[0]!.complete ? 'Yes' : 'No');
    for (const tag of logs.items[0]!.tags) expect(cells[2]).toContain(tag);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('shows an error alert when the list fails, and Refresh loads it again', async () => {
    const { page } = await openPage();
    await page.route('**/api/v1/issues?**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'Issues are resting' }) }),
    );
    await signIn(page, 'operator', 'operator', '/viewer/issues');
    await page.getByRole('alert').filter({ hasText: 'Issues are resting' }).waitFor({ timeout: 30_000 });
    await page.unroute('**/api/v1/issues?**');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(10);
    expect(await page.getByRole('alert').filter({ hasText: 'Issues are resting' }).count()).toBe(0);
  });
});
