/**
 * Create account (spec 1 §2 Create account, §3 Creation payload, §4 draft →
 * preview → created, §5) in Chromium against the real server: an AllInOne
 * account from scratch through the image picker, an InstancePerSiteMaster
 * account with two sites and a component config adjusted in the preview (and
 * Back keeping the values), an add-on account (properties and license only),
 * the form's validation and a server error on its field, and the route guard
 * for a viewer.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TAccountDetail, TMachine } from '@fleet/contracts';
import { adminToken, api, pagesPerTest, chooseOption, openDropdown, signIn, TEST_IMAGE, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

const PAGE_LOAD = { timeout: 40_000 };
const section = (page: Page, title: string) => page.getByRole('region', { name: title });

/** Fills the required properties: display name (the URL name follows) and contact. */
async function fillProperties(page: Page, name: string) {
  const props = section(page, 'Account Properties');
  await props.getByLabel('Display name').fill(name);
  await props.getByLabel('Contact name').fill('Casey Contact');
  await props.getByLabel('Contact email').fill('casey@example.com');
}

/** Start from scratch, region us-east-1 and an image picked in the image picker. */
async function fillInstance(page: Page, image: string) {
  const instance = section(page, 'Instance Settings');
  await instance.getByRole('button', { name: 'Start from scratch' }).click();
  await chooseOption(page, instance.getByLabel('Region'), 'us-east-1');
  await instance.getByRole('button', { name: 'Choose image' }).click();
  const picker = page.getByRole('dialog', { name: 'Select image' });
  await picker.getByText('Changing the VM image may require recreating the machine').waitFor();
  // An inactive image cannot be picked.
  expect(await picker.getByLabel('Pick irmn-7.6.2-win2016-use1').isDisabled()).toBe(true);
  await picker.getByLabel(`Pick ${image}`).click();
  await expect.poll(() => instance.getByLabel('Image', { exact: true }).inputValue()).toBe(image);
}

async function openNew(page: Page) {
  await signIn(page, 'admin', 'admin', '/account/new');
  await section(page, 'Account Properties').getByLabel('Display name').waitFor(PAGE_LOAD);
}

async function createdAccount(page: Page): Promise<TAccountDetail> {
  await page.waitForURL((url) => /#\/account\/edit\/\d+/.test(url.hash), PAGE_LOAD);
  const id = Number(/edit\/(\d+)/.exec(page.url())![1]);
  return api<TAccountDetail>(`/accounts/${id}`, adminToken);
}

describe('create account', () => {
  it('creates an AllInOne account from scratch: draft, preview with one machine, Create opens Edit Account', async () => {
    const { page } = await openPage();
    await openNew(page);
    const name = `E2E AllInOne ${Date.now()}`;
    await fillProperties(page, name);
    const expectedUrl = name.toLowerCase().replace(/[\s-]/g, '').replace(/\W/g, '');
    expect(await section(page, 'Account Properties').getByLabel('URL name').inputValue()).toBe(expectedUrl);
    await fillInstance(page, TEST_IMAGE);
    await page.getByRole('button', { name: 'Next' }).click();

    const preview = page.getByRole('region', { name: 'Preview' }).or(page.locator('[aria-label="Preview"]'));
    await preview.getByText(`Preview of ${name}`).waitFor(PAGE_LOAD);
    const machines = page.getByRole('table', { name: 'Planned machines' }).locator('tbody tr[data-row-key]');
    expect(await machines.count()).toBe(1);
    expect(await machines.first().innerText()).toContain('Launcher and site master');
    await page.getByRole('button', { name: 'Create' }).click();

    const account = await createdAccount(page);
    expect(account).toMatchObject({ name, urlFriendlyName: expectedUrl, instancePolicy: 'AllInOne' });
    expect(account.machineConfig?.vmImageName).toBe(TEST_IMAGE);
    expect(account.sites).toHaveLength(1);
    const listed = await api<{ items: TMachine[] }>(`/accounts/${account.id}/machines`, adminToken);
    expect(listed.items).toHaveLength(1);
    await page.getByRole('heading', { name }).waitFor();
  });

  it('creates an account from an instance settings template: the picker fills the settings, Create keeps them', async () => {
    const { page } = await openPage();
    await openNew(page);
    const name = `E2E From Template ${Date.now()}`;
    await fillProperties(page, name);
    const instance = section(page, 'Instance Settings');
    // The settings stay disabled until a template, Customize or Start from scratch.
    expect(await instance.getByLabel('Marketing version').isDisabled()).toBe(true);
    await chooseOption(page, instance.getByRole('combobox', { name: 'Instance Settings template' }), 'v8.1 EU', { exact: true });
    await expect.poll(() => instance.getByLabel('Image', { exact: true }).inputValue()).toBe('irmn-8.1.3-win2022-euw1');
    expect(await instance.getByLabel('Marketing version').isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('table', { name: 'Planned machines' }).locator('tbody tr[data-row-key]').first().waitFor(PAGE_LOAD);
    await page.getByRole('button', { name: 'Create' }).click();
    const account = await createdAccount(page);
    expect(account.machineConfig).toMatchObject({ vmImageName: 'irmn-8.1.3-win2022-euw1', region: 'eu-west-1' });
  });

  it('creates an InstancePerSiteMaster account with two sites; Back keeps the values; an adjusted component config is kept', async () => {
    const { page } = await openPage();
    await openNew(page);
    const name = `E2E PerSite ${Date.now()}`;
    await fillProperties(page, name);
    await fillInstance(page, TEST_IMAGE);
    const license = section(page, 'License Settings');
    await chooseOption(page, license.getByLabel('Server instance policy'), 'Instance per site master');
    await license.getByLabel('Maximum sites').fill('3');

    await page.getByRole('tab', { name: 'Sites' }).click();
    await page.getByRole('button', { name: 'Add Site' }).click();
    await page.getByLabel('Site 2 name').fill('Warehouse');
    await page.getByLabel('Site 2 URL name').fill('warehouse');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Next' }).click();

    const machines = page.getByRole('table', { name: 'Planned machines' }).locator('tbody tr[data-row-key]');
    await machines.first().waitFor(PAGE_LOAD);
    expect(await machines.count()).toBe(3); // one launcher and a site master per site (DESIGN §6)
    const sites = page.getByRole('table', { name: 'Planned sites' });
    expect(await sites.innerText()).toContain('warehouse');

    // Back: the form shows what was typed.
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await section(page, 'Account Properties').getByLabel('Display name').inputValue()).toBe(name);
    await page.getByRole('button', { name: 'Next' }).click();
    await machines.first().waitFor(PAGE_LOAD);

    // Adjust one number key of the first machine's component config.
    await machines.first().getByRole('button', { name: /expand/i }).click();
    const editor = page.getByRole('table', { name: /^Component config of / }).first();
    const numberInput = editor.locator('.ant-input-number input').first();
    await numberInput.waitFor();
    const label = (await numberInput.getAttribute('aria-label'))!;
    const [machineName, key] = [label.slice(0, label.lastIndexOf(' ')), label.slice(label.lastIndexOf(' ') + 1)];
    await numberInput.fill('4242');
    await numberInput.blur();
    await page.getByText('adjusted').waitFor();
    await page.getByRole('button', { name: 'Create' }).click();

    const account = await createdAccount(page);
    expect(account.instancePolicy).toBe('InstancePerSiteMaster');
    expect(account.sites.map((s) => s.urlFriendlyName).sort()).toEqual(['site1', 'warehouse']);
    const listed = await api<{ items: TMachine[] }>(`/accounts/${account.id}/machines`, adminToken);
    expect(listed.items).toHaveLength(3);
    expect(listed.items.map((m) => m.name)).toContain(machineName);
    const adjusted = listed.items.find((m) => m.name === machineName);
    expect(adjusted!.config.componentConfig[key]).toBe(4242);
  });

  it('creates an add-on account: only properties and license, parent sets the name', async () => {
    const { page } = await openPage();
    await openNew(page);
    const props = section(page, 'Account Properties');
    await chooseOption(page, props.getByLabel('MMA class'), 'Add-on Account');
    // Switching class asks first (spec 1 §4).
    const confirm = page.locator('.ant-modal-confirm', { hasText: 'Change the MMA class from Experimental to Add-on Account?' });
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    // The page draws the class's sections after the confirmation closes: wait for them to go, not a snapshot of the moment.
    await expect.poll(() => section(page, 'Instance Settings').count()).toBe(0);
    expect(await section(page, 'Backup Settings').count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Sites' }).count()).toBe(0);
    const parentSelect = props.getByLabel('Add-on parent account');
    await parentSelect.click();
    const option = openDropdown(page).locator('.ant-select-item-option').first();
    const parentName = (await option.innerText()).trim();
    await option.click();
    expect(await props.getByLabel('Display name').inputValue()).toBe(`${parentName} add-on`);
    await props.getByLabel('Display name').fill(`${parentName} add-on ${Date.now()}`);
    await props.getByLabel('Contact name').fill('Casey Contact');
    await props.getByLabel('Contact email').fill('casey@example.com');
    const license = section(page, 'License Settings');
    await license.getByLabel('Add-on Site Name').fill('Annex');
    await license.getByLabel('Add-on Area Category Name').fill('Annex area');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('table', { name: 'Planned machines' }).getByText('An add-on account has no machines').waitFor(PAGE_LOAD);
    await page.getByRole('button', { name: 'Create' }).click();
    const account = await createdAccount(page);
    expect(account.classId).toBe(200);
    expect(account.parent?.name).toBe(parentName);
    expect(account.licenseConfig.addOnSiteName).toBe('Annex');
  });

  it('validates before saving a draft, and puts a server error on its field', async () => {
    const { page } = await openPage();
    await openNew(page);
    let drafts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/accounts')) drafts += 1;
    });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Account name is required').waitFor();
    await page.getByText('Contact name is required').waitFor();
    expect(drafts).toBe(0);

    // The console cannot send a bad email; alter the request so that the server answers a real 400.
    await fillProperties(page, `E2E Invalid ${Date.now()}`);
    await fillInstance(page, TEST_IMAGE);
    await page.route('**/api/v1/accounts', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { contactEmail: string };
      await route.continue({ postData: JSON.stringify({ ...body, contactEmail: 'not-an-email' }) });
    });
    await page.getByRole('button', { name: 'Next' }).click();
    await section(page, 'Account Properties').getByText('Contact email is not a valid email address').waitFor();
    await page.getByText('The account could not be saved as a draft').waitFor();
    expect(await page.getByRole('table', { name: 'Planned machines' }).count()).toBe(0);
  });

  it('is not open to a viewer, who has no New Account entry', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer');
    await page.goto('/#/account/new');
    await page.waitForURL((url) => url.hash.startsWith('#/account/list'));
    expect(await page.getByRole('menuitem', { name: 'New Account' }).count()).toBe(0);
  });
});
