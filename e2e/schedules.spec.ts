/**
 * Schedules executed (DESIGN §13, issue 11 point 1) in Chromium against the real
 * server and its real scheduler: a backup produced by an account's schedule is
 * offered by the machine's Restore Backup dialog, and the activity log records
 * it as user Scheduler; the Backup Settings card says its times are UTC.
 *
 * The test makes its own account (backup time 03:00 UTC) through the API. The
 * scheduler plans it at its next pass; the one fixture the API cannot make is
 * the time itself: the test moves the account's due row to now in the e2e
 * server's database, as a time missed while the server was down. The server's
 * scheduler then runs it (the e2e server's pass every 2 s): a Backup by Scheduler, which the
 * agent runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Page } from 'playwright-core';
import type { TBackupFilesResponse, TListMachinesResponse, TMachine, TOperationListResponse, TTaskListResponse, TUserActivity } from '@fleet/contracts';
import { adminToken, api, createAccount, NO_SOFTWARE, pagesPerTest, server, signIn, useBrowserAndAdmin } from './browser.js';

/** Longest wait for a simulated launch, a scheduler pass (2 s in the e2e server) and a simulated operation. */
const LIVE_TIMEOUT = 90_000;
const LONG = 240_000;

let database: pg.Client;
useBrowserAndAdmin();
beforeAll(async () => {
  database = new pg.Client({ connectionString: server().databaseUrl });
  await database.connect();
});
afterAll(async () => {
  await database.end();
});
const openPage = pagesPerTest();

const operationsOf = async (machineId: number) => (await api<TOperationListResponse>(`/machines/${machineId}/operations?limit=100`, adminToken)).items;
const row = (page: Page, machine: { id: number }) => page.locator(`.ant-table-tbody tr[data-row-key="${machine.id}"]`);

/** A new AllInOne account backing up at 03:00 UTC, and its one machine once launched and idle. */
async function scheduledMachine(): Promise<TMachine> {
  const accountId = await createAccount(adminToken, 'Scheduled Backup', { backupConfig: { times: ['03:00'] }, machineConfig: NO_SOFTWARE });
  const [machine] = (await api<TListMachinesResponse>(`/accounts/${accountId}/machines`, adminToken)).items;
  if (!machine) throw new Error('create-from-draft made no machine');
  await expect
    .poll(async () => (await api<TTaskListResponse>(`/machines/${machine.id}/tasks`, adminToken)).items.find((t) => t.type === 'CreateMachine')?.status, {
      timeout: LIVE_TIMEOUT,
      interval: 500,
    })
    .toBe('Completed');
  await expect.poll(async () => (await operationsOf(machine.id)).filter((o) => o.finishTime === null).length, { timeout: LIVE_TIMEOUT, interval: 500 }).toBe(0);
  return machine;
}

describe('a scheduled backup', () => {
  it('runs at its time as user Scheduler and its file is offered by Restore Backup', async () => {
    const machine = await scheduledMachine();
    // The scheduler planned the account: its backup row is due at the next 03:00 UTC.
    const dueRow = async () =>
      (await database.query<{ due_at: Date }>(`select due_at from schedule_due where account_id = $1 and kind = 'backup'`, [machine.accountId])).rows[0]?.due_at.toISOString().slice(11, 16);
    await expect.poll(dueRow, { timeout: 30_000, interval: 500 }).toBe('03:00');
    expect(await operationsOf(machine.id)).not.toContainEqual(expect.objectContaining({ typeName: 'Backup' }));

    // Its time has come (as after a stop of the server): the server's own scheduler runs it.
    await database.query(`update schedule_due set due_at = now() where account_id = $1 and kind = 'backup'`, [machine.accountId]);
    await expect
      .poll(async () => (await operationsOf(machine.id)).find((o) => o.typeName === 'Backup')?.status ?? null, { timeout: LIVE_TIMEOUT, interval: 1000 })
      .toBe('SUCCESS');
    const [backup] = (await operationsOf(machine.id)).filter((o) => o.typeName === 'Backup');
    expect(backup).toMatchObject({ user: 'Scheduler' });
    expect(backup!.params).toMatchObject({ category: 'daily' });
    // Moved on to the next 03:00, not run again.
    await expect.poll(dueRow, { timeout: 15_000 }).toBe('03:00');

    const files = (await api<TBackupFilesResponse>(`/accounts/${machine.accountId}/backups?limit=100`, adminToken)).items;
    const launcher = files.find((f) => f.softwareName === 'launcher');
    expect(launcher).toMatchObject({ category: 'daily', storageClass: 'Standard', machineId: machine.id });
    const activities = await api<TUserActivity[]>(`/user-activities?action=ScheduledBackup&accountId=${machine.accountId}`, adminToken);
    expect(activities).toMatchObject([{ user: 'Scheduler', accounts: [{ id: machine.accountId }] }]);

    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', `/account/edit/${machine.accountId}`);
    // The console says the times are UTC.
    await page.getByRole('region', { name: 'Backup Settings' }).getByText('Daily schedule (UTC)').waitFor({ timeout: 40_000 });
    await page.getByRole('region', { name: 'Idle Schedule' }).getByRole('columnheader', { name: 'Stop at (UTC)' }).waitFor();
    await row(page, machine).waitFor({ timeout: LIVE_TIMEOUT });
    await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
    await page.getByRole('menuitem', { name: 'Restore backup' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore Backup' });
    await restore.getByText(launcher!.name).waitFor();
    await restore.getByRole('checkbox', { name: /Launcher/ }).check();
    expect(await restore.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false);
  }, LONG);
});
