/**
 * The Component Configs and Deployer Config editors of the machines panel
 * (spec 2 §2.3, §5, §8) in Chromium against the real server, under each rule
 * of §5 (type mismatch silently aborted, known key with its default, unknown
 * key created as a definition first, booleans true / false / null, protected
 * keys read-only, sub-key suggestions without the machine's keys), saved and
 * seen again after a reload and through the API; and the warning for unmanaged
 * and panicked machines before saving. The other machine dialogs are in
 * `machine-dialogs.spec.ts`; fixtures in `machine-dialogs-fixtures.ts` and
 * `machine-panel.ts`.
 *
 * Every test that changes a machine creates its own account through the API
 * (draft, then create-from-draft: one AllInOne machine with the catalogue's
 * default configs), so tests do not depend on each other or on the seed.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type {
  TConfigMap,
  TListComponentConfigDefinitionsResponse,
  TListDeployerConfigDefinitionsResponse,
  TListMachinesResponse,
  TMachine,
} from '@fleet/contracts';
import { api, openDropdown, dropdownsClosed, adminToken, pagesPerTest, useBrowserAndAdmin } from './browser.js';
import { machineNow, openMenu, row } from './machine-panel.js';
import { closeLists, LIVE_TIMEOUT, LONG, newMachine, openAccount } from './machine-dialogs-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

/** Reloads the page (slow on a busy machine) and waits for the machine's row. */
async function reload(page: Page, machine: TMachine) {
  await page.reload();
  await row(page, machine).waitFor({ timeout: LIVE_TIMEOUT });
}

const editor = (page: Page, title: string, machine: TMachine) => page.getByRole('dialog', { name: `${title}: ${machine.name}` });
/** The value input of a key (its accessible name is the key). */
const valueOf = (dialog: Locator, key: string) => dialog.getByLabel(key, { exact: true });

async function chooseType(page: Page, dialog: Locator, type: string) {
  // The Select's own input is not what a user clicks; its box is.
  await dialog.getByLabel('Data type').click({ force: true });
  await openDropdown(page).getByTitle(type, { exact: true }).click();
}

/** Fills the add-key row and presses Add (without choosing a suggestion). */
async function addKey(page: Page, dialog: Locator, rootKey: string, subKey: string, type: string) {
  await dialog.getByLabel('Component', { exact: true }).fill(rootKey);
  await dialog.getByLabel('Sub key').fill(subKey);
  await closeLists(dialog);
  await chooseType(page, dialog, type);
  await dialog.getByRole('button', { name: 'Add' }).click();
}

/** The sub keys the Sub key input suggests for `rootKey`. */
async function suggestions(page: Page, dialog: Locator, rootKey: string): Promise<string[]> {
  await dialog.getByLabel('Component', { exact: true }).fill(rootKey);
  await closeLists(dialog);
  // The component list fades out; its options must not be read as sub keys.
  await dropdownsClosed(page);
  await dialog.getByLabel('Sub key').fill('');
  await dialog.getByLabel('Sub key').click();
  const options = openDropdown(page).locator('.ant-select-item-option');
  await options.first().waitFor();
  return (await options.allInnerTexts()).map((t) => t.trim());
}

describe('Component Configs editor', () => {
  it('edits by type, keeps protected keys read-only, suggests only missing keys, and saves what persists', async () => {
    const machine = await newMachine();
    const created = machine.config.componentConfig;
    const protectedKeys = ['database.connectionString', 'mongo.uri', 'discovery.snmpCommunity', 'smtp.host'];
    // A known starting point: the protected keys as created, and a few launcher and client keys.
    const start: TConfigMap = {
      ...Object.fromEntries(protectedKeys.map((k) => [k, created[k]])),
      'launcher.port': 443,
      'launcher.enableSso': true,
      'client.features': { mapView: true },
      'logging.level': 'Information',
    };
    await api(`/machines/${machine.id}/component-config`, adminToken, { method: 'PUT', body: JSON.stringify({ componentConfig: start }) });

    const { page } = await openPage();
    let definitionCalls = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/v1/component-configs')) definitionCalls += 1;
    });
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Component configs');
    const dialog = editor(page, 'Component Configs', machine);
    await valueOf(dialog, 'launcher.port').waitFor({ timeout: 40_000 });

    // Protected: read-only, no remove button; other keys can be removed.
    expect(await valueOf(dialog, 'database.connectionString').isDisabled()).toBe(true);
    expect(await valueOf(dialog, 'database.connectionString').inputValue()).toBe(created['database.connectionString']);
    expect(await dialog.getByRole('button', { name: 'Remove database.connectionString' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Remove logging.level' }).count()).toBe(1);

    // Suggestions: the catalogue's launcher sub keys without the two the machine has.
    const launcherSubKeys = (await api<TListComponentConfigDefinitionsResponse>('/component-configs?rootKey=launcher&limit=1000', adminToken)).items.map((d) => d.subKey);
    const suggested = await suggestions(page, dialog, 'launcher');
    expect(suggested).toEqual(launcherSubKeys.filter((k) => k !== 'port' && k !== 'enableSso').sort());
    expect(suggested).toContain('sessionTimeoutMinutes');
    await closeLists(dialog);

    // A known key with another dataType is silently aborted: no row, no definition, no message.
    await addKey(page, dialog, 'launcher', 'maxUploadMb', 'string');
    await page.waitForTimeout(300);
    expect(await valueOf(dialog, 'launcher.maxUploadMb').count()).toBe(0);
    expect(await page.locator('.ant-message-notice').count()).toBe(0);
    expect(definitionCalls).toBe(0);

    // A suggested key takes its definition's type and the machine's default.
    await dialog.getByLabel('Component', { exact: true }).fill('launcher');
    await dialog.getByLabel('Sub key').fill('session');
    await openDropdown(page).getByTitle('sessionTimeoutMinutes', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Add' }).click();
    // A number input (the suggestion set the type) holding the catalogue's SaaS default.
    const session = dialog.getByRole('spinbutton', { name: 'launcher.sessionTimeoutMinutes', exact: true });
    await expect.poll(() => session.inputValue()).toBe('30');
    expect(definitionCalls).toBe(0);

    // An unknown key: its definition is created first, then it gets the default of its type.
    const subKey = `beta${Date.now()}`;
    await addKey(page, dialog, 'featureFlags', subKey, 'boolean');
    const flag = valueOf(dialog, `featureFlags.${subKey}`);
    await flag.waitFor();
    expect(definitionCalls).toBe(1);
    expect(await flag.getByRole('radio', { name: 'false' }).isChecked()).toBe(true);
    await flag.getByText('null', { exact: true }).click();

    // Values by type: boolean null, a number, JSON (invalid JSON blocks Save), a removed key.
    await valueOf(dialog, 'launcher.enableSso').getByText('null', { exact: true }).click();
    await valueOf(dialog, 'launcher.port').fill('8443');
    const save = dialog.getByRole('button', { name: 'Save' });
    await valueOf(dialog, 'client.features').fill('{"mapView": ');
    await dialog.getByText('Invalid JSON').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await valueOf(dialog, 'client.features').fill('{"mapView": false}');
    await dialog.getByRole('button', { name: 'Remove logging.level' }).click();
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await page.getByText('Machine component config has been saved').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const expected = {
      ...Object.fromEntries(protectedKeys.map((k) => [k, created[k]])),
      'launcher.port': 8443,
      'launcher.enableSso': null,
      'launcher.sessionTimeoutMinutes': 30,
      'client.features': { mapView: false },
      [`featureFlags.${subKey}`]: null,
    };
    expect((await machineNow(machine.id)).config.componentConfig).toEqual(expected);
    const defs = await api<TListComponentConfigDefinitionsResponse>(`/component-configs?rootKey=featureFlags&limit=1000`, adminToken);
    expect(defs.items.find((d) => d.subKey === subKey)).toMatchObject({ dataType: 'boolean', protected: false });

    // After a reload the editor shows what was saved.
    await reload(page, machine);
    await openMenu(page, machine, 'Component configs');
    await valueOf(dialog, 'launcher.port').waitFor({ timeout: 40_000 });
    expect(await valueOf(dialog, 'launcher.port').inputValue()).toBe('8443');
    expect(await valueOf(dialog, 'launcher.enableSso').getByRole('radio', { name: 'null' }).isChecked()).toBe(true);
    expect(await valueOf(dialog, `featureFlags.${subKey}`).getByRole('radio', { name: 'null' }).isChecked()).toBe(true);
    expect(await valueOf(dialog, 'logging.level').count()).toBe(0);
    // A key already present is no longer suggested; the new definition is, for a machine without it.
    expect(await suggestions(page, dialog, 'launcher')).not.toContain('sessionTimeoutMinutes');
  }, LONG);
});

describe('Deployer Config editor', () => {
  it('applies the same rules to the deployer catalogue; a failed save keeps the dialog open', async () => {
    const machine = await newMachine();
    const created = machine.config.deployerConfig;
    const { page } = await openPage();
    let definitionCalls = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/v1/deployer-configs')) definitionCalls += 1;
    });
    await openAccount(page, 'admin', machine);
    await openMenu(page, machine, 'Deployer config');
    const dialog = editor(page, 'Deployer Config', machine);
    await valueOf(dialog, 'deployer.retryCount').waitFor();

    expect(await valueOf(dialog, 's3.bucket').isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Remove s3.bucket' }).count()).toBe(0);
    const iisSuggested = await suggestions(page, dialog, 'iis');
    expect(iisSuggested).toEqual(['enable32Bit']);
    await closeLists(dialog);

    await addKey(page, dialog, 'deployer', 'parallelSites', 'boolean');
    await addKey(page, dialog, 'smokeTest', 'suite', 'number');
    await page.waitForTimeout(300);
    expect(await valueOf(dialog, 'smokeTest.suite').count()).toBe(0);
    expect(definitionCalls).toBe(0);

    await addKey(page, dialog, 'iis', 'enable32Bit', 'boolean');
    await valueOf(dialog, 'iis.enable32Bit').getByText('true', { exact: true }).click();
    const subKey = `settings${Date.now()}`;
    await addKey(page, dialog, 'customHooks', subKey, 'json');
    await valueOf(dialog, `customHooks.${subKey}`).waitFor();
    expect(definitionCalls).toBe(1);
    expect(JSON.parse(await valueOf(dialog, `customHooks.${subKey}`).inputValue())).toEqual({});
    await valueOf(dialog, 'backup.compression').getByText('false', { exact: true }).click();

    // A failure: the spec's error toast, and the dialog stays open with the edits.
    await page.route(`**/api/v1/machines/${machine.id}/deployer-config`, (route) => route.abort(), { times: 1 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Error occurred saving machine deployer config').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect((await machineNow(machine.id)).config.deployerConfig).toEqual(created);

    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Machine deployer config has been saved').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await machineNow(machine.id)).config.deployerConfig).toEqual({
      ...created,
      'backup.compression': false,
      'iis.enable32Bit': true,
      [`customHooks.${subKey}`]: {},
    });
    const defs = await api<TListDeployerConfigDefinitionsResponse>('/deployer-configs?rootKey=customHooks&limit=1000', adminToken);
    expect(defs.items.map((d) => [d.subKey, d.dataType])).toContainEqual([subKey, 'json']);

    await reload(page, machine);
    await openMenu(page, machine, 'Deployer config');
    await valueOf(dialog, 'iis.enable32Bit').waitFor();
    expect(await valueOf(dialog, 'iis.enable32Bit').getByRole('radio', { name: 'true' }).isChecked()).toBe(true);
    expect(await valueOf(dialog, 'backup.compression').getByRole('radio', { name: 'false' }).isChecked()).toBe(true);
  }, LONG);
});

describe('unmanaged or panicked machine', () => {
  it('warns that the operation will not run immediately before saving; Cancel saves nothing, Continue saves', async () => {
    const machine = await newMachine();
    await api(`/accounts/${machine.accountId}/machines/${machine.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ managed: false }) });
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Component configs');
    const dialog = editor(page, 'Component Configs', machine);
    await valueOf(dialog, 'launcher.port').fill('9443');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const warning = page.locator('.ant-modal-confirm');
    await warning.locator('.ant-modal-confirm-title', { hasText: 'The operation will not run immediately' }).waitFor();
    await warning.getByText(`Machine ${machine.name} is unmanaged: operations on it wait until it is managed again.`).waitFor();
    expect(await warning.getByText('is in panic').count()).toBe(0);
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'hidden' });
    expect(await dialog.isVisible()).toBe(true);
    expect((await machineNow(machine.id)).config.componentConfig['launcher.port']).toBe(443);

    await dialog.getByRole('button', { name: 'Save' }).click();
    await warning.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Machine component config has been saved').waitFor();
    expect((await machineNow(machine.id)).config.componentConfig['launcher.port']).toBe(9443);

    // Managed again (and not in panic), it saves without the warning.
    await page.getByRole('switch', { name: `Managed for ${machine.name}` }).click();
    await page.getByText('Machine has been updated').waitFor();
    await openMenu(page, machine, 'Component configs');
    await valueOf(dialog, 'launcher.port').fill('8443');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The first save's message may still show (3 s): the server's value says this save happened.
    await expect.poll(async () => (await machineNow(machine.id)).config.componentConfig['launcher.port']).toBe(8443);
    await dialog.waitFor({ state: 'hidden' });
    expect(await warning.count()).toBe(0);
  }, LONG);

  it('does not warn when the list is behind: a machine managed again since the list was read saves at once', async () => {
    const machine = await newMachine();
    await api(`/accounts/${machine.accountId}/machines/${machine.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ managed: false }) });
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await expect.poll(() => row(page, machine).getByRole('switch', { name: `Managed for ${machine.name}` }).getAttribute('aria-checked')).toBe('false');
    // Managed again by someone else: this page's list still says unmanaged.
    await api(`/accounts/${machine.accountId}/machines/${machine.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ managed: true }) });
    await openMenu(page, machine, 'Component configs');
    const dialog = editor(page, 'Component Configs', machine);
    await valueOf(dialog, 'launcher.port').fill('7443');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await machineNow(machine.id)).config.componentConfig['launcher.port']).toBe(7443);
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    // The list shows it managed (a poll of the list sent before the change and answered after the
    // re-read may show it unmanaged for one more interval on a busy runner).
    await expect.poll(() => row(page, machine).getByRole('switch', { name: `Managed for ${machine.name}` }).getAttribute('aria-checked')).toBe('true');
  }, LONG);

  it('names the panic of a machine that needs admin attention', async () => {
    // Panic (needsAdmin) comes only from failing operations: take a seeded one, and change nothing.
    const machines = (await api<TListMachinesResponse>('/machines?limit=1000', adminToken)).items;
    const fits = (m: TMachine) => m.needsAdmin && m.managed && !('smokeTest.suite' in m.config.deployerConfig);
    const machine = machines.find((m) => fits(m) && m.classId === 2) ?? machines.find(fits);
    if (!machine) throw new Error('no machine in panic');
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'Deployer config');
    const dialog = editor(page, 'Deployer Config', machine);
    await dialog.getByLabel('Component', { exact: true }).waitFor();
    // Add a known key so that there is something to save.
    await addKey(page, dialog, 'smokeTest', 'suite', 'string');
    await valueOf(dialog, 'smokeTest.suite').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const warning = page.locator('.ant-modal-confirm');
    await warning.getByText(`Machine ${machine.name} is in panic: operations on it wait until its failure state is reset.`).waitFor();
    expect(await warning.getByText('is unmanaged').count()).toBe(0);
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await machineNow(machine.id)).config.deployerConfig).toEqual(machine.config.deployerConfig);
  }, LONG);
});
