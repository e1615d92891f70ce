/**
 * Behaviours of the machines panel that no other spec walks through (spec 2
 * §2.2, §2.3, §2.6, §8; issue 24 point 9), in Chromium against the real server
 * and its agent: Reinstall Sample Data's confirmation, Test Latest Code's
 * Missing branches, Operation Logs' Load more, the contents of Version Info and
 * Server Status, an operation's Deployer Log, a row's raw JSON, and Poll
 * update's 30-second reload (driven by Playwright's clock, no real wait).
 * Fixtures in `operations-fixtures.ts` and `machine-panel.ts`.
 *
 * The tests that change a machine create their own account through the API (one
 * AllInOne machine); the read-only ones look at a settled demo machine.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { COMPONENT_LABELS, TASK_HUB_PATH, type TBranch, type TConfigComponent, type TListMachinesResponse, type TMachine, type TOperationListResponse, type TSiteServerStatus, type TVersionState } from '@fleet/contracts';
import { adminToken, api, dropdownsClosed, openDropdown, pagesPerTest, selectText, useBrowserAndAdmin } from './browser.js';
import { machineNow, openMenu, row, statusOf } from './machine-panel.js';
import { finished, LIVE_TIMEOUT, LONG, newMachine, openAccount, operationsOf, queue } from './operations-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

/**
 * A settled demo machine (running, no unfinished task, Experimental or Internal
 * Testing) for which `fits` holds, for the tests that only look.
 */
async function demoMachine(fits: (m: TMachine) => Promise<boolean> = async () => true): Promise<TMachine> {
  const machines = (await api<TListMachinesResponse>('/machines?limit=200', adminToken)).items.filter(
    (m) => (m.classId === 1 || m.classId === 2) && m.instance?.status === 'running' && m.tasks.length === 0,
  );
  for (const m of machines) if (await fits(m)) return m;
  throw new Error('no settled demo machine fits');
}

/** Number of requests the page sent that `matches`, counted from now. */
function countRequests(page: Page, matches: (method: string, url: string) => boolean): () => number {
  let count = 0;
  page.on('request', (req) => {
    if (matches(req.method(), req.url())) count += 1;
  });
  return () => count;
}

describe('Reinstall Sample Data', () => {
  it("asks 'This operation will reset Site Master data…' first: Cancel sends nothing, Continue queues ReinstallSampleData", async () => {
    const machine = await newMachine('Behaviours Sample');
    const { page } = await openPage();
    const patches = countRequests(page, (method, url) => method === 'PATCH' && url.endsWith(`/accounts/${machine.accountId}/machines/${machine.id}`));
    await openAccount(page, 'operator', machine);
    const choice = machine.sampleData === 'Default' ? 'None' : 'Default';

    await openMenu(page, machine, 'Reinstall sample data');
    const dialog = page.getByRole('dialog', { name: 'Reinstall Sample Data' });
    await dialog.getByText(choice, { exact: true }).click();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('This operation will reset Site Master data on this machine. Are you sure to continue?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    // The dialog stays open with the choice, and nothing was asked of the server.
    await dialog.getByRole('button', { name: 'Submit' }).waitFor();
    expect(patches()).toBe(0);
    expect((await operationsOf(machine.id)).some((o) => o.typeName === 'ReinstallSampleData')).toBe(false);

    await dialog.getByRole('button', { name: 'Submit' }).click();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Sample data has been updated for this machine').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(patches()).toBe(1);
    expect((await operationsOf(machine.id)).filter((o) => o.typeName === 'ReinstallSampleData')).toHaveLength(1);
    expect((await machineNow(machine.id)).sampleData).toBe(choice);
  }, LONG);
});

describe('Test Latest Code', () => {
  it('starts on master; a branch whose repository is missing is labelled Missing and cannot be chosen', async () => {
    const branches = await api<TBranch[]>('/software/branches', adminToken);
    const missing = branches.filter((b) => b.repoMissing);
    const present = branches.filter((b) => !b.repoMissing && b.name !== 'master');
    expect(missing.length).toBeGreaterThan(0);
    const machine = await demoMachine();
    const { page } = await openPage();
    await openAccount(page, 'admin', machine);

    await openMenu(page, machine, 'Test latest code');
    const dialog = page.getByRole('dialog', { name: 'Test Latest Code' });
    await dialog.locator('.ant-select').getByText('master', { exact: true }).waitFor();
    await dialog.getByLabel('Branch').click({ force: true });
    const list = openDropdown(page);
    for (const b of missing) {
      const option = list.locator(`.ant-select-item-option[title="${b.name}"]`);
      await option.waitFor();
      expect(await option.innerText()).toBe(`${b.name} Missing`);
      expect(await option.getAttribute('aria-disabled')).toBe('true');
    }
    for (const b of present) {
      const option = list.locator(`.ant-select-item-option[title="${b.name}"]`);
      expect(await option.innerText()).toBe(b.name);
      expect(await option.getAttribute('aria-disabled')).toBe('false');
    }
    // Clicking a Missing branch leaves master chosen.
    await list.locator(`.ant-select-item-option[title="${missing[0]!.name}"]`).click({ force: true });
    await dialog.locator('.ant-modal-title').click();
    await dropdownsClosed(page);
    expect(await selectText(dialog, 'Branch')).toBe('master');
    expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false);
  }, LONG);
});

describe('Operation Logs', () => {
  it('shows the newest 20 operations, and Load more the rest, the count saying how many of how many', async () => {
    const machine = await newMachine('Behaviours Logs');
    // 22 more operations (a queue call takes each type once), each cancelled
    // while queued so that it ends at once; one the agent started first runs to its end.
    for (let i = 0; i < 22; i += 1) {
      const [op] = await queue(machine, ['SmokeTest']);
      expect([200, 204, 409]).toContain(await statusOf(`/machines/${machine.id}/operations/${op!.id}`, 'admin', 'PATCH', { params: 'CANCEL' }));
    }
    await expect
      .poll(async () => (await operationsOf(machine.id)).filter((o) => o.finishTime === null).length, { timeout: LIVE_TIMEOUT, interval: 500 })
      .toBe(0);
    const total = (await api<TOperationListResponse>(`/machines/${machine.id}/operations?limit=1`, adminToken)).totalItems;
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThanOrEqual(40);

    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Operation logs');
    const dialog = page.getByRole('dialog', { name: 'Operation Logs' });
    const rows = dialog.locator('.ant-table-tbody tr[data-row-key]');
    await dialog.getByText(`20 of ${total} operations`).waitFor();
    expect(await rows.count()).toBe(20);
    await dialog.getByRole('button', { name: 'Load more' }).click();
    await dialog.getByText(`${total} of ${total} operations`).waitFor();
    expect(await rows.count()).toBe(total);
    expect(await dialog.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-key'))));
    expect(new Set(shown).size).toBe(total);
  }, LONG);
});

describe('Version Info and Server Status', () => {
  it("show the machine's current version per component and its site server status as the API answers them", async () => {
    let state: TVersionState | undefined;
    const machine = await demoMachine(async (m) => {
      state = await api<TVersionState>(`/machines/${m.id}/state-info`, adminToken);
      return Object.values(state.components).some((v) => v !== null);
    });
    const status = await api<TSiteServerStatus>(`/machines/${machine.id}/site-server-status`, adminToken);
    const { page } = await openPage();
    await openAccount(page, 'admin', machine);

    await openMenu(page, machine, 'Version info');
    const info = page.getByRole('dialog', { name: 'Version Info' });
    const versions = Object.entries(state!.components);
    await info.locator('.ant-table-tbody tr[data-row-key]').first().waitFor();
    expect(await info.locator('.ant-table-tbody tr[data-row-key]').count()).toBe(versions.length);
    for (const [component, version] of versions) {
      const cells = await info.locator(`.ant-table-tbody tr[data-row-key="${component}"] td`).allInnerTexts();
      expect(cells[0]).toBe(COMPONENT_LABELS[component as TConfigComponent] ?? component);
      if (version) expect(cells.slice(1, 3)).toEqual([version.branchName, version.shortHash]);
      else expect(cells.slice(1, 3)).toEqual(['None', 'None']);
    }
    await info.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await info.waitFor({ state: 'hidden' });

    await openMenu(page, machine, 'Server status');
    const dialog = page.getByRole('dialog', { name: 'Server Status' });
    await dialog.locator('.ant-descriptions').waitFor();
    const value = (label: string) => dialog.locator('.ant-descriptions-row').filter({ has: page.getByText(label, { exact: true }) }).locator('.ant-descriptions-item-content').innerText();
    const yesNo = (ok: boolean) => (ok ? 'Yes' : 'No');
    expect(await value('Status')).toBe(status.status);
    expect(await value('Operational')).toBe(yesNo(status.operational));
    expect(await value('Disk space')).toBe(yesNo(status.diskSpaceOk));
    expect(await value('Inter-server communication')).toBe(yesNo(status.interServerCommOk));
    expect(await value('Library import')).toBe(yesNo(status.libraryImportOk));
    expect(await value('Mongo')).toBe(yesNo(status.mongoOk));
    expect(await value('RabbitMQ')).toBe(yesNo(status.rabbitMqOk));
  }, LONG);
});

describe('Deployer Log', () => {
  it("opens a finished operation's deployer log as the API answers it", async () => {
    const machine = await newMachine('Behaviours Log');
    const [smoke] = await queue(machine, ['SmokeTest']);
    const done = await finished(machine.id, smoke!.id);
    expect(done.status).not.toBeNull();
    const log = await api<{ content: string }>(`/operations/${smoke!.id}/deployer-log`, adminToken);
    expect(log.content.trim()).not.toBe('');

    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Operation logs');
    const logs = page.getByRole('dialog', { name: 'Operation Logs' });
    await logs.getByRole('button', { name: `Deployer Log of operation ${smoke!.id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Deployer Log: SmokeTest on ${machine.name}` });
    const text = dialog.getByLabel('Deployer Log', { exact: true });
    await text.waitFor();
    expect((await text.innerText()).trim()).toBe(log.content.trim());
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await logs.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).waitFor();
  }, LONG);
});

describe('Raw JSON of a row', () => {
  it("expanding a machine's row shows its JSON, with its id and name", async () => {
    const machine = await demoMachine();
    const { page } = await openPage();
    await openAccount(page, 'admin', machine);
    expect(await page.locator('pre.machine-json').count()).toBe(0);
    await row(page, machine).getByRole('button', { name: /expand row/i }).click();
    const json = page.locator('pre.machine-json');
    await json.waitFor();
    const shown = JSON.parse(await json.innerText()) as TMachine;
    expect(shown).toMatchObject({ id: machine.id, name: machine.name, accountId: machine.accountId });
    await row(page, machine).getByRole('button', { name: /collapse row/i }).click();
    await json.waitFor({ state: 'hidden' });
  }, LONG);
});

describe('Poll update', () => {
  it('reloads the machine list every 30 s on the edit-account screen while ticked, and not after', async () => {
    const machine = await demoMachine();
    const { page } = await openPage();
    // The push channel stays down: on a fake clock its ping timeout would cut it,
    // and reconnecting reloads the list too. With nothing unfinished on the
    // machine, only Poll update reloads it.
    await page.route(`**${TASK_HUB_PATH}/**`, (route) => route.abort());
    await page.clock.install();
    await openAccount(page, 'admin', machine);
    // Time stands still from here; only runFor moves it.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const listPath = `/api/v1/accounts/${machine.accountId}/machines`;
    const reloads = countRequests(page, (method, url) => method === 'GET' && new URL(url).pathname === listPath);
    /** Every request the page sent before this point has been seen: a request sent now comes after them. */
    const settled = async () => {
      await Promise.all([page.waitForRequest((r) => r.url().endsWith('/api/v1/health')), page.evaluate(() => fetch('/api/v1/health').then(() => undefined))]);
    };

    const poll = page.getByRole('checkbox', { name: 'Poll update' });
    await poll.check();
    await page.clock.runFor(29_000);
    await settled();
    expect(reloads()).toBe(0);
    const reload = () => Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === listPath), page.clock.runFor(1_000)]);
    await reload();
    // The next period counts from that reload's answer (the page has it once settled).
    await settled();
    expect(reloads()).toBe(1);
    await page.clock.runFor(29_000);
    await settled();
    expect(reloads()).toBe(1);
    await reload();
    await settled();
    expect(reloads()).toBe(2);

    await poll.uncheck();
    const before = reloads();
    await page.clock.runFor(120_000);
    await settled();
    expect(reloads()).toBe(before);
    await row(page, machine).waitFor();
  }, LONG);
});
