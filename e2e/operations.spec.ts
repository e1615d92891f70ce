/**
 * Operations in the console (spec 2 §2.2, §2.3, §4, §5, §8; issue 10) in
 * Chromium against the real server and its agent: queue operations from the
 * dialog and watch the status column; a pending operation on a production class
 * approved with Proceed and another cancelled; the deploy the desired versions
 * cause, approved; operations that fail put the machine in Panic until Reset
 * failure; and what a viewer may not do. The operation dialogs are in
 * `operation-dialogs.spec.ts`, the Operations viewer and the trail of an
 * activity in `operations-viewer.spec.ts`; fixtures in `operations-fixtures.ts`
 * and `machine-panel.ts`.
 *
 * Every test that changes a machine creates its own account through the API
 * (one AllInOne machine), so tests do not depend on each other or on the seed.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  CLASS_CUSTOMER_PRODUCTION,
  type TAccountDetail,
  type TMachine,
  type TOperationLog,
  type TOperationType,
  type TVersionState,
} from '@fleet/contracts';
import { adminToken, api, chooseOption, expectAccessible, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';
import { FAILING_MACHINE_ACCOUNT } from './global-setup.js';
import { openMenu, recordCellTexts, row, statusOf } from './machine-panel.js';
import { finished, LIVE_TIMEOUT, LONG, newMachine, openAccount, operationNow, operationsOf, queue } from './operations-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

const statusCell = (page: Page, machine: TMachine) => row(page, machine).locator('td').nth(4);

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
    // The status cell's texts from now on: the SmokeTest runs half a second, which a poll can miss on a loaded runner.
    const statusTexts = await recordCellTexts(page, machine, 4);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Operation queued for machine').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const [smoke] = (await operationsOf(machine.id)).filter((o) => o.typeName === 'SmokeTest');
    expect(smoke).toMatchObject({ user: 'operator', pending: false });
    // Live, without a reload: running, then back to the mode text once it ends.
    await expect.poll(async () => (await statusTexts()).some((t) => t.includes('Running SmokeTest')), { timeout: LIVE_TIMEOUT }).toBe(true);
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
    // Queued, and held by the rule the agent applies (operations-waiting.test.ts: the claim takes only 'starting' ones).
    const [backup] = (await operationsOf(machine.id)).filter((o) => o.typeName === 'Backup');
    expect(backup).toMatchObject({ status: null, finishTime: null, waiting: { reason: 'unmanaged' } });
    await row(page, machine).getByRole('button', { name: `1 queued operation of ${machine.name}` }).click();
    await page.getByRole('tooltip').or(page.locator('.ant-popover')).getByText('The machine is unmanaged: switching Managed on (write permission) lets it run').waitFor();
  }, LONG);
});

describe('waiting work (issue 24 point 1)', () => {
  it('an operation queued on a class on standby says so in the row, the viewer and its page, and is cancelled from the row', async () => {
    // Class 2, Internal Testing: its MMA instance is on standby in the demo seed.
    const machine = await newMachine('Ops Standby', 2);
    const [smoke] = await queue(machine, ['SmokeTest']);
    const reason = 'MMA class Internal Testing is on standby: an admin can switch standby off on the MMA screen';
    expect(smoke!.waiting).toEqual({ reason: 'classStandby', message: reason });

    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    // The spec's status text stays; the badge beside it counts the queued operation.
    await statusCell(page, machine).getByText('Stable').or(statusCell(page, machine).getByText('Operation Pending')).first().waitFor();
    await row(page, machine).getByRole('button', { name: `1 queued operation of ${machine.name}` }).click();
    const popover = page.locator('.ant-popover').filter({ hasText: `Queued operations of ${machine.name}` });
    await popover.getByText(reason).waitFor();
    await expectAccessible(page, 'queued operations of a machine', { within: '.ant-popover' });

    // Its own page says the same, and the Operations viewer too.
    const other = await page.context().newPage();
    await other.goto(page.url().replace(/#.*$/, `#/operations/${smoke!.id}`));
    await other.getByRole('heading', { name: `Operation ${smoke!.id}: SmokeTest on ${machine.name}` }).or(other.getByText(`Operation ${smoke!.id}: SmokeTest on ${machine.name}`)).first().waitFor();
    await other.getByText(reason).waitFor();
    await expectAccessible(other, 'operation page');
    await other.goto(page.url().replace(/#.*$/, `#/viewer/operations?machine=${machine.id}`));
    const viewerRow = other.locator(`.ant-table-tbody tr[data-row-key="${smoke!.id}"]`);
    await viewerRow.getByText(reason).waitFor();
    await viewerRow.getByRole('button', { name: `Cancel operation ${smoke!.id}` }).waitFor();
    await other.close();

    // Cancel, confirmed: the agent ends it FAILURE naming the canceller, and the badge goes.
    await popover.getByRole('button', { name: `Cancel operation ${smoke!.id}` }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel operation' }).click();
    await page.getByText('Operation has been cancelled').waitFor();
    const done = await finished(machine.id, smoke!.id);
    expect(done).toMatchObject({ status: 'FAILURE', decision: 'CANCEL', decidedBy: 'operator', waiting: null });
    const output = await api<TOperationLog>(`/operations/${smoke!.id}/output`, adminToken);
    expect(output.content).toMatch(/Cancelled by operator/);
    await row(page, machine).getByRole('button', { name: /queued operation/ }).waitFor({ state: 'detached', timeout: LIVE_TIMEOUT });
  }, LONG);

  it('a viewer sees why an operation waits but has no Cancel', async () => {
    const machine = await newMachine('Ops Standby Viewer', 2);
    const [smoke] = await queue(machine, ['SmokeTest']);
    const { page } = await openPage();
    await openAccount(page, 'viewer', machine);
    await row(page, machine).getByRole('button', { name: `1 queued operation of ${machine.name}` }).click();
    const popover = page.locator('.ant-popover').filter({ hasText: `Queued operations of ${machine.name}` });
    await popover.getByText(/is on standby/).waitFor();
    expect(await popover.getByRole('button', { name: `Cancel operation ${smoke!.id}` }).count()).toBe(0);
    await api(`/machines/${machine.id}/operations/${smoke!.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ params: 'CANCEL' }) });
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
    // The status names the operation's type on hover (its tooltip mounts then: LazyTooltip).
    await cell.getByText('Pending UpdateSoftware').hover();
    await page.getByRole('tooltip').getByText(first!.operationTypeDescription, { exact: true }).waitFor();
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
