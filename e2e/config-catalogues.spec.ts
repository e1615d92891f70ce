/**
 * The Component Configs and Deployer Configs screens (spec 3 §2.5, §4 "Config
 * dialogs", §5, §8) in Chromium against the real server: the lists sorted by
 * key with their columns and search; creating, editing and deleting
 * definitions as admin, the editor with each data type, the Variables menu, the
 * JSON parse errors, a data type change resetting the defaults, the Linux
 * override; an edit sending only the editable fields; a delete refused while
 * machines hold the key; and a viewer reading without being able to write.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TComponentConfigDefinition, TDeployerConfigDefinition, TListComponentConfigDefinitionsResponse } from '@fleet/contracts';
import { adminToken, api, apiToken, baseUrl, chooseOption, expectAccessible, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

let viewerToken: string;
useBrowserAndAdmin();
beforeAll(async () => {
  viewerToken = await apiToken('viewer');
});
const openPage = pagesPerTest();

const ROWS = '.ant-table-tbody tr[data-row-key]';
const unique = () => `k${Date.now()}${Math.floor(Math.random() * 1000)}`;
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

const definitions = async (kind: 'component' | 'deployer', search: string) =>
  (await api<TListComponentConfigDefinitionsResponse>(`/${kind}-configs?limit=1000&search=${encodeURIComponent(search)}`, adminToken)).items;
const createDefinition = <T>(kind: 'component' | 'deployer', body: Record<string, unknown>) =>
  api<T>(`/${kind}-configs`, adminToken, { method: 'POST', body: JSON.stringify(body) });

/** Signs in on a catalogue screen and waits for its rows. */
async function openList(page: Page, path: string, user = 'admin') {
  await signIn(page, user, user, path);
  await page.locator(ROWS).first().waitFor();
}

/** The rows of the table as `rootKey.subKey`. */
async function rowKeys(page: Page): Promise<string[]> {
  const roots = await page.locator(`${ROWS} td:nth-child(1)`).allInnerTexts();
  const subs = await page.locator(`${ROWS} td:nth-child(2)`).allInnerTexts();
  return roots.map((r, i) => `${r}.${subs[i]}`);
}

/** Types `text` in the search box and waits until every row shown contains it (any case). */
async function search(page: Page, text: string) {
  await page.getByLabel('Search rootKey.subKey').fill(text);
  await page.waitForURL((url) => url.hash.includes(`search=${encodeURIComponent(text)}`));
  await expect.poll(async () => (await rowKeys(page)).every((k) => k.toLowerCase().includes(text.toLowerCase())), { timeout: 10_000 }).toBe(true);
}

const dialogOf = (page: Page, title: string) => page.getByRole('dialog', { name: title });

async function save(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Replaces the text of the JSON editor labelled `label` (inserted as typed text, without auto-closed brackets). */
async function setJson(dialog: Locator, label: string, text: string) {
  const editor = dialog.getByTestId(`json-editor-${label}`).locator('.cm-content');
  await editor.click();
  await dialog.page().keyboard.press('ControlOrMeta+A');
  await dialog.page().keyboard.press('Backspace');
  if (text) await dialog.page().keyboard.insertText(text);
}

describe('Component Configs as admin', () => {
  it('lists the definitions sorted by rootKey.subKey with their columns, and searches a substring of the key', async () => {
    const { page } = await openPage();
    await openList(page, '/lists/component-configs');
    await expect.poll(() => page.locator('.ant-card-head-title').innerText()).toBe('Component Configs');
    const headers = await page.locator('.ant-table-thead th').allInnerTexts();
    expect(headers.map((h) => h.trim()).filter(Boolean)).toEqual(['Root Key', 'Sub Key', 'Data Type', 'Protected', 'Site Specific', 'Version', 'SAAS', 'On-prem', 'Linux']);
    const keys = await rowKeys(page);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    await expectAccessible(page, 'Component Configs');

    await search(page, 'MASTER.PO');
    expect(await rowKeys(page)).toEqual(['siteMaster.port']);
    const row = page.locator(ROWS).first();
    expect(await row.locator('td:nth-child(3)').innerText()).toBe('number');
    expect(await row.locator('td:nth-child(9)').innerText()).toBe('Inherits default');

    await search(page, 'launcher.enableSso');
    // The version tag is coloured by the version's status (8.1 is Released in the seed).
    const tag = page.locator(ROWS).first().locator('.ant-tag').first();
    expect(await tag.innerText()).toBe('8.1');
    expect(await tag.getAttribute('class')).toMatch(/ant-tag-(green|blue|orange)/);

    // The search stays in the URL: a reload shows the same rows.
    await page.reload();
    await page.locator(ROWS).first().waitFor();
    expect(await page.getByLabel('Search rootKey.subKey').inputValue()).toBe('launcher.enableSso');
    expect(await rowKeys(page)).toEqual(['launcher.enableSso']);
  });

  it('creates a string config with the Variables menu and a Linux override', async () => {
    const { page } = await openPage();
    const subKey = unique();
    await openList(page, '/lists/component-configs');
    await page.getByRole('button', { name: 'Create New' }).click();
    const dialog = dialogOf(page, 'Create Component Config');
    await dialog.getByLabel('Root Key').fill('e2eConfigs');
    await dialog.getByLabel('Sub Key').fill(subKey);
    const saas = dialog.getByLabel('SAAS default value', { exact: true });
    await saas.fill('https://.example.com');
    // The variable goes where the cursor is.
    await saas.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(8, 8));
    await dialog.getByRole('button', { name: 'Variables for SAAS default value' }).click();
    const menu = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item');
    expect(await menu.allInnerTexts()).toEqual(['protocol', 'account_name', 'account_url_name', 'site_name', 'site_url_name', 'site_port']);
    await menu.filter({ hasText: 'account_url_name' }).click();
    expect(await saas.inputValue()).toBe('https://{account_url_name}.example.com');
    await dialog.getByLabel('On-prem default value', { exact: true }).fill('http://onprem');
    await dialog.getByLabel('Site Specific').click();

    expect(await dialog.getByLabel('Linux value', { exact: true }).count()).toBe(0);
    await dialog.getByRole('checkbox', { name: 'Linux override' }).check();
    await dialog.getByLabel('Linux value', { exact: true }).fill('linux-{site_name}');
    await save(dialog);
    await toast(page, 'Component config saved').waitFor();

    const [created] = await definitions('component', `e2eConfigs.${subKey}`);
    expect(created).toMatchObject({
      dataType: null,
      siteSpecific: true,
      saasDefaultValue: 'https://{account_url_name}.example.com',
      onPremDefaultValue: 'http://onprem',
      linuxSpecificValue: 'linux-{site_name}',
    });
    await search(page, subKey);
    expect(await rowKeys(page)).toEqual([`e2eConfigs.${subKey}`]);
  });

  it('resets the defaults when the data type changes, and the Linux override follows the type', async () => {
    const { page } = await openPage();
    await openList(page, '/lists/component-configs');
    await page.getByRole('button', { name: 'Create New' }).click();
    const dialog = dialogOf(page, 'Create Component Config');
    await dialog.getByLabel('SAAS default value', { exact: true }).fill('text');
    await dialog.getByRole('checkbox', { name: 'Linux override' }).check();

    await chooseOption(page, dialog.getByLabel('Data Type'), 'number', { exact: true });
    expect(await dialog.getByLabel('SAAS default value', { exact: true }).inputValue()).toBe('0');
    expect(await dialog.getByLabel('Linux value', { exact: true }).inputValue()).toBe('0');

    await chooseOption(page, dialog.getByLabel('Data Type'), 'boolean', { exact: true });
    const saasRadio = dialog.getByRole('radiogroup', { name: 'SAAS default value' });
    expect(await saasRadio.getByRole('radio', { name: 'false' }).isChecked()).toBe(true);
    expect(await saasRadio.getByRole('radio').count()).toBe(3);

    await chooseOption(page, dialog.getByLabel('Data Type'), 'json', { exact: true });
    await dialog.getByTestId('json-editor-SAAS default value').locator('.cm-content').waitFor();
    expect(await dialog.getByTestId('json-editor-SAAS default value').locator('.cm-content').innerText()).toBe('{}');

    await dialog.getByRole('checkbox', { name: 'Linux override' }).uncheck();
    expect(await dialog.getByTestId('json-editor-Linux value').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('edits a config of each data type; key and type are locked and only the editable fields are sent', async () => {
    const suffix = unique();
    const made = await Promise.all(
      (['number', 'boolean', 'json'] as const).map((dataType) =>
        createDefinition<TComponentConfigDefinition>('component', { rootKey: 'e2eTypes', subKey: `${dataType}${suffix}`, dataType }),
      ),
    );
    const { page } = await openPage();
    const puts: Record<string, unknown>[] = [];
    await page.route('**/api/v1/component-configs/*', (route) => {
      if (route.request().method() === 'PUT') puts.push(route.request().postDataJSON() as Record<string, unknown>);
      return route.continue();
    });
    await openList(page, '/lists/component-configs');
    await search(page, suffix);
    expect(await rowKeys(page)).toEqual([`e2eTypes.boolean${suffix}`, `e2eTypes.json${suffix}`, `e2eTypes.number${suffix}`]);

    // number
    await page.getByRole('button', { name: `Edit e2eTypes.number${suffix}` }).click();
    let dialog = dialogOf(page, 'Edit Component Config');
    expect(await dialog.getByLabel('Root Key').isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Sub Key').isDisabled()).toBe(true);
    expect(await dialog.locator('.ant-select-disabled').count()).toBe(1);
    await dialog.getByLabel('SAAS default value', { exact: true }).fill('42');
    await dialog.getByLabel('On-prem default value', { exact: true }).fill('7');
    await save(dialog);
    await toast(page, 'Component config saved').waitFor();

    // boolean
    await page.getByRole('button', { name: `Edit e2eTypes.boolean${suffix}` }).click();
    dialog = dialogOf(page, 'Edit Component Config');
    await dialog.getByRole('radiogroup', { name: 'SAAS default value' }).getByRole('radio', { name: 'null' }).check();
    await dialog.getByRole('radiogroup', { name: 'On-prem default value' }).getByRole('radio', { name: 'true' }).check();
    await save(dialog);

    // json: a parse error is shown and keeps Save disabled until fixed
    await page.getByRole('button', { name: `Edit e2eTypes.json${suffix}` }).click();
    dialog = dialogOf(page, 'Edit Component Config');
    await setJson(dialog, 'SAAS default value', '{"mapView": tru');
    await dialog.getByRole('alert').filter({ hasText: 'Must be valid JSON' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await setJson(dialog, 'SAAS default value', '{"mapView": true, "url": "{protocol}://{account_url_name}"}');
    await dialog.getByRole('alert').waitFor({ state: 'detached' });
    await setJson(dialog, 'On-prem default value', '[1, 2]');
    await expectAccessible(page, 'Edit Component Config (json)', { within: '.ant-modal' });
    await save(dialog);

    const after = await definitions('component', suffix);
    const byType = Object.fromEntries(after.map((d) => [d.dataType, d]));
    expect(byType.number).toMatchObject({ saasDefaultValue: '42', onPremDefaultValue: '7' });
    expect(byType.boolean).toMatchObject({ saasDefaultValue: 'null', onPremDefaultValue: 'true' });
    expect(byType.json).toMatchObject({ saasDefaultValue: '{"mapView": true, "url": "{protocol}://{account_url_name}"}', onPremDefaultValue: '[1, 2]' });
    expect(puts).toHaveLength(3);
    for (const body of puts) {
      expect(Object.keys(body).sort()).toEqual(['deprecatedAtVersionId', 'linuxSpecificValue', 'onPremDefaultValue', 'protected', 'saasDefaultValue', 'siteSpecific', 'versionId']);
    }
    expect(made).toHaveLength(3);
  });

  it('deletes a config after the confirmation, and shows why one still in use is refused', async () => {
    const subKey = unique();
    await createDefinition<TComponentConfigDefinition>('component', { rootKey: 'e2eDelete', subKey, dataType: null });
    const { page } = await openPage();
    await openList(page, `/lists/component-configs?search=e2eDelete.${subKey}`);
    await page.getByRole('button', { name: `Delete e2eDelete.${subKey}` }).click();
    const confirm = page.locator('.ant-popconfirm:visible');
    expect(await confirm.locator('.ant-popconfirm-title').innerText()).toBe('Are you sure you want to delete this component config?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Component config deleted').waitFor();
    await page.locator(ROWS).first().waitFor({ state: 'detached' });
    expect(await definitions('component', `e2eDelete.${subKey}`)).toEqual([]);

    await search(page, 'launcher.port');
    await page.getByRole('button', { name: 'Delete launcher.port' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete' }).click();
    const refused = toast(page, 'Error occurred deleting component config');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('launcher.port is still used by');
    expect(await rowKeys(page)).toEqual(['launcher.port']);
  });
});

describe('Deployer Configs as admin', () => {
  it('shows one default per config and edits it with the same dialog', async () => {
    const subKey = unique();
    await createDefinition<TDeployerConfigDefinition>('deployer', { rootKey: 'e2eDeployer', subKey, dataType: null, defaultValue: 'stable' });
    const { page } = await openPage();
    await openList(page, `/lists/deployer-configs?search=${subKey}`);
    const headers = (await page.locator('.ant-table-thead th').allInnerTexts()).map((h) => h.trim()).filter(Boolean);
    expect(headers).toEqual(['Root Key', 'Sub Key', 'Data Type', 'Protected', 'Version', 'Default']);
    await page.getByRole('button', { name: `Edit e2eDeployer.${subKey}` }).click();
    const dialog = dialogOf(page, 'Edit Component Config');
    expect(await dialog.getByLabel('Site Specific').count()).toBe(0);
    expect(await dialog.getByRole('checkbox', { name: 'Linux override' }).count()).toBe(0);
    await dialog.getByLabel('Default value', { exact: true }).fill('beta-{account_name}');
    await dialog.getByLabel('Protected').click();
    await save(dialog);
    await toast(page, 'Component config saved').waitFor();
    const saved = await api<TDeployerConfigDefinition>(`/deployer-configs/e2eDeployer.${subKey}`, adminToken);
    expect(saved).toMatchObject({ defaultValue: 'beta-{account_name}', protected: true });
    await page.locator(ROWS).first().locator('td:nth-child(6)').filter({ hasText: 'beta-{account_name}' }).waitFor();
  });
});

describe('as viewer', () => {
  it('reads the lists without Create, Edit or Delete, and the server refuses writes', async () => {
    const { page } = await openPage();
    await openList(page, '/lists/component-configs', 'viewer');
    expect(await page.getByRole('button', { name: 'Create New' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
    await page.goto('/#/lists/deployer-configs');
    await page.locator(ROWS).first().waitFor();
    expect(await page.getByRole('button', { name: 'Create New' }).count()).toBe(0);

    const [port] = await definitions('component', 'launcher.port');
    const res = await fetch(`${baseUrl()}/api/v1/component-configs/${port!.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${viewerToken}` },
    });
    expect(res.status).toBe(403);
  });
});
