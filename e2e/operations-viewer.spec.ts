/**
 * The Operations viewer and the trail of an activity in Chromium against the
 * real server and its agent (spec 2 §2.6, §2.11; issue 10 "one trail"; issue
 * 24 point 7): the viewer opened from a machine in a new tab (filter, server
 * paging in the URL, Output), its filters and order kept in the URL across a
 * reload, and the operations and tasks an activity caused, linked from the
 * operation's row. Fixtures in `operations-fixtures.ts` and `machine-panel.ts`.
 *
 * Every test creates its own account through the API (one AllInOne machine),
 * so tests do not depend on each other or on the seed.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ACCOUNT_CLASSES, type TOperation, type TOperationListResponse, type TOperationLog, type TOperationsPage, type TUserActivity } from '@fleet/contracts';
import { adminToken, api, chooseOption, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';
import { openMenu } from './machine-panel.js';
import { finished, LIVE_TIMEOUT, LONG, newMachine, openAccount, operationsOf, queue } from './operations-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

describe('Operations viewer', () => {
  it('opens from a machine in a new tab filtered to it, pages on the server with the page in the URL, and shows Output', async () => {
    const machine = await newMachine('Ops Viewer');
    const queued = [];
    for (let i = 0; i < 7; i++) queued.push(...(await queue(machine, ['SmokeTest', 'ApplyConfig', 'Backup'])));
    expect(queued.length).toBe(21);
    // With what the machine had before (an UpdateSoftware of the desired state, perhaps): more than one page of 20, less than three.
    const total = (await api<TOperationListResponse>(`/operations?machineId=${machine.id}&limit=1`, adminToken)).totalItems;
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThanOrEqual(40);
    const { context, page } = await openPage();
    await openAccount(page, 'viewer', machine);
    const [tab] = await Promise.all([context.waitForEvent('page'), openMenu(page, machine, 'View operations')]);
    await tab!.waitForURL((url) => url.hash.startsWith(`#/viewer/operations?machine=${machine.id}`));
    const requests: URL[] = [];
    tab!.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/v1/operations') requests.push(url);
    });
    const table = tab!.locator('.ant-table-tbody');
    await table.locator('tr.ant-table-row').first().waitFor({ timeout: LIVE_TIMEOUT });
    expect(await tab!.locator('.ant-select', { has: tab!.getByLabel('Machine') }).innerText()).toContain(machine.name);
    await expect.poll(() => table.locator('tr.ant-table-row').count()).toBe(20);
    // The Machine column (third) shows the machine's name over its class.
    const names = await table.locator('tr.ant-table-row td:nth-child(3)').allInnerTexts();
    expect(new Set(names.map((n) => n.split('\n')[0]))).toEqual(new Set([machine.name]));
    await tab!.getByText(`1-20 of ${total} operations`).waitFor();
    // An operation's type shows its description in a tooltip on hover (mounted at the first hover: LazyTooltip).
    const typeLink = table.locator('tr.ant-table-row').first().getByRole('link', { name: /^Operation \d+:/ });
    const shownId = Number(/^Operation (\d+):/.exec((await typeLink.getAttribute('aria-label'))!)![1]);
    const { operationTypeDescription } = await api<TOperation>(`/operations/${shownId}`, adminToken);
    await typeLink.hover();
    await tab!.getByRole('tooltip').getByText(operationTypeDescription, { exact: true }).waitFor();

    await tab!.locator('.ant-pagination-item-2').click();
    await tab!.waitForURL((url) => url.hash.includes('page=2'));
    await expect.poll(() => table.locator('tr.ant-table-row').count()).toBe(total - 20);
    const paged = requests.at(-1)!;
    expect(Object.fromEntries(paged.searchParams)).toMatchObject({ machineId: String(machine.id), startIndex: '20', limit: '20' });

    // The first SmokeTest queued is on page 2 (newest first): once it ends, its Output opens in the log dialog.
    const oldest = queued[0]!;
    await finished(machine.id, oldest.id);
    await tab!.getByRole('button', { name: 'Refresh' }).click();
    const output = tab!.getByRole('button', { name: `Output of operation ${oldest.id}` });
    await output.waitFor({ timeout: LIVE_TIMEOUT });
    await output.click();
    const log = await api<TOperationLog>(`/operations/${oldest.id}/output`, adminToken);
    const dialog = tab!.getByRole('dialog', { name: /^Output: SmokeTest/ });
    const shown = await dialog.getByLabel('Output').innerText();
    expect(shown.trim()).toBe(log.content.trim() === '' ? 'None' : log.content.trim());
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    // A queued operation (no status) has no log buttons.
    expect(await tab!.getByRole('button', { name: `Output of operation ${queued.at(-1)!.id}` }).count()).toBe(0);

    // Reloading the URL keeps machine and page.
    await tab!.reload();
    await expect.poll(() => table.locator('tr.ant-table-row').count(), { timeout: LIVE_TIMEOUT }).toBe(total - 20);

    // A larger page size goes into the URL, back to page 1 with every row.
    await tab!.locator('.ant-pagination-options .ant-select').click();
    await tab!.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '50 / page' }).click();
    await tab!.waitForURL((url) => url.hash.includes('size=50') && !url.hash.includes('page='));
    await expect.poll(() => table.locator('tr.ant-table-row').count()).toBe(total);
  }, LONG);

  it('filters by status, type and class, sorts by start time on the server, and keeps them all across a reload', async () => {
    const machine = await newMachine('Ops Filters');
    const [smoke, apply] = await queue(machine, ['SmokeTest', 'ApplyConfig']);
    const status = (await finished(machine.id, smoke!.id)).status!;
    await finished(machine.id, apply!.id);
    const ownClass = ACCOUNT_CLASSES.find((c) => c.id === machine.classId)!;
    const otherClass = ACCOUNT_CLASSES.find((c) => c.id !== machine.classId)!;
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/viewer/operations?machine=${machine.id}`);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await rows.first().waitFor({ timeout: LIVE_TIMEOUT });

    const card = page.locator('.ant-card');
    await chooseOption(page, card.getByLabel('Operation type', { exact: true }), 'SmokeTest', { exact: true });
    await page.waitForURL((url) => url.hash.includes('type=SmokeTest'));
    await chooseOption(page, card.getByLabel('Status', { exact: true }), status, { exact: true });
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.hash.includes(`status=${status}`));
    await chooseOption(page, card.getByLabel('Class', { exact: true }), ownClass.name, { exact: true });
    await page.waitForURL((url) => url.hash.includes(`class=${ownClass.id}`));
    // The sorted list is asked of the server with every filter (a live refresh may follow it, so the
    // request is awaited rather than read from the last one sent).
    const sortedRequest = page.waitForRequest((req) => {
      const url = new URL(req.url());
      if (url.pathname !== '/api/v1/operations') return false;
      const params = Object.fromEntries(url.searchParams);
      return (
        params.machineId === String(machine.id) &&
        params.type === 'SmokeTest' &&
        params.status === status &&
        params.classId === String(ownClass.id) &&
        params.sort === 'started' &&
        params.order === 'desc'
      );
    }, { timeout: LIVE_TIMEOUT });
    await page.locator('.ant-table-thead th', { hasText: 'Started' }).click();
    await page.waitForURL((url) => url.hash.includes('sort=started') && url.hash.includes('order=desc'));
    await sortedRequest;

    const expected = async () =>
      (await api<TOperationsPage>(`/operations?machineId=${machine.id}&type=SmokeTest&status=${status}&classId=${ownClass.id}&sort=started&order=desc`, adminToken)).items.map((o) => o.id);
    const shown = (p: Page) => p.locator('.ant-table-tbody tr.ant-table-row').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-key'))));
    await expect.poll(() => shown(page), { timeout: LIVE_TIMEOUT }).toEqual(await expected());
    expect(await shown(page)).toEqual([smoke!.id]);

    // Another class leaves nothing; back to the machine's, then a reload keeps every filter and the order.
    const hash = new URL(page.url()).hash;
    await page.goto(`/${hash.replace(`class=${ownClass.id}`, `class=${otherClass.id}`)}`);
    await page.getByText('No operations').waitFor({ timeout: LIVE_TIMEOUT });
    await page.goto(`/${hash}`);
    await page.reload();
    await expect.poll(() => shown(page), { timeout: LIVE_TIMEOUT }).toEqual([smoke!.id]);
    expect(await page.locator('.ant-table-thead th[aria-sort="descending"]').innerText()).toContain('Started');
    expect(await card.locator('.ant-select', { has: page.getByLabel('Class', { exact: true }) }).innerText()).toContain(ownClass.name);
  }, LONG);
});

describe('the trail of an activity', () => {
  it("lists the operations an operator's action caused, linked from the operation's row, and the tasks of an account's creation", async () => {
    const machine = await newMachine('Ops Trail');
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Queue operations');
    const dialog = page.getByRole('dialog', { name: 'Queue Operations' });
    await dialog.getByRole('checkbox', { name: /SmokeTest/ }).check();
    await dialog.getByRole('checkbox', { name: /ApplyConfig/ }).check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Operation queued for machine').waitFor();
    const ops = (await operationsOf(machine.id)).filter((o) => o.user === 'operator');
    expect(ops).toHaveLength(2);
    const activityId = ops[0]!.activityId!;
    expect(ops[1]!.activityId).toBe(activityId);
    await finished(machine.id, Math.max(...ops.map((o) => o.id)));

    // From the Operations viewer, the row's Activity link opens the activity with its trail.
    await page.goto(`/#/viewer/operations?machine=${machine.id}`);
    await page.getByRole('link', { name: `Activity ${activityId}` }).first().click();
    await page.waitForURL((url) => url.hash.includes(`activityId=${activityId}`));
    const detail = page.locator('[aria-label="Activity details"]');
    const trail = detail.locator('[aria-label="Caused by this activity"]');
    await trail.getByText('Operations').waitFor({ timeout: LIVE_TIMEOUT });
    for (const op of ops) {
      const line = trail.locator('tr', { hasText: op.typeName });
      await line.getByText('SUCCESS').waitFor();
    }

    // The account's creation caused the machine's CreateMachine task.
    const [created] = await api<TUserActivity[]>(`/user-activities?accountId=${machine.accountId}&action=CreateAccount`, adminToken);
    await page.goto(`/#/activity?accountId=${machine.accountId}&activityId=${created!.id}`);
    const tasks = page.locator('[aria-label="Caused by this activity"]');
    await tasks.locator('tr', { hasText: 'CreateMachine' }).getByText('Completed').waitFor({ timeout: LIVE_TIMEOUT });
  }, LONG);
});
