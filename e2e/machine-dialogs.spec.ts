/**
 * The per-machine dialogs of the machines panel (spec 2 §2.3, §4, §5, §8, §9) in
 * Chromium against the real server: the Credential dialog (id_rsa, config.json,
 * 'Credentials not found'); the switch of MMA class with its confirmation; the
 * row menu itself (issue 24: titled groups in order, destructive entries red and
 * last, the menu inside a 900 px and a 720 px high window, the keyboard); and
 * what a viewer may not do. The Component Configs and Deployer Config editors
 * and the warning for unmanaged and panicked machines are in
 * `machine-config-editors.spec.ts`; fixtures in `machine-dialogs-fixtures.ts`
 * and `machine-panel.ts`.
 *
 * Every test that changes a machine creates its own account through the API
 * (draft, then create-from-draft: one AllInOne machine with the catalogue's
 * default configs), so tests do not depend on each other or on the seed.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Download, Locator, Page } from 'playwright-core';
import type { TListMachinesResponse, TMachine, TMachineCredential } from '@fleet/contracts';
import { adminToken, api, pagesPerTest, expectAccessible, openDropdown, useBrowserAndAdmin } from './browser.js';
import { machineNow, openMenu, row, statusOf } from './machine-panel.js';
import { closeLists, launched, LONG, newMachine, openAccount } from './machine-dialogs-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

async function downloaded(download: Download): Promise<string> {
  const path = await download.path();
  return readFile(path, 'utf8');
}

describe('Credential dialog', () => {
  it('masks the RDP password until revealed, downloads id_rsa with the private key and config.json with the configs', async () => {
    const machine = await newMachine();
    await launched(machine);
    const credential = await api<TMachineCredential>(`/machines/${machine.id}/credential`, adminToken);
    expect(credential.sshPrivateKey).toMatch(/^-----BEGIN [A-Z ]*PRIVATE KEY-----\n[\s\S]+\n-----END [A-Z ]*PRIVATE KEY-----\s*$/);

    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await openMenu(page, machine, 'View credential');
    const dialog = page.getByRole('dialog', { name: `Credential: ${machine.name}` });
    const password = dialog.getByLabel('RDP password', { exact: true });
    await password.waitFor();
    expect(await password.getAttribute('type')).toBe('password');
    expect(await password.inputValue()).toBe(credential.rdpPassword);
    await dialog.locator('.ant-input-password-icon').click();
    expect(await password.getAttribute('type')).toBe('text');

    const [key] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download id_rsa' }).click()]);
    expect(key.suggestedFilename()).toBe('id_rsa');
    const pem = await downloaded(key);
    expect(pem).toMatch(/^-----BEGIN [A-Z ]*PRIVATE KEY-----\n/);
    expect(pem.trim()).toBe(credential.sshPrivateKey.trim());

    const [configFile] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download config.json' }).click()]);
    expect(configFile.suggestedFilename()).toBe('config.json');
    const now = await machineNow(machine.id);
    expect(JSON.parse(await downloaded(configFile))).toEqual({ componentConfig: now.config.componentConfig, deployerConfig: now.config.deployerConfig });
    expect(await dialog.getByText('Credentials not found').count()).toBe(0);
  }, LONG);

  it("warns 'Credentials not found' for a machine without a credential, and still offers config.json", async () => {
    // Demo machines have no credential until recreated; take one the API confirms has none.
    // Only settled machines: a machine other specs are creating gets its credential at launch.
    const machines = (await api<TListMachinesResponse>('/machines?limit=200', adminToken)).items.filter(
      (m) => (m.classId === 1 || m.classId === 2) && m.instance?.status === 'running' && m.tasks.length === 0,
    );
    let machine: TMachine | undefined;
    for (const m of machines) {
      if ((await statusOf(`/machines/${m.id}/credential`, 'admin', 'GET')) === 404) {
        machine = m;
        break;
      }
    }
    if (!machine) throw new Error('no machine without a credential');

    const { page } = await openPage();
    await openAccount(page, 'admin', machine);
    await openMenu(page, machine, 'View credential');
    const dialog = page.getByRole('dialog', { name: `Credential: ${machine.name}` });
    await dialog.getByText('Credentials not found').waitFor();
    expect(await dialog.locator('.ant-alert-warning').count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Download id_rsa' }).count()).toBe(0);
    expect(await dialog.getByLabel('RDP password').count()).toBe(0);
    const [configFile] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download config.json' }).click()]);
    expect(configFile.suggestedFilename()).toBe('config.json');
    expect(JSON.parse(await downloaded(configFile))).toEqual({ componentConfig: machine.config.componentConfig, deployerConfig: machine.config.deployerConfig });
  }, LONG);
});

describe('Switch MMA class', () => {
  it('does nothing for the same class; another class asks first, and Cancel keeps the machine where it was', async () => {
    const machine = await newMachine();
    expect(machine.class.name).toBe('Experimental');
    const { page } = await openPage();
    let patches = 0;
    page.on('request', (req) => {
      if (req.method() === 'PATCH' && req.url().endsWith(`/machines/${machine.id}`)) patches += 1;
    });
    await openAccount(page, 'operator', machine);
    const dialog = page.getByRole('dialog', { name: 'Switch MMA class' });

    await openMenu(page, machine, 'Switch MMA class');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(patches).toBe(0);

    await openMenu(page, machine, 'Switch MMA class');
    const classes = openDropdown(page);
    await dialog.getByLabel('MMA class').click({ force: true });
    await classes.getByTitle('Internal Testing', { exact: true }).click();
    // The operator is not in CustomerProductionAccess: that class is not offered.
    await dialog.getByLabel('MMA class').click({ force: true });
    await classes.getByTitle('Internal Testing', { exact: true }).waitFor();
    expect(await classes.getByTitle('Customer Production', { exact: true }).count()).toBe(0);
    expect(await classes.getByTitle('Add-on Account', { exact: true }).count()).toBe(0);
    await closeLists(dialog);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText(`Switch machine ${machine.name} from MMA class Experimental to Internal Testing?`).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(patches).toBe(0);
    expect((await machineNow(machine.id)).classId).toBe(1);

    await dialog.getByRole('button', { name: 'Submit' }).click();
    await confirm.getByRole('button', { name: 'Switch' }).click();
    await page.getByText('Machine has been updated').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(patches).toBe(1);
    expect((await machineNow(machine.id)).class).toEqual({ id: 2, name: 'Internal Testing' });
    await row(page, machine).getByText('Internal Testing').waitFor();
  }, LONG);
});

describe('Row menu', () => {
  /** The row menu of a writer (spec 2 §2.3), group by group, in menu order. */
  const GROUPS: Record<string, string[]> = {
    Diagnostics: ['View tasks', 'Operation logs', 'View operations', 'Version info', 'Server status'],
    Data: ['Force backup', 'Create AMI', 'Publish sample data', 'Force populate', 'Restore backup', 'Reinstall sample data'],
    Configuration: ['Change instance type', 'Switch MMA class', 'Component configs', 'Deployer config', 'View credential'],
    Lifecycle: ['Queue operations', 'Test latest code', 'Reset failure', 'Reset last operation', 'Recreate', 'Terminate'],
  };
  const DESTRUCTIVE = new Set(['Restore backup', 'Reinstall sample data', 'Reset last operation', 'Recreate', 'Terminate']);

  /** The open row menu (the dropdown's list). */
  const openMenuList = (page: Page) => page.locator('.ant-dropdown:visible .ant-dropdown-menu');
  /** Whether the element's box lies inside the window (`height` px high) and, when given, inside `within`'s box. */
  async function boxInside(element: Locator, height: number, within?: Locator): Promise<boolean> {
    const box = await element.boundingBox();
    const outer = within ? await within.boundingBox() : { y: 0, height };
    if (!box || !outer) return false;
    const top = Math.max(0, outer.y);
    const bottom = Math.min(height, outer.y + outer.height);
    return box.y >= top - 0.5 && box.y + box.height <= bottom + 0.5;
  }
  /** The text of the focused element. */
  const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

  it('shows titled groups in order, the destructive entries red and last in their group, Terminate last of all', async () => {
    const machine = await newMachine();
    const { page } = await openPage();
    await openAccount(page, 'operator', machine);
    await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
    const menu = openMenuList(page);
    await menu.getByRole('menuitem').first().waitFor();
    // A menu opened near the window's bottom opens upwards, its last entry (Terminate) under the pointer that
    // clicked the button: hovered, a danger entry is white on red. The colours are read with the pointer away.
    await page.mouse.move(0, 0);
    const groups = await menu.locator('.ant-dropdown-menu-item-group').evaluateAll((elements) =>
      elements.map((group) => ({
        title: group.querySelector('.ant-dropdown-menu-item-group-title')?.textContent,
        entries: [...group.querySelectorAll('[role="menuitem"]')].map((item) => ({
          label: item.textContent,
          danger: item.classList.contains('ant-dropdown-menu-item-danger'),
          colour: getComputedStyle(item).color,
          disabled: item.getAttribute('aria-disabled') === 'true',
        })),
      })),
    );
    expect(groups.map((g) => g.title)).toEqual(Object.keys(GROUPS));
    for (const group of groups) {
      expect(group.entries.map((e) => e.label), group.title!).toEqual(GROUPS[group.title!]);
      expect(group.entries.filter((e) => e.danger).map((e) => e.label)).toEqual(GROUPS[group.title!]!.filter((l) => DESTRUCTIVE.has(l)));
      const firstDanger = group.entries.findIndex((e) => e.danger);
      if (firstDanger >= 0) expect(group.entries.slice(firstDanger).every((e) => e.danger), group.title!).toBe(true);
    }
    const entries = groups.flatMap((g) => g.entries);
    expect(entries.at(-1)?.label).toBe('Terminate');
    // Red: the destructive entries' text is the error colour (red over green and blue), the others' is not.
    const reddish = (colour: string) => {
      const [r, g, b] = colour.match(/\d+/g)!.map(Number);
      return r! > 150 && r! > 2 * g! && r! > 2 * b!;
    };
    // A disabled entry is grey, danger or not (antd): the colours are compared on the enabled ones.
    const enabled = entries.filter((e) => !e.disabled);
    expect(enabled.filter((e) => reddish(e.colour)).map((e) => e.label)).toEqual(enabled.filter((e) => e.danger).map((e) => e.label));
    await expectAccessible(page, 'machine row menu', { within: '.ant-dropdown:not(.ant-dropdown-hidden)' });
  }, LONG);

  it('fits a 1440×900 and a 1280×720 window: the menu scrolls inside itself and every entry can be reached', async () => {
    const machine = await newMachine();
    for (const [width, height] of [
      [1440, 900],
      [1280, 720],
    ] as const) {
      const { page } = await openPage({ width, height });
      await openAccount(page, 'admin', machine);
      const machineRow = row(page, machine);
      const menu = openMenuList(page);
      // The row at the top of the window, then at its bottom (as far as the page scrolls).
      for (const block of ['start', 'end'] as const) {
        await machineRow.evaluate((element, at) => element.scrollIntoView({ block: at }), block);
        await machineRow.getByRole('button', { name: `Actions for ${machine.name}` }).click();
        await menu.getByRole('menuitem', { name: 'View tasks' }).waitFor();
        const at = `${width}×${height}, row at the ${block}`;
        await expect.poll(() => boxInside(menu, height), { message: at }).toBe(true);
        await expect.poll(() => boxInside(menu.getByRole('menuitem', { name: 'View tasks' }), height, menu), { message: at }).toBe(true);
        // Scrolled to its end inside itself, the menu shows its last entry inside the window.
        await menu.evaluate((element) => (element.scrollTop = element.scrollHeight));
        await expect.poll(() => boxInside(menu.getByRole('menuitem', { name: 'Terminate' }), height, menu), { message: at }).toBe(true);
        expect(await boxInside(menu, height), at).toBe(true);
        const { scrolls } = await menu.evaluate((element) => ({ scrolls: element.scrollHeight > element.clientHeight }));
        // 22 entries and 4 titles are taller than 720 px: there the menu must scroll.
        if (height === 720) expect(scrolls, at).toBe(true);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
      }
    }
  }, LONG);

  it('works from the keyboard: Enter opens, arrow keys and End move (scrolling the menu), Enter opens the entry, Escape closes', async () => {
    const machine = await newMachine();
    // Terminate is disabled while CreateMachine runs: wait for the launch.
    await launched(machine);
    const height = 720;
    const { page } = await openPage({ width: 1280, height });
    let terminates = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes(`/machines/${machine.id}/terminate`)) terminates += 1;
    });
    await openAccount(page, 'admin', machine);
    const button = row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` });
    await expect.poll(() => row(page, machine).getByRole('button', { name: `Stop ${machine.name}` }).isEnabled(), { timeout: LONG }).toBe(true);
    const menu = openMenuList(page);

    await button.focus();
    await page.keyboard.press('Enter');
    await menu.getByRole('menuitem', { name: 'View tasks' }).waitFor();
    // The menu takes the focus as it opens, on its first entry: the arrow keys move through the entries at once.
    await expect.poll(() => focusedText(page)).toBe('View tasks');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedText(page)).toBe('Operation logs');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focusedText(page)).toBe('View tasks');
    // Down across the group titles into Data.
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedText(page)).toBe('Force backup');
    // End: the last entry, scrolled into view inside the menu and the window.
    await page.keyboard.press('End');
    await expect.poll(() => focusedText(page)).toBe('Terminate');
    await expect.poll(() => boxInside(menu.getByRole('menuitem', { name: 'Terminate' }), height, menu)).toBe(true);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Terminate machine' });
    await confirm.getByText(`This will terminate machine ${machine.name} and its cloud instance.`).waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });

    // Escape closes the menu and gives the focus back to its button.
    await button.focus();
    await page.keyboard.press('Enter');
    await menu.getByRole('menuitem', { name: 'View tasks' }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(terminates).toBe(0);
    expect((await machineNow(machine.id)).terminate).toBe(false);
  }, LONG);
});

describe('without write permission', () => {
  it('offers a viewer only View operations, and the server refuses the dialogs calls (403)', async () => {
    const machine = await newMachine();
    const { page } = await openPage();
    await openAccount(page, 'viewer', machine);
    // The row menu offers a viewer View operations only (spec 2 §2.3), and no Start / Stop.
    await page.getByRole('button', { name: `Actions for ${machine.name}` }).click();
    const entries = page.locator('.ant-dropdown:visible').getByRole('menuitem');
    await entries.first().waitFor();
    expect(await entries.allInnerTexts()).toEqual(['View operations']);
    expect(await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item-group-title').allInnerTexts()).toEqual(['Diagnostics']);
    expect(await row(page, machine).getByRole('button', { name: /^(Start|Stop) / }).count()).toBe(0);

    const config = machine.config.componentConfig;
    expect(await statusOf(`/machines/${machine.id}/component-config`, 'viewer', 'PUT', { componentConfig: { ...config, 'launcher.port': 1 } })).toBe(403);
    expect(await statusOf(`/machines/${machine.id}/deployer-config`, 'viewer', 'PUT', { deployerConfig: machine.config.deployerConfig })).toBe(403);
    expect(await statusOf('/component-configs', 'viewer', 'POST', { rootKey: 'viewerKeys', subKey: 'one', dataType: null })).toBe(403);
    expect(await statusOf('/deployer-configs', 'viewer', 'POST', { rootKey: 'viewerKeys', subKey: 'one', dataType: null })).toBe(403);
    expect(await statusOf(`/machines/${machine.id}/credential`, 'viewer', 'GET')).toBe(403);
    expect(await statusOf(`/accounts/${machine.accountId}/machines/${machine.id}`, 'viewer', 'PATCH', { classId: 2 })).toBe(403);
    const after = await machineNow(machine.id);
    expect(after.config).toEqual(machine.config);
    expect(after.classId).toBe(machine.classId);
    // The same PUT as an operator succeeds: the 403 is the permission, not the body.
    expect(await statusOf(`/machines/${machine.id}/component-config`, 'operator', 'PUT', { componentConfig: { ...config, 'launcher.port': 1 } })).toBe(200);
  }, LONG);
});
