/**
 * The image catalogues in the console (spec 3 §2.2 IRMN Versions, §2.3 SaaS
 * Images, §2.4 Cloud Images, §5 confirmations, §8 toasts; Instance Types) in
 * Chromium against the real server: as admin, create, edit, duplicate, delete,
 * search and the region filter where the screen has them, and the refusals of a
 * record in use; as viewer, read-only screens (no write button) and the server
 * refusing the calls.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TCloudImage, TIrmnVersion, TSaasImage } from '@fleet/contracts';
import { LONG } from './accessibility-fixtures.js';
import { adminToken, api, apiToken, baseUrl, chooseOption, expectAccessible, pagesPerTest, settled, signIn, TEST_IMAGE, useBrowserAndAdmin } from './browser.js';

let viewerToken: string;
useBrowserAndAdmin();
beforeAll(async () => {
  viewerToken = await apiToken('viewer');
});
const openPage = pagesPerTest();

const ROWS = '.ant-table-tbody tr[data-row-key]';
const row = (page: Page, text: string) => page.locator(ROWS).filter({ hasText: text });
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();
/** The antd Select within `scope` labelled `label`. */
const select = (scope: Locator, label: string) => scope.locator('.ant-select', { has: scope.page().getByLabel(label, { exact: true }) });

/** Moves to `path` by its hash, as a link does: no reload, so the console keeps its query cache. */
async function goInApp(page: Page, path: string) {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, `#${path}`);
  await page.waitForURL((url) => url.hash.startsWith(`#${path}`));
}

/** Confirms the open confirmation, after checking its text. */
async function confirm(page: Page, text: string) {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.getByText(text, { exact: true }).waitFor();
  await dialog.getByRole('button', { name: 'Delete' }).click();
}

/** The first column's texts of the table's rows, once it has settled. */
async function firstCells(page: Page): Promise<string[]> {
  await page.locator('.ant-table-tbody .ant-spin-spinning').waitFor({ state: 'detached' }).catch(() => undefined);
  return page.locator(`${ROWS} td:first-child`).allInnerTexts();
}

/** A status code of an API call (the viewer's refusals). */
async function status(path: string, token: string, init: RequestInit = {}): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return (await fetch(`${baseUrl()}/api/v1${path}`, { ...init, headers })).status;
}

describe('IRMN Versions', () => {
  it('admin creates, edits (one default at a time) and deletes a version; a version in use is refused with its users', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/lists/irmn-versions');
    await row(page, '8.1').first().waitFor();
    // Unique per attempt: a retried test finds the first attempt's version.
    const name = `9.${Date.now() % 100_000}`;
    const renamed = `${name}.1`;

    await page.getByRole('button', { name: 'Create New' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create or Edit Version' });
    await dialog.getByLabel('Name').fill(name);
    await chooseOption(page, select(dialog, 'Status'), 'Planned');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'IRMN version saved').waitFor();
    await row(page, name).getByText('Planned').waitFor();

    await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Create or Edit Version' });
    await dialog.getByLabel('Name').fill(renamed);
    await chooseOption(page, select(dialog, 'Status'), 'Released');
    await dialog.getByLabel('Default').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row(page, renamed).getByLabel('Default').waitFor();
    await expect.poll(() => page.locator(`${ROWS} [aria-label="Default"]`).count()).toBe(1);
    await row(page, renamed).getByText('Released').waitFor();

    // Back to the seeded default, through the dialog.
    await page.getByRole('button', { name: 'Edit 8.1', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Create or Edit Version' });
    await dialog.getByLabel('Default').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator(ROWS).filter({ has: page.getByRole('button', { name: 'Edit 8.1', exact: true }) }).getByLabel('Default').waitFor();
    expect((await api<TIrmnVersion[]>('/irmn-versions', adminToken)).filter((v) => v.default).map((v) => v.name)).toEqual(['8.1']);

    await page.getByRole('button', { name: `Delete ${renamed}`, exact: true }).click();
    await confirm(page, `Are you sure you want to delete this IRMN version: ${renamed}`);
    await toast(page, 'IRMN version deleted').waitFor();
    await row(page, renamed).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Delete 8.1', exact: true }).click();
    await confirm(page, 'Are you sure you want to delete this IRMN version: 8.1');
    const refused = toast(page, 'Error occurred deleting IRMN version');
    await refused.getByText(/IRMN version 8\.1 is still used by \d+ SaaS images/).waitFor();
    expect(await page.getByRole('button', { name: 'Edit 8.1', exact: true }).count()).toBe(1);
  });

  it('viewer sees the versions without write buttons, and the server refuses the changes', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', '/lists/irmn-versions');
    await row(page, '8.1').first().waitFor();
    expect(await page.getByRole('button', { name: 'Create New' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
    const [version] = await api<TIrmnVersion[]>('/irmn-versions', viewerToken);
    expect(await status('/irmn-versions', viewerToken, { method: 'POST', body: JSON.stringify({ name: '9.8', status: 'Planned', default: false }) })).toBe(403);
    expect(await status(`/irmn-versions/${version!.id}`, viewerToken, { method: 'DELETE' })).toBe(403);
  });
});

describe('SaaS Images', () => {
  it('searches (debounced, case-insensitive) and filters by region, keeping both in the URL', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', '/lists/saas-images');
    await row(page, TEST_IMAGE).waitFor();
    await page.getByLabel('Search images').fill('UBUNTU');
    await expect.poll(async () => (await firstCells(page)).every((t) => t.includes('ubuntu')) && (await firstCells(page)).length === 2).toBe(true);
    await page.waitForURL((url) => url.hash.includes('search=UBUNTU'));
    await page.getByLabel('Search images').fill('');
    await chooseOption(page, select(page.locator('.ant-card'), 'Region'), 'EU (Ireland)');
    await page.waitForURL((url) => url.hash.includes('region=eu-west-1'));
    const expected = (await api<TSaasImage[]>('/cloud/images?region=eu-west-1', viewerToken)).map((i) => i.name);
    await expect.poll(async () => (await firstCells(page)).map((t) => t.split('\n')[0])).toEqual(expected);
  });

  it("admin creates an image with the defaults (which the accounts list's image filter then offers), edits it, duplicates it and deletes the copy; an image in use is refused", async () => {
    const { page } = await openPage();
    // The accounts list's image filter reads the same catalogue: it is cached before the change.
    await signIn(page, 'admin', 'admin', '/');
    await page.getByRole('combobox', { name: 'SaaS image' }).waitFor();
    await goInApp(page, '/lists/saas-images');
    await page.locator('.ant-card-head-title', { hasText: 'SaaS Images' }).waitFor();
    await row(page, TEST_IMAGE).waitFor();
    const name = `e2e-image-${Date.now() % 1_000_000}`;

    await page.getByRole('button', { name: 'Create New' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create or Edit SaaS Image' });
    expect(await dialog.getByRole('radio', { name: 'Windows' }).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Active').getAttribute('aria-checked')).toBe('true');
    expect(await dialog.getByLabel('Official').getAttribute('aria-checked')).toBe('false');
    expect(await dialog.getByLabel('Jump-start').isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Description').fill('Made by the e2e test');
    await chooseOption(page, select(dialog, 'IRMN version'), '8.1', { exact: true });
    await chooseOption(page, select(dialog, 'Cloud image'), 'irmn-8.0.5-win2019-use1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Image saved').waitFor();
    const created = row(page, name);
    await created.getByText('Made by the e2e test').waitFor();
    expect(await created.getByLabel('Active').count()).toBe(1);
    expect(await created.getByLabel('Official').count()).toBe(0);

    // Without a reload, the other screen's cached list follows the change.
    await goInApp(page, '/account/list');
    await page.getByRole('combobox', { name: 'SaaS image' }).fill(name);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).waitFor();
    await page.keyboard.press('Escape');
    await goInApp(page, '/lists/saas-images');
    await page.locator('.ant-card-head-title', { hasText: 'SaaS Images' }).waitFor();
    await created.waitFor();

    await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Create or Edit SaaS Image' });
    expect(await dialog.getByLabel('Name').isDisabled()).toBe(true);
    await dialog.getByLabel('Official').click();
    await dialog.locator('label').filter({ hasText: 'Linux' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await created.getByText('Linux').waitFor();
    await created.getByLabel('Official').waitFor();

    await page.getByRole('button', { name: `Duplicate ${name}`, exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Create or Edit SaaS Image' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe(name);
    expect(await dialog.getByLabel('Description').inputValue()).toBe('Copy of Made by the e2e test');
    expect(await dialog.getByLabel('Official').getAttribute('aria-checked')).toBe('false');
    await dialog.getByLabel('Name').fill(`${name}-copy`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const copy = row(page, `${name}-copy`);
    await copy.getByText('Copy of Made by the e2e test').waitFor();
    await copy.getByText('Linux').waitFor();

    await page.getByRole('button', { name: `Delete ${name}-copy` }).click();
    await confirm(page, `Are you sure you want to delete this image: ${name}-copy`);
    await toast(page, 'Image deleted').waitFor();
    await copy.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Delete ${TEST_IMAGE}`, exact: true }).click();
    await confirm(page, `Are you sure you want to delete this image: ${TEST_IMAGE}`);
    await toast(page, 'Error occurred deleting image').getByText(new RegExp(`^Image ${TEST_IMAGE} is still used by \\d+ accounts`)).waitFor();
    expect(await row(page, TEST_IMAGE).count()).toBeGreaterThan(0);
  });

  it('shows the jump-start config with the deployer version picker of a jump-start image', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/lists/saas-images');
    await page.getByRole('button', { name: 'Edit js-8.1.3-campus-use1', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create or Edit SaaS Image' });
    await dialog.getByText('Jump-start config').waitFor();
    await dialog.getByText('Deployer version', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Jump-start').getAttribute('aria-checked')).toBe('true');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('viewer sees the images without write buttons, and the server refuses the changes', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', '/lists/saas-images');
    await row(page, TEST_IMAGE).waitFor();
    expect(await page.getByRole('button', { name: 'Create New' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Duplicate|Delete) / }).count()).toBe(0);
    const image = (await api<TSaasImage[]>('/cloud/images', viewerToken)).find((i) => i.name === TEST_IMAGE)!;
    expect(await status(`/cloud/images/${image.id}`, viewerToken, { method: 'PUT', body: JSON.stringify(image) })).toBe(403);
    expect(await status(`/cloud/images/${image.id}`, viewerToken, { method: 'DELETE' })).toBe(403);
  });
});

describe('Cloud Images', () => {
  it('admin searches the cloud images and deletes one no SaaS image uses; one in use is refused', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/lists/cloud-images');
    await row(page, 'irmn-8.1.3-win2022-usw2').waitFor();
    await page.getByLabel('Search cloud images').fill('CAA-AGENT');
    await expect.poll(async () => (await firstCells(page)).length).toBe(1);
    const agent = (await api<TCloudImage[]>('/cloud/caa-images?name=caa-agent', adminToken))[0]!;
    await row(page, agent.id).getByText('available').waitFor();
    await page.getByRole('button', { name: `Delete ${agent.name}` }).click();
    await confirm(page, `Are you sure you want to delete this cloud image: ${agent.name} (${agent.id})`);
    await toast(page, 'Image deleted').waitFor();
    await row(page, agent.id).waitFor({ state: 'detached' });

    await page.getByLabel('Search cloud images').fill('win2022-usw2');
    await expect.poll(async () => (await firstCells(page)).length).toBe(1);
    await page.getByRole('button', { name: 'Delete irmn-8.1.3-win2022-usw2' }).click();
    const usw2 = (await api<TCloudImage[]>('/cloud/caa-images?name=win2022-usw2', adminToken))[0]!;
    await confirm(page, `Are you sure you want to delete this cloud image: ${usw2.name} (${usw2.id})`);
    await toast(page, 'Error occurred deleting image').getByText(/is still used by 1 SaaS image \(irmn-8\.1\.3-win2022-usw2\)/).waitFor();
  });

  it('viewer sees the cloud images without delete buttons, and the server refuses a delete', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', '/lists/cloud-images');
    await row(page, 'irmn-8.1.3-win2022-usw2').waitFor();
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    expect(await status('/cloud/caa-images?name=irmn-8.0.5-win2019-use1&region=us-east-1', viewerToken, { method: 'DELETE' })).toBe(403);
  });
});

describe('Instance Types', () => {
  it.each(['admin', 'viewer'])('shows the machine and Redis instance types read-only to %s', async (user) => {
    const { page } = await openPage();
    await signIn(page, user, user, '/lists/instance-types');
    const machines = page.locator('.ant-card').filter({ has: page.getByText('Instance types', { exact: true }) }).last();
    await machines.locator(ROWS).filter({ hasText: 't2.medium' }).waitFor();
    const redis = page.locator('.ant-card').filter({ has: page.getByText('Redis instance types', { exact: true }) }).last();
    await redis.locator(ROWS).first().waitFor();
    expect(await page.getByRole('button', { name: /Create|Edit|Delete/ }).count()).toBe(0);
  });
});

describe('accessibility', () => {
  // Six axe runs, seconds of CPU each on a loaded runner: as long as the accessibility specs' tests (60 s timed out once).
  it('each screen and its dialogs have no serious or critical axe violation', { timeout: LONG }, async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/lists/irmn-versions');
    await row(page, '8.1').first().waitFor();
    await expectAccessible(page, 'IRMN Versions');
    await page.getByRole('button', { name: 'Edit 8.1', exact: true }).click();
    await expectAccessible(page, 'Create or Edit Version', { within: '.ant-modal' });
    await page.keyboard.press('Escape');
    for (const [path, screen] of [
      ['/lists/saas-images', 'SaaS Images'],
      ['/lists/cloud-images', 'Cloud Images'],
      ['/lists/instance-types', 'Instance Types'],
    ] as const) {
      await goInApp(page, path);
      await page.locator('.ant-card-head-title', { hasText: screen }).first().waitFor();
      await page.locator(ROWS).first().waitFor();
      await settled(page);
      await expectAccessible(page, screen);
    }
    await goInApp(page, '/lists/saas-images');
    await page.getByRole('button', { name: 'Edit js-8.1.3-campus-use1', exact: true }).click();
    await page.getByRole('dialog', { name: 'Create or Edit SaaS Image' }).getByText('Deployer version', { exact: true }).waitFor();
    await expectAccessible(page, 'Create or Edit SaaS Image', { within: '.ant-modal' });
  });
});
