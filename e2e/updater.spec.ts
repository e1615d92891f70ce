/**
 * The Updater (spec 3 §2.8, §4, §5, §8; DESIGN §15; issue 13) in Chromium
 * against the real server and the demo fleet: account mode new versions for
 * several accounts (dry-run diff, confirmation, submitted), machine mode with
 * the deployer warning and the machine-mode confirmation (the update names
 * the machines ticked in the embedded machines panel), the machines panel
 * itself in machine mode (spec 2 §2.1: Account column, status with Panic and
 * a running task, tasks, switches, the grouped row menu, Poll update, live
 * over /taskHub), batch flags and
 * class, batch component configs (each machine's own keys kept), a template loaded into the versions block,
 * saved selections, 'Update these accounts', and that a viewer cannot open the
 * Updater. The targets are accounts this spec creates (a unique name prefix),
 * so no other spec's fixtures change.
 *
 * With `E2E_SHOTS` set to a folder, the screens are saved there as PNGs.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  DEPLOYER_WARNING,
  type TListComponentConfigDefinitionsResponse,
  type TMachine,
  type TMachinesPage,
  type TUpdaterAccount,
  type TUpdaterMachine,
  type TUserActivity,
} from '@fleet/contracts';
import { adminToken, api, apiToken, baseUrl, chooseOption, createAccount, expectAccessible, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';
import { machineNow, row, waitLaunched } from './machine-panel.js';

const PREFIX = `updtr${Date.now() % 100_000}`;
let accountIds: number[] = [];
const openPage = pagesPerTest();

useBrowserAndAdmin();
beforeAll(async () => {
  accountIds = [];
  for (let i = 0; i < 3; i++) accountIds.push(await createAccount(adminToken, PREFIX, { classId: 2 }));
}, 120_000);

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, `${name}.png`), fullPage: true });
};
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

/** Opens the Updater on this spec's targets and waits for its rows. */
async function openUpdater(page: Page, mode: 'machine' | 'account', user = 'admin') {
  await signIn(page, user, user, `/updater?mode=${mode}&search=${PREFIX}`);
  await page.getByRole('checkbox', { name: new RegExp(`Select ${PREFIX}`) }).first().waitFor();
}

/** Ticks the first `count` rows of the table once it shows at least that many. */
async function selectShown(page: Page, count: number) {
  const boxes = page.getByRole('checkbox', { name: new RegExp(`Select ${PREFIX}`) });
  await expect.poll(() => boxes.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
  for (let i = 0; i < count; i++) await boxes.nth(i).check();
  await expect.poll(() => page.getByTestId('selected-count').innerText()).toContain(`${count} `);
}

/** Machines of this spec's accounts, once each account has one. */
async function specMachines(): Promise<TUpdaterMachine[]> {
  let items: TUpdaterMachine[] = [];
  await expect
    .poll(
      async () => {
        items = (await api<{ items: TUpdaterMachine[] }>(`/updater/machines?search=${PREFIX}&limit=50`, adminToken)).items;
        return items.length;
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(3);
  return items;
}

describe('account mode', () => {
  it('sets the launcher of several accounts to None: dry-run diff, confirmation, submitted', async () => {
    const { page } = await openPage();
    await openUpdater(page, 'account');
    await shot(page, 'updater-account');
    await expectAccessible(page, 'Updater in account mode');
    await selectShown(page, 3);

    // New accounts run Latest master: None changes each of them.
    await chooseOption(page, page.getByLabel('Launcher version mode'), 'None');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /dry run/ });
    await dialog.waitFor();
    await dialog.getByRole('table').first().waitFor();
    const text = await dialog.innerText();
    expect(new Set(text.match(new RegExp(`${PREFIX} \\d+ \\d+`, 'g'))).size).toBe(3);
    // The field by its label, not its name (issue 24 point 8).
    expect(text).toContain('Launcher version');
    expect(text).not.toContain('launcherVersion');
    await shot(page, 'updater-diff');
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Update 3 accounts?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Software update submitted').waitFor();

    const activities = await api<TUserActivity[]>('/user-activities?action=UpdateAccountsSoftware&limit=1', adminToken);
    expect(activities[0]!.accounts.map((a) => a.id).sort()).toEqual([...accountIds].sort());
  });

  it('sets auto test and class of the selected accounts; manual maintenance is disabled with its reason', async () => {
    const { page } = await openPage();
    await openUpdater(page, 'account');
    await selectShown(page, 3);
    await expect.poll(() => page.getByLabel('Manual maintenance').isDisabled()).toBe(true);
    await page.getByText('Manual maintenance does nothing in account mode').waitFor();

    await chooseOption(page, page.getByLabel('Auto test'), 'Yes');
    await chooseOption(page, page.getByLabel('Class', { exact: true }).last(), 'Experimental');
    await page.getByRole('button', { name: 'Preview flags' }).click();
    const preview = page.getByRole('dialog', { name: 'Set flags of 3 accounts' });
    await preview.getByText('3 of 3 targets change').waitFor();
    await preview.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'Accounts updated').waitFor();
    const listed = (await api<{ items: TUpdaterAccount[] }>(`/updater/accounts?search=${PREFIX}`, adminToken)).items;
    expect(listed.every((a) => a.autoTest && a.classId === 1)).toBe(true);
  });

  it('loads an instance-settings template into the versions block', async () => {
    await api('/template/instance-settings', adminToken, {
      method: 'POST',
      body: JSON.stringify({ name: `${PREFIX} versions`, isPublic: true, launcherVersionMode: 'Latest', launcherVersion: 'develop|latest' }),
    });
    const { page } = await openPage();
    await openUpdater(page, 'account');
    await chooseOption(page, page.getByLabel('Instance Settings template'), `${PREFIX} versions`);
    await toast(page, 'Template loaded').waitFor();
    expect(await page.getByLabel('Launcher branch').locator('..').innerText()).toContain('develop');
  });

  it("opens from the accounts list's 'Update these accounts' with its filters", async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/list?search=${PREFIX}`);
    await page.getByRole('button', { name: 'Update these accounts' }).click();
    await page.waitForURL(/#\/updater\?/);
    expect(page.url()).toContain('mode=account');
    expect(page.url()).toContain(`search=${PREFIX}`);
    await expect.poll(() => page.getByRole('checkbox', { name: new RegExp(`Select ${PREFIX}`) }).count()).toBe(3);
  });

  it('saves the selection and opens it again', async () => {
    const { page } = await openPage();
    await openUpdater(page, 'account');
    await selectShown(page, 2);
    await page.getByRole('button', { name: 'Save selection' }).click();
    await page.getByLabel('Selection name').fill(`${PREFIX} two`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Selection saved').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('button', { name: 'Saved selections' }).click();
    const drawer = page.getByRole('dialog', { name: 'Saved selections' });
    await drawer.getByRole('row', { name: new RegExp(`${PREFIX} two`) }).getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.getByTestId('selected-count').innerText()).toContain('2 accounts selected');
  });
});

describe('machine mode', () => {
  it('warns about the deployer, asks the machine-mode confirmation, and submits', async () => {
    const machines = await specMachines();
    const { page } = await openPage();
    await openUpdater(page, 'machine');
    await shot(page, 'updater-machine');
    await expectAccessible(page, 'Updater in machine mode');
    await selectShown(page, machines.length);

    await chooseOption(page, page.getByLabel('Deployer version mode'), 'Latest');
    const careful = page.getByRole('dialog', { name: 'Be careful' });
    await careful.getByText(DEPLOYER_WARNING).waitFor();
    await careful.getByRole('button', { name: 'OK' }).click();

    await page.getByRole('button', { name: 'Update', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /dry run/ });
    await dialog.getByRole('table').first().waitFor();
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure you want to do this?' });
    await confirm.getByText('Updating software version(s) in machine mode might result into inconsistent versions between account and machines').waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Software update submitted').waitFor();
    // The update named the machines ticked in the panel.
    const activities = await api<TUserActivity[]>('/user-activities?action=UpdateMachinesSoftware&limit=1', adminToken);
    expect((activities[0]!.metadata.params.machineIds as number[]).sort()).toEqual(machines.map((m) => m.id).sort());
  });

  it('embeds the machines panel: Account column, switches, tasks, the grouped row menu, Poll update, a task followed live, Panic', async () => {
    const machines = await specMachines();
    for (const m of machines) await waitLaunched(m, 90_000);
    const { page } = await openPage();
    const hub = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/taskHub'), timeout: 30_000 });
    await openUpdater(page, 'machine');
    expect((await hub).isClosed()).toBe(false);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    // The panel's controls: Refresh, Notification (waits for a selection), Poll update; no Create Machine without an account.
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Poll update' }).isChecked()).toBe(false);
    expect(await page.getByRole('button', { name: 'Notification' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Create Machine' }).count()).toBe(0);
    await expect.poll(() => page.getByText(`1-${machines.length} of ${machines.length} machines`).count()).toBe(1);
    for (const m of machines) {
      const r = row(page, m);
      expect(await r.innerText()).toContain(m.accountName);
      for (const label of ['Managed', 'Maintenance', 'Turbo', 'Run smoke test', 'Oversee termination']) {
        await r.getByRole('switch', { name: `${label} for ${m.name}` }).waitFor({ state: 'attached' });
      }
      await r.getByRole('button', { name: `Tasks of ${m.name}` }).waitFor({ state: 'attached' });
    }

    // A switch changes the machine, whichever account it belongs to.
    const [first] = machines;
    const r = row(page, first!);
    const turbo = r.getByRole('switch', { name: `Turbo for ${first!.name}` });
    const wasTurbo = (await machineNow(first!.id)).turbo;
    await turbo.click();
    await expect.poll(async () => (await machineNow(first!.id)).turbo).toBe(!wasTurbo);
    // The switch shows what the server holds, whatever read of the machine crossed the change.
    await expect.poll(() => turbo.isChecked()).toBe(!wasTurbo);
    await turbo.click();
    await expect.poll(async () => (await machineNow(first!.id)).turbo).toBe(wasTurbo);
    await expect.poll(() => turbo.isChecked()).toBe(wasTurbo);

    // The row menu, grouped as on the account page.
    await r.getByRole('button', { name: `Actions for ${first!.name}` }).click();
    const menu = page.locator('.ant-dropdown:visible .ant-dropdown-menu');
    await menu.getByRole('menuitem').first().waitFor();
    expect(await menu.locator('.ant-dropdown-menu-item-group-title').allInnerTexts()).toEqual(['Diagnostics', 'Data', 'Configuration', 'Lifecycle']);
    await shot(page, 'updater-machine-menu');
    await menu.getByRole('menuitem', { name: 'View tasks' }).click();
    const drawer = page.getByRole('dialog', { name: `Tasks of ${first!.name}` });
    await drawer.locator('.ant-table-tbody tr', { hasText: 'CreateMachine' }).first().waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });

    // Stop: the status cell shows the task, the pushed events bring the stopped instance, without a reload; then Start.
    await r.getByRole('button', { name: `Stop ${first!.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Stop machine' });
    await confirm.getByRole('button', { name: 'Stop' }).click();
    await r.getByText(`Stop machine ${first!.name}`).waitFor({ timeout: 90_000 });
    const start = r.getByRole('button', { name: `Start ${first!.name}` });
    await expect.poll(() => start.isEnabled().catch(() => false), { timeout: 90_000 }).toBe(true);
    await expect.poll(() => r.innerText()).toContain('stopped');
    await start.click();
    const stop = r.getByRole('button', { name: `Stop ${first!.name}` });
    await expect.poll(() => stop.isEnabled().catch(() => false), { timeout: 90_000 }).toBe(true);
    await expect.poll(() => r.innerText()).toContain('running');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

    // A panicking demo machine (Customer Production, which no other spec resets) shows Panic with Reset failure.
    const [panicked] = (await api<TMachinesPage>('/machines?needsAdmin=true&classId=5&limit=1', adminToken)).items;
    expect(panicked).toBeDefined();
    await page.goto(`/#/updater?search=${encodeURIComponent(panicked!.name)}`);
    const panicRow = row(page, panicked!);
    await panicRow.getByText('Panic', { exact: true }).waitFor();
    await panicRow.getByRole('button', { name: `Reset failure for ${panicked!.name}` }).waitFor();
    expect(await panicRow.getAttribute('class')).toContain('machine-row-error');
  }, 300_000);

  it('sets manual maintenance of the selected machines', async () => {
    const machines = await specMachines();
    const { page } = await openPage();
    await openUpdater(page, 'machine');
    await selectShown(page, machines.length);
    await chooseOption(page, page.getByLabel('Manual maintenance'), 'Yes');
    await page.getByRole('button', { name: 'Preview flags' }).click();
    const preview = page.getByRole('dialog', { name: /Set flags of \d+ machines/ });
    await preview.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'Machines updated').waitFor();
    const listed = (await api<{ items: TUpdaterMachine[] }>(`/updater/machines?search=${PREFIX}`, adminToken)).items;
    expect(listed.every((m) => m.manualMaintenance)).toBe(true);
  });

  it("saves batch component configs for the selected machines, keeping each machine's own keys", async () => {
    const machines = await specMachines();
    // One machine gets a key of its own (an editable string key of the catalogue it lacks) through the single-machine call.
    const extraMachine = machines[0]!.id;
    const own = (await api<TMachine>(`/machines/${extraMachine}`, adminToken)).config.componentConfig;
    const definitions = await api<TListComponentConfigDefinitionsResponse>('/component-configs?limit=1000', adminToken);
    const extra = definitions.items.find((d) => d.dataType === null && !d.protected && !(`${d.rootKey}.${d.subKey}` in own))!;
    const extraKey = `${extra.rootKey}.${extra.subKey}`;
    await api(`/machines/${extraMachine}/component-config`, adminToken, {
      method: 'PUT',
      body: JSON.stringify({ componentConfig: { ...own, [extraKey]: 'e2e-own-value' } }),
    });
    const { page } = await openPage();
    await openUpdater(page, 'machine');
    await selectShown(page, machines.length);
    await page.getByRole('button', { name: /Bulk actions/ }).click();
    await page.getByRole('menuitem', { name: 'Batch Component Configs' }).click();
    const dialog = page.getByRole('dialog', { name: /Batch Component Configs: \d+ machines/ });
    await dialog.getByRole('table').first().waitFor();
    await shot(page, 'updater-batch-config');
    // A number key every machine's defaults hold, set to one new value on all of them.
    const retention = dialog.getByLabel('auditChangeLog.retentionDays');
    await retention.fill('400');
    await dialog.getByText('(1 changed)').waitFor();
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'Batch Component Configs: changes' });
    await preview.getByText(`${machines.length} of ${machines.length} targets change`).waitFor();
    await preview.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'Component configs for machines have been saved').waitFor();
    const activities = await api<TUserActivity[]>('/user-activities?action=BatchUpdateComponentConfigs&limit=1', adminToken);
    expect(activities[0]!.metadata.changes.filter((c) => c.propertyName.includes('retentionDays')).length).toBe(machines.length);
    expect(activities[0]!.metadata.changes.every((c) => c.propertyName === 'auditChangeLog.retentionDays')).toBe(true);
    const saved = await api<{ machineId: number; componentConfig: Record<string, unknown> }[]>(
      `/machines/component-configs?ids=${machines.map((m) => m.id).join(',')}`,
      adminToken,
    );
    expect(saved.map((c) => c.componentConfig['auditChangeLog.retentionDays'])).toEqual(machines.map(() => 400));
    expect(saved.find((c) => c.machineId === extraMachine)!.componentConfig[extraKey]).toBe('e2e-own-value');
  });
});

describe('permissions', () => {
  it('a viewer cannot open the Updater, and the server refuses its calls (403)', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer');
    await page.goto('/#/updater');
    await page.waitForURL((url) => !url.hash.startsWith('#/updater'));
    expect(await page.getByRole('menuitem', { name: 'Updater' }).count()).toBe(0);
    const viewer = await apiToken('viewer');
    const { ids } = await api<{ ids: number[] }>('/updater/machines/ids', adminToken);
    const refused: [string, string, unknown?][] = [
      ['/updater/machines', 'GET'],
      ['/updater/accounts', 'GET'],
      ['/rollouts', 'GET'],
      ['/machines/batch', 'PUT', { machineIds: ids.slice(0, 2), managed: true, dryRun: true }],
      ['/software-update/update-machines', 'POST', { machines: ids.slice(0, 2), launcherVersionMode: 'None', dryRun: true }],
      ['/updater/selections', 'POST', { name: 'Viewer selection', kind: 'machines', ids: ids.slice(0, 2) }],
    ];
    for (const [path, method, body] of refused) {
      const res = await fetch(`${baseUrl()}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${viewer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 403`);
    }
  });
});
