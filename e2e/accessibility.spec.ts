/**
 * axe on every built screen (issue 9 §7): login, accounts list, create account,
 * edit account with every card open and each tab, the machines panel with each
 * of its dialogs (row menu, Create Machine, Notification, the tasks drawer),
 * Manage Templates, the activity log, and each viewer of /viewer (Issues,
 * Operations, Machines, States, Cloud Instances, Request Statistics; issue 11).
 * No serious or critical violation may be found; `expectAccessible` prints each one found with its elements.
 *
 * The machine whose dialogs are opened belongs to an account made for this file
 * through the API; nothing is saved (each dialog is closed with Escape).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TListMachinesResponse, TMachine } from '@fleet/contracts';
import { api, apiToken, createAccount, expectAccessible, launchBrowser, NO_SOFTWARE, pagesPerTest, signIn } from './browser.js';

/** Longest wait for the simulated cloud to launch the new account's machine. */
const LIVE_TIMEOUT = 60_000;
/** A test that signs in and checks many screens or dialogs, on a busy 2-core runner. */
const LONG = 180_000;

let browser: Browser;
let adminToken: string;
beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await apiToken('admin');
});
afterAll(() => browser.close());

const openPage = pagesPerTest(() => browser);

/** Waits until nothing on the page is loading (spinners, skeletons). */
const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]'), undefined, { timeout: 20_000 });

/**
 * Checks the one dialog (or drawer) open now, then closes it with Escape. The
 * page behind it was checked on its own: axe looks at the dialog only.
 */
async function checkDialog(page: Page, screen: string) {
  const dialog = page.getByRole('dialog');
  await dialog.first().waitFor();
  await settled(page);
  await expectAccessible(page, screen, { within: '[role="dialog"]' });
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
}

/** A new account's machine, once it runs and no task of it is unfinished (made once for the file). */
let made: Promise<TMachine> | undefined;
const runningMachine = () => (made ??= makeRunningMachine());

async function makeRunningMachine(): Promise<TMachine> {
  const accountId = await createAccount(adminToken, 'Accessibility', { machineConfig: NO_SOFTWARE });
  const deadline = Date.now() + LIVE_TIMEOUT;
  for (;;) {
    const [machine] = (await api<TListMachinesResponse>(`/accounts/${accountId}/machines`, adminToken)).items;
    const idle = machine && !machine.tasks.some((t) => t.status === 'New' || t.status === 'Running');
    if (machine && idle && machine.instance?.status === 'running') return machine;
    if (Date.now() > deadline) throw new Error('the new machine did not come up');
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('accessibility (axe: no serious or critical violation)', () => {
  it('login page, accounts list, create account and activity log', { timeout: LONG }, async () => {
    const { page } = await openPage();
    await page.goto('/#/login');
    await page.getByLabel('Username').waitFor();
    await expectAccessible(page, 'login');

    await signIn(page, 'admin');
    await page.locator('.ant-table-tbody tr[data-row-key]').first().waitFor();
    await settled(page);
    await expectAccessible(page, 'accounts list');

    await page.goto('/#/account/new');
    await page.getByRole('region', { name: 'License Settings' }).waitFor();
    await settled(page);
    await expectAccessible(page, 'create account');

    await page.goto('/#/activity');
    await page.getByRole('region', { name: 'Activities' }).locator('.ant-timeline-item').first().waitFor();
    await expectAccessible(page, 'activity log');
  });

  it('edit account: every card open, each tab, Manage Templates', { timeout: LONG }, async () => {
    const machine = await runningMachine();
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${machine.accountId}`);
    await page.locator(`.ant-table-tbody tr[data-row-key="${machine.id}"]`).waitFor();
    for (const card of ['Account Properties', 'License Settings', 'Instance Settings', 'Backup Settings', 'Idle Schedule']) {
      await page.getByRole('region', { name: card }).waitFor();
    }
    await settled(page);
    await expectAccessible(page, 'edit account, machines tab');
    await page.getByRole('button', { name: 'Manage Templates' }).click();
    await checkDialog(page, 'Manage Templates');
    for (const tab of ['Sites', 'Services']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel', { name: tab }).locator('.ant-table').waitFor();
      await settled(page);
      await expectAccessible(page, `edit account, ${tab.toLowerCase()} tab`);
    }
  });

  it('machines panel: each dialog of the row menu, Create Machine, Notification', { timeout: LONG }, async () => {
    const machine = await runningMachine();
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${machine.accountId}`);
    const row = page.locator(`.ant-table-tbody tr[data-row-key="${machine.id}"]`);
    await row.waitFor();
    await settled(page);
    const entries = ['Terminate', 'Recreate', 'Reset last operation', 'Change instance type', 'Switch MMA class', 'Component configs', 'Deployer config', 'View credential', 'View tasks'];
    // The operation dialogs of the action table (issue 10).
    entries.push('Queue operations', 'Force backup', 'Restore backup', 'Force populate', 'Reinstall sample data', 'Publish sample data', 'Create AMI', 'Test latest code');
    entries.push('Operation logs', 'Version info', 'Server status');
    for (const entry of entries) {
      await row.getByRole('button', { name: `Actions for ${machine.name}` }).click();
      await page.getByRole('menuitem', { name: entry }).click();
      await checkDialog(page, `machine menu: ${entry}`);
    }
    await page.getByRole('button', { name: 'Create Machine' }).click();
    await checkDialog(page, 'Create Machine');
    await row.getByRole('checkbox', { name: `Select ${machine.name}` }).check();
    await page.getByRole('button', { name: 'Notification' }).click();
    await checkDialog(page, 'Notification');
  });

  it('each viewer: Issues, Operations, Machines, States, Cloud Instances, Request Statistics', { timeout: LONG }, async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/viewer/issues');
    for (const viewer of ['issues', 'operations', 'machines', 'states', 'cloud-instances', 'request-statistics']) {
      await page.goto(`/#/viewer/${viewer}`);
      // Its first page shown (or the empty table, should the demo fleet have none of its rows yet).
      await page.locator('.ant-table-tbody').locator('tr.ant-table-row, .ant-table-placeholder').first().waitFor({ timeout: LIVE_TIMEOUT });
      await settled(page);
      await expectAccessible(page, `viewer: ${viewer}`);
    }
  });
});
