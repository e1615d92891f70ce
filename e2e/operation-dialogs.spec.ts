/**
 * The operation dialogs of the machines panel in Chromium against the real
 * server and its agent (spec 2 §2.3, §5, §8; issue 10): Manual Backup (a
 * delayed one waits for its time, one for now runs), the Restore Backup dialog
 * without and with backups, and Create Jump-start AMI (its image offered by the
 * image picker afterwards). Fixtures in `operations-fixtures.ts` and
 * `machine-panel.ts`.
 *
 * Every test creates its own account through the API (one AllInOne machine),
 * so tests do not depend on each other or on the seed.
 */
import { describe, expect, it } from 'vitest';
import type { TAccountDetail, TBackupFilesResponse, TIrmnVersion, TSaasImage } from '@fleet/contracts';
import { adminToken, api, pagesPerTest, settled, signIn, useBrowserAndAdmin } from './browser.js';
import { openMenu } from './machine-panel.js';
import { finished, LONG, newMachine, openAccount, operationsOf } from './operations-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

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
    // The first submit's notice may still show: wait for the second Backup itself.
    await expect.poll(async () => (await operationsOf(machine.id)).filter((o) => o.typeName === 'Backup').length).toBe(2);
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
    // Once the Edit page's cards have loaded: while they arrive the button moves (a loaded runner's click timed out).
    await settings.waitFor();
    await settled(picking);
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
