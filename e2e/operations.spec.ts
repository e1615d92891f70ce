/**
 * Operations in the console (spec 2 §2.2, §2.3, §2.6, §4, §5, §8; issue 10) in
 * Chromium against the real server and its agent: queue operations from the
 * dialog and watch the status column; a pending operation on a production class
 * approved with Proceed and another cancelled; force backup; the Restore Backup
 * dialog with and without backups; Create Jump-start AMI; the Operations viewer
 * opened from a machine in a new tab (filter, server paging in the URL, Output);
 * what a viewer may not do; and the trail of an activity.
 *
 * Every test that changes a machine creates its own account through the API
 * (one AllInOne machine), so tests do not depend on each other or on the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  CLASS_CUSTOMER_PRODUCTION,
  type TAccountDetail,
  type TBackupFilesResponse,
  type TCreateAccountRequest,
  type TIrmnVersion,
  type TListMachinesResponse,
  type TMachine,
  type TOperation,
  type TOperationListResponse,
  type TOperationLog,
  type TOperationType,
  type TQueuedOperationsResponse,
  type TSaasImage,
  type TTaskListResponse,
  type TUserActivity,
  type TVersionState,
} from '@fleet/contracts';
import { api, apiToken, baseUrl, chooseOption, createAccount, launchBrowser, NO_SOFTWARE, pagesPerTest, signIn } from './browser.js';
import { FAILING_MACHINE_ACCOUNT } from './global-setup.js';

/** Longest wait for a simulated cloud launch or a simulated operation to end. */
const LIVE_TIMEOUT = 90_000;
const LONG = 240_000;

let browser: Browser;
let adminToken: string;
beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await apiToken('admin');
});
afterAll(() => browser.close());
const openPage = pagesPerTest(() => browser);

/** A new AllInOne account (class Experimental unless `classId`) running no software, and its one machine, launched. */
async function newMachine(prefix: string, classId?: number, extra: Partial<TCreateAccountRequest> = {}): Promise<TMachine> {
  const accountId = await createAccount(adminToken, prefix, { machineConfig: NO_SOFTWARE, ...(classId === undefined ? {} : { classId }), ...extra });
  const [machine] = (await api<TListMachinesResponse>(`/accounts/${accountId}/machines`, adminToken)).items;
  if (!machine) throw new Error('create-from-draft made no machine');
  await expect
    .poll(
      async () => (await api<TTaskListResponse>(`/machines/${machine.id}/tasks`, adminToken)).items.find((t) => t.type === 'CreateMachine')?.status,
      { timeout: LIVE_TIMEOUT, interval: 500 },
    )
    .toBe('Completed');
  await quiet(machine);
  return api<TMachine>(`/machines/${machine.id}`, adminToken);
}

/**
 * Cancels what the agent queued by itself for a new machine (the desired-state
 * controller may queue an UpdateSoftware, pending on a production class) and
 * waits until the machine has no unfinished operation, so that each test sees
 * only its own.
 */
async function quiet(machine: { id: number }) {
  for (const op of await operationsOf(machine.id)) {
    if (op.pending) await api(`/machines/${machine.id}/operations/${op.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ params: 'CANCEL' }) });
  }
  await expect
    .poll(async () => (await operationsOf(machine.id)).filter((o) => o.finishTime === null).length, { timeout: LIVE_TIMEOUT, interval: 500 })
    .toBe(0);
}

const operationsOf = async (machineId: number) => (await api<TOperationListResponse>(`/machines/${machineId}/operations?limit=100`, adminToken)).items;
const operationNow = async (machineId: number, id: number) => (await operationsOf(machineId)).find((o) => o.id === id);

/** Waits until the operation has ended, answering it. */
async function finished(machineId: number, id: number): Promise<TOperation> {
  await expect.poll(async () => (await operationNow(machineId, id))?.finishTime ?? null, { timeout: LIVE_TIMEOUT, interval: 500 }).not.toBeNull();
  return (await operationNow(machineId, id))!;
}

async function queue(machine: TMachine, operations: string[]): Promise<TOperation[]> {
  const answer = await api<TQueuedOperationsResponse>(`/machines/${machine.id}/queue-operations`, adminToken, {
    method: 'POST',
    body: JSON.stringify({ operations }),
  });
  return answer.operations;
}

const row = (page: Page, machine: { id: number }) => page.locator(`.ant-table-tbody tr[data-row-key="${machine.id}"]`);
const statusCell = (page: Page, machine: TMachine) => row(page, machine).locator('td').nth(4);

async function openAccount(page: Page, user: string, machine: TMachine) {
  await signIn(page, user, user, `/account/edit/${machine.accountId}`);
  await row(page, machine).waitFor({ timeout: LIVE_TIMEOUT });
}

async function openMenu(page: Page, machine: TMachine, entry: string) {
  await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/** One login per user for the whole file. */
const tokens = new Map<string, Promise<string>>();
const tokenOf = (username: string) => tokens.get(username) ?? tokens.set(username, apiToken(username)).get(username)!;

async function statusOf(path: string, username: string, method: string, body?: unknown): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${await tokenOf(username)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

describe('Queue Operations', () => {
  it('lists only the types that can be manual, queues the ticked ones, and the status column follows them live', async () => {
    const machine = await newMachine('Ops Queue');
    const manual = (await api<TOperationType[]>(`/machines/${machine.id}/operation-types`, adminToken)).filter((t) => t.canBeManual).map((t) => t.name);
    expect(manual).toContain('SmokeTest');
    expect(manual).not.toContain('RestoreBackup');

    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Queue operations');
    const dialog = page.getByRole('dialog', { name: 'Queue Operations' });
    await dialog.getByRole('checkbox').first().waitFor();
    const offered = (await dialog.getByRole('checkbox').locator('xpath=ancestor::label').allInnerTexts()).map((t) => t.split('\n')[0]!.trim());
    expect(offered.sort()).toEqual([...manual].sort());
    // Nothing ticked: Submit waits.
    expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: /SmokeTest/ }).check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Operation queued for machine').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const [smoke] = (await operationsOf(machine.id)).filter((o) => o.typeName === 'SmokeTest');
    expect(smoke).toMatchObject({ user: 'operator', pending: false });
    // Live, without a reload: running, then back to the mode text once it ends.
    await statusCell(page, machine).getByText('Running SmokeTest').waitFor({ timeout: LIVE_TIMEOUT });
    const done = await finished(machine.id, smoke!.id);
    expect(done.status).toBe('SUCCESS');
    await expect.poll(() => statusCell(page, machine).innerText(), { timeout: 15_000 }).not.toContain('SmokeTest');
  }, LONG);

  it('warns first on an unmanaged machine that the operation will not run immediately', async () => {
    const machine = await newMachine('Ops Unmanaged');
    await api(`/accounts/${machine.accountId}/machines/${machine.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ managed: false }) });
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Force backup');
    const warning = page.locator('.ant-modal-confirm');
    await warning.getByText(`Machine ${machine.name} is unmanaged: operations on it wait until it is managed again.`).waitFor();
    await warning.getByRole('button', { name: 'Continue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manual Backup' });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Backup has been forced for this machine').waitFor();
    // Queued, and left alone by the agent while unmanaged.
    await page.waitForTimeout(3000);
    const [backup] = (await operationsOf(machine.id)).filter((o) => o.typeName === 'Backup');
    expect(backup).toMatchObject({ status: null, finishTime: null });
  }, LONG);
});

describe('approvals on a production class', () => {
  it('a pending UpdateSoftware is approved with Proceed; another is cancelled; the row is a warning while one waits', async () => {
    const machine = await newMachine('Ops Approval', CLASS_CUSTOMER_PRODUCTION);
    const { page } = await openPage();
    await openAccount(page, 'admin', machine);

    const [first] = await queue(machine, ['UpdateSoftware']);
    expect(first!.pending).toBe(true);
    const cell = statusCell(page, machine);
    await cell.getByText('Pending UpdateSoftware').waitFor({ timeout: LIVE_TIMEOUT });
    expect(await row(page, machine).getAttribute('class')).toContain('machine-row-warning');
    await cell.getByRole('button', { name: `Proceed UpdateSoftware on ${machine.name}` }).click();
    await page.getByText('Operation has been approved').waitFor();
    await expect.poll(async () => (await operationNow(machine.id, first!.id))?.decision).toBe('PROCEED');
    await expect.poll(async () => (await row(page, machine).getAttribute('class')) ?? '', { timeout: 15_000 }).not.toContain('machine-row-warning');
    expect((await finished(machine.id, first!.id)).status).toBe('SUCCESS');

    const [second] = await queue(machine, ['UpdateSoftware']);
    await cell.getByText('Pending UpdateSoftware').waitFor({ timeout: LIVE_TIMEOUT });
    await cell.getByRole('button', { name: `Cancel UpdateSoftware on ${machine.name}` }).click();
    await page.getByText('Operation has been cancelled').waitFor();
    const cancelled = await finished(machine.id, second!.id);
    expect(cancelled).toMatchObject({ status: 'FAILURE', decision: 'CANCEL', decidedBy: 'admin', startTime: null });
    const output = await api<TOperationLog>(`/operations/${second!.id}/output`, adminToken);
    expect(output.content).toContain('Cancelled by admin');
    await expect.poll(() => cell.innerText(), { timeout: 15_000 }).not.toContain('UpdateSoftware');
  }, LONG);
});

describe('Deploys follow the desired versions', () => {
  it('pushing new versions makes the machine obsolete; the UpdateSoftware the agent queued is approved, runs, and the machine is current again', async () => {
    const machine = await newMachine('Ops Deploy', CLASS_CUSTOMER_PRODUCTION);
    const account = await api<TAccountDetail>(`/accounts/${machine.accountId}`, adminToken);
    const { page } = await openPage({ height: 1200 });
    await openAccount(page, 'admin', machine);

    // Push a deployer that follows master: a newer commit than the one installed.
    const settings = page.getByRole('region', { name: 'Instance Settings' });
    await settings.getByText('Component Versions').waitFor();
    await chooseOption(page, settings.getByLabel('Deployer version mode'), 'Latest');
    await settings.getByRole('button', { name: 'Push Instance Settings' }).click();
    await page.getByRole('dialog', { name: 'Push instance settings?' }).getByRole('button', { name: 'Push' }).click();
    await page.getByText('Instance settings pushed').waitFor();

    // The deploy controller queued an UpdateSoftware, pending on a production class; meanwhile the machine is obsolete.
    const cell = statusCell(page, machine);
    await cell.getByText('Pending UpdateSoftware').waitFor({ timeout: LIVE_TIMEOUT });
    const desired = await api<TVersionState>(`/machines/${machine.id}/states/desired`, adminToken);
    expect((await api<TVersionState>(`/machines/${machine.id}/state-info`, adminToken)).components.deployer).not.toEqual(desired.components.deployer);
    const list = (await openPage()).page;
    await signIn(list, 'admin', 'admin', `/account/list?search=${encodeURIComponent(account.urlFriendlyName)}`);
    const accountRow = list.locator(`.ant-table-tbody tr[data-row-key="${account.id}"]`);
    await accountRow.getByRole('img', { name: 'Obsolete' }).waitFor({ timeout: LIVE_TIMEOUT });

    await cell.getByRole('button', { name: `Proceed UpdateSoftware on ${machine.name}` }).click();
    await page.getByText('Operation has been approved').waitFor();
    const update = (await operationsOf(machine.id)).find((o) => o.typeName === 'UpdateSoftware' && o.decision === 'PROCEED')!;
    expect((await finished(machine.id, update.id)).status).toBe('SUCCESS');

    // What it installed is what was desired, and the account is no longer obsolete.
    expect((await api<TVersionState>(`/machines/${machine.id}/state-info`, adminToken)).components.deployer).toEqual(desired.components.deployer);
    await list.reload();
    await accountRow.waitFor();
    await expect.poll(() => accountRow.getByRole('img', { name: 'Obsolete' }).count(), { timeout: LIVE_TIMEOUT }).toBe(0);
  }, LONG);
});

describe('Manual Backup and Restore Backup', () => {
  it('says the account has no backup; forces one in 3 minutes and one now; restores the chosen latest file', async () => {
    const machine = await newMachine('Ops Backup');
    const { page } = await openPage();
    let restores = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith(`/machines/${machine.id}/restore-backup`)) restores += 1;
    });
    await openAccount(page, 'operator', machine);

    // No backup yet: the prompt, and Continue sends nothing.
    await openMenu(page, machine, 'Restore backup');
    const restore = page.getByRole('dialog', { name: 'Restore Backup' });
    await restore.getByText('This account has no backup. Are you sure you want to continue?').waitFor();
    await restore.getByRole('button', { name: 'Continue' }).click();
    await restore.waitFor({ state: 'hidden' });
    expect(restores).toBe(0);

    // A delayed backup waits for its time; one for now runs.
    const backupDialog = page.getByRole('dialog', { name: 'Manual Backup' });
    await openMenu(page, machine, 'Force backup');
    for (const delay of ['Now', '3 minutes', '10 minutes', '30 minutes']) await backupDialog.getByText(delay, { exact: true }).waitFor();
    await backupDialog.getByText('3 minutes', { exact: true }).click();
    const before = Date.now();
    await backupDialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Backup has been forced for this machine').waitFor();
    const delayed = (await operationsOf(machine.id)).find((o) => o.typeName === 'Backup')!;
    expect(Date.parse(delayed.notBefore!) - before).toBeGreaterThan(2.5 * 60_000);
    expect(Date.parse(delayed.notBefore!) - before).toBeLessThan(3.5 * 60_000);

    await openMenu(page, machine, 'Force backup');
    await backupDialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Backup has been forced for this machine').waitFor();
    const now = (await operationsOf(machine.id)).find((o) => o.typeName === 'Backup' && o.id !== delayed.id)!;
    expect((await finished(machine.id, now.id)).status).toBe('SUCCESS');
    const files = (await api<TBackupFilesResponse>(`/accounts/${machine.accountId}/backups?limit=100`, adminToken)).items;
    const launcher = files.find((f) => f.softwareName === 'launcher');
    if (!launcher) throw new Error('the backup wrote no launcher file');

    await openMenu(page, machine, 'Restore backup');
    await restore.getByText(launcher.name).waitFor();
    expect(await restore.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    await restore.getByRole('checkbox', { name: /Launcher/ }).check();
    await restore.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Restoration of backup(s) has been queued for this machine').waitFor();
    expect(restores).toBe(1);
    const queued = (await operationsOf(machine.id)).find((o) => o.typeName === 'RestoreBackup')!;
    expect(JSON.stringify(queued.params)).toContain(launcher.name);
    expect(JSON.stringify(queued.params)).not.toContain('siteMaster-');
  }, LONG);
});

describe('Create Jump-start AMI', () => {
  it('needs a name, offers the catalogue IRMN versions with the default chosen, and queues CreateJumpStartAmi', async () => {
    const machine = await newMachine('Ops AMI');
    const versions = await api<TIrmnVersion[]>('/irmn-versions', adminToken);
    const byDefault = versions.find((v) => v.default)!;
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Create AMI');
    const dialog = page.getByRole('dialog', { name: 'Create Jump-start AMI' });
    await dialog.getByText(`${byDefault.name} (${byDefault.status})`).waitFor();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Name is required').waitFor();
    expect((await operationsOf(machine.id)).some((o) => o.typeName === 'CreateJumpStartAmi')).toBe(false);

    const name = `js-e2e-${Date.now()}`;
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Description', { exact: true }).fill('Made by the operations spec');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Jump-start AMI creation from this machine has been started').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const ami = (await operationsOf(machine.id)).find((o) => o.typeName === 'CreateJumpStartAmi')!;
    expect(ami.params).toMatchObject({ name, description: 'Made by the operations spec', irmnVersion: byDefault.name });
    expect((await finished(machine.id, ami.id)).status).toBe('SUCCESS');
    // The image picker's catalogue now offers it as a jump-start image of the machine's region.
    const images = await api<TSaasImage[]>('/cloud/images', adminToken);
    expect(images.find((i) => i.name === name)).toMatchObject({ jumpStart: true, irmnVersion: byDefault.name, active: true });

    // And the picker shows it. The picker opens where an account has no image yet
    // (region and image lock once set), so the account reaches the browser without one.
    const picking = (await openPage({ height: 1400 })).page;
    await picking.route(new RegExp(`/api/v1/accounts/${machine.accountId}$`), async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as TAccountDetail;
      body.vmImageName = null;
      body.machineConfig!.vmImageName = '';
      await route.fulfill({ response, json: body });
    });
    await signIn(picking, 'admin', 'admin', `/account/edit/${machine.accountId}`);
    const settings = picking.getByRole('region', { name: 'Instance Settings' });
    await settings.getByRole('button', { name: 'Choose image' }).click();
    const picker = picking.getByRole('dialog', { name: 'Select image' });
    await picker.getByRole('radiogroup', { name: 'Jump-start' }).getByText('Yes', { exact: true }).click();
    const newImage = picker.locator('.ant-table-tbody tr[data-row-key]').filter({ has: picking.getByText(name, { exact: true }) });
    await newImage.waitFor();
    expect(await picker.getByRole('radio', { name: `Pick ${name}` }).isDisabled()).toBe(false);
    await newImage.click();
    await picker.waitFor({ state: 'hidden' });
    expect(await settings.getByLabel('Image', { exact: true }).inputValue()).toBe(name);
  }, LONG);
});

describe('failures and Panic', () => {
  it('operations that fail (injected) put the machine in Panic at the third; Reset failure clears it', async () => {
    // The e2e server fails every operation of this account's machine (SIM_AGENT_FAIL_MACHINES, e2e/global-setup.ts).
    const machine = await newMachine('Ops Panic', undefined, { urlFriendlyName: FAILING_MACHINE_ACCOUNT });
    expect(machine.name).toBe(`${FAILING_MACHINE_ACCOUNT}-launcher`);
    for (let attempt = 0; attempt < 5 && !(await api<TMachine>(`/machines/${machine.id}`, adminToken)).needsAdmin; attempt++) {
      const [op] = await queue(machine, ['SmokeTest']);
      const done = await finished(machine.id, op!.id);
      expect(done.status).toBe('FAILURE');
      expect(done.failCounter).toBeGreaterThanOrEqual(attempt + 1);
    }
    expect(await api<TMachine>(`/machines/${machine.id}`, adminToken)).toMatchObject({ needsAdmin: true, failCounter: 3 });

    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    const r = row(page, machine);
    await r.getByText('Panic', { exact: true }).waitFor();
    await r.getByRole('button', { name: `Reset failure for ${machine.name}` }).click();
    await page.getByText('Failure state has been reset for machine').waitFor();
    await expect.poll(() => r.getByText('Panic', { exact: true }).count()).toBe(0);
    expect(await api<TMachine>(`/machines/${machine.id}`, adminToken)).toMatchObject({ needsAdmin: false, failCounter: 0 });
  }, LONG);
});

describe('Operations viewer', () => {
  it('opens from a machine in a new tab filtered to it, pages on the server with the page in the URL, and shows Output', async () => {
    const machine = await newMachine('Ops Viewer');
    const queued = [...(await queue(machine, ['SmokeTest', 'ApplyConfig', 'Backup'])), ...(await queue(machine, ['SmokeTest', 'ApplyConfig', 'Backup']))];
    queued.push(...(await queue(machine, ['SmokeTest', 'ApplyConfig', 'Backup'])), ...(await queue(machine, ['SmokeTest', 'ApplyConfig'])));
    expect(queued.length).toBe(11);
    // With what the machine had before (an UpdateSoftware of the desired state, perhaps): more than one page, less than three.
    const total = (await api<TOperationListResponse>(`/operations?machineId=${machine.id}&limit=1`, adminToken)).totalItems;
    expect(total).toBeGreaterThan(10);
    expect(total).toBeLessThanOrEqual(20);
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
    await expect.poll(() => table.locator('tr.ant-table-row').count()).toBe(10);
    const names = await table.locator('tr.ant-table-row td:nth-child(4)').allInnerTexts();
    expect(new Set(names)).toEqual(new Set([machine.name]));
    await tab!.getByText(`1-10 of ${total} operations`).waitFor();

    await tab!.locator('.ant-pagination-item-2').click();
    await tab!.waitForURL((url) => url.hash.includes('page=2'));
    await expect.poll(() => table.locator('tr.ant-table-row').count()).toBe(total - 10);
    const paged = requests.at(-1)!;
    expect(Object.fromEntries(paged.searchParams)).toMatchObject({ machineId: String(machine.id), startIndex: '10', limit: '10' });

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
    await expect.poll(() => table.locator('tr.ant-table-row').count(), { timeout: LIVE_TIMEOUT }).toBe(total - 10);
  }, LONG);
});

describe('without write permission', () => {
  it('shows a viewer no operation controls, and the server refuses the operation calls (403)', async () => {
    const machine = await newMachine('Ops Viewer Rights');
    const [op] = await queue(machine, ['SmokeTest']);
    const before = (await operationsOf(machine.id)).map((o) => o.id);
    const { page } = await openPage();
    await openAccount(page, 'viewer', machine);
    await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
    const items = page.locator('.ant-dropdown:visible').getByRole('menuitem');
    await items.first().waitFor();
    expect(await items.allInnerTexts()).toEqual(['View operations']);
    expect(await row(page, machine).getByRole('button', { name: /^(Start|Stop) / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Proceed|Cancel) .* on / }).count()).toBe(0);

    const id = machine.id;
    const refused: [string, string, unknown?][] = [
      [`/machines/${id}/queue-operations`, 'POST', { operations: ['SmokeTest'] }],
      [`/machines/${id}/force-backup`, 'POST', { timeToBackup: 0 }],
      [`/machines/${id}/force-populate`, 'POST', { populateLauncher: true, populateSiteMaster: false, altString: '' }],
      [`/machines/${id}/publish-sample-data`, 'POST', { fileName: 'viewer.zip' }],
      [`/machines/${id}/create-ami`, 'POST', { name: 'viewer', description: '', irmnVersion: '8.1' }],
      [`/machines/${id}/restore-backup`, 'POST', { launcherBackupFile: 'x', siteMasterBackupFile: null, auditChangeLogBackupFile: null }],
      [`/machines/${id}/test-latest-code`, 'POST', { branch: 'master' }],
      [`/machines/${id}/reset-last-operation`, 'POST'],
      [`/machines/${id}/operations/${op!.id}`, 'PATCH', { params: 'CANCEL' }],
    ];
    for (const [path, method, body] of refused) expect(`${method} ${path} ${await statusOf(path, 'viewer', method, body)}`).toBe(`${method} ${path} 403`);
    expect((await operationsOf(id)).map((o) => o.id)).toEqual(before);
    expect((await operationNow(id, op!.id))!.decision).toBeNull();
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
