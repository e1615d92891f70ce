/**
 * The Instance Settings card of Edit account (spec 1 §2 Instance Settings card,
 * §4, §5 push confirmation, §6, §8; DESIGN §5 section versions) in Chromium
 * against the real server: editing and pushing and seeing the values after a
 * reload, the locked fields, the validation issues confirmed before the push
 * (a deployer mode other than Default), the server's error list of a failed
 * push, a conflict with a push made in between and its Reload, the image
 * picker, and what a viewer sees.
 *
 * The image picker is usable where the account has no image yet, which the
 * server allows (region and image lock once set); every created account has
 * one, so that test blanks the image in the account as the browser receives it.
 *
 * Every test that changes an account creates its own through the API (draft,
 * then create-from-draft), so tests do not depend on each other or on the seed.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TAccountDetail, TInstanceSettings, TListAccountsResponse, TSaasImage } from '@fleet/contracts';
import { adminToken, api, expectShownUntil, pagesPerTest, signIn, chooseOption, clearSelect, createAccount, selectText, utcDateTime, TEST_IMAGE, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();

const openPage = pagesPerTest();

const DEPLOYER_WARNING =
  'Choosing a deployer version different from the default version of the MMA class may result in machine(s) having inconsistent state';

/** A new AllInOne account in us-east-1 on {@link TEST_IMAGE}, with sample data off and SSL on. */
async function newAccount(): Promise<TAccountDetail> {
  const id = await createAccount(adminToken, 'Instance Settings', { machineConfig: { vmImageName: TEST_IMAGE, marketingVersion: '8.1' } });
  return api<TAccountDetail>(`/accounts/${id}`, adminToken);
}

const settings = (id: number) => api<TInstanceSettings>(`/accounts/${id}/instance-settings`, adminToken);

/** `expect.poll` with room for a loaded machine (its default gives up after 1 s). */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 10_000 });

const card = (page: Page) => page.getByRole('region', { name: 'Instance Settings' });
const pushButton = (page: Page) => card(page).getByRole('button', { name: 'Push Instance Settings' });
const isChecked = async (control: Locator) => (await control.getAttribute('aria-checked')) === 'true';

async function openAccount(page: Page, id: number, user = 'admin') {
  await signIn(page, user, user, `/account/edit/${id}`);
  await card(page).getByText('Component Versions').waitFor();
}

/**
 * Records the bodies of `POST /software-update/validate` in the page (the
 * console's client sends a streamed body, which the browser does not report
 * to the test); read them with {@link validations}.
 */
async function recordValidations(page: Page) {
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    Object.assign(window, { __validations: sent });
    const fetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/api/v1/software-update/validate')) sent.push(JSON.parse(await request.clone().text()));
      return fetch(request);
    };
  });
}

const validations = (page: Page) => page.evaluate(() => (window as unknown as { __validations: Record<string, unknown>[] }).__validations);

/** Sets the deployer mode (Latest starts on master). */
async function setDeployer(page: Page, mode: 'Latest' | 'Default') {
  await chooseOption(page, card(page).getByLabel('Deployer version mode'), mode);
}

describe('instance settings as admin', () => {
  it('edits the marketing version, auto-stop time and a switch, pushes, and shows them after a reload; the locked fields stay locked', async () => {
    const account = await newAccount();
    const before = await settings(account.id);
    const { page } = await openPage();
    await openAccount(page, account.id);

    // What the server holds is what the card shows; region, image, SSL and sample data are locked.
    const c = card(page);
    await poll(() => c.getByLabel('Image', { exact: true }).inputValue()).toBe(TEST_IMAGE);
    expect(await c.getByLabel('Marketing version').inputValue()).toBe('8.1');
    expect(await selectText(card(page), 'Region')).toContain('us-east-1');
    expect(await c.getByLabel('Auto-stop time').inputValue()).toBe(utcDateTime(before.autoStopTime!));
    expect(await c.getByLabel('Region', { exact: true }).isDisabled()).toBe(true);
    expect(await c.getByRole('button', { name: 'Choose image' }).isDisabled()).toBe(true);
    expect(await c.getByLabel('Enable SSL').isDisabled()).toBe(true);
    expect(await c.getByLabel('Sample data', { exact: true }).isDisabled()).toBe(true);
    expect(await c.getByLabel('Run smoke test').isDisabled()).toBe(false);

    await c.getByLabel('Marketing version').fill('9.4.2');
    await page.keyboard.press('Escape');
    const autoStop = c.getByLabel('Auto-stop time');
    await autoStop.click();
    await autoStop.fill('2031-05-04 10:30');
    await autoStop.press('Enter');
    const smokeTest = c.getByLabel('Run smoke test');
    const wasSmokeTest = await isChecked(smokeTest);
    await smokeTest.click();
    await c.getByRole('radiogroup').getByText('Unique', { exact: true }).click();

    await pushButton(page).click();
    await page.getByText('Instance settings pushed').waitFor();
    const after = await settings(account.id);
    expect(after).toMatchObject({
      marketingVersion: '9.4.2',
      autoStopTime: '2031-05-04T10:30:00.000Z',
      runSmokeTest: !wasSmokeTest,
      keyType: 'Unique',
      useUniqueKey: true,
      vmImageName: TEST_IMAGE,
      region: 'us-east-1',
      version: before.version + 1,
    });

    await page.reload();
    await card(page).getByText('Component Versions').waitFor();
    await poll(() => card(page).getByLabel('Marketing version').inputValue()).toBe('9.4.2');
    expect(await card(page).getByLabel('Auto-stop time').inputValue()).toBe('2031-05-04 10:30');
    expect(await isChecked(card(page).getByLabel('Run smoke test'))).toBe(!wasSmokeTest);
    expect(await card(page).getByRole('radio', { name: 'Unique' }).isChecked()).toBe(true);
  });

  it('lists the issues of the validation and pushes only once the user confirms them', async () => {
    const account = await newAccount();
    const before = await settings(account.id);
    const { page } = await openPage();
    await recordValidations(page);
    await openAccount(page, account.id);

    await setDeployer(page, 'Latest');
    // Spec 3 §5: a deployer mode other than the default warns.
    await card(page).getByText('Be careful').waitFor();
    await card(page).getByText(DEPLOYER_WARNING).waitFor();

    await pushButton(page).click();
    await poll(async () => (await validations(page)).length).toBe(1);
    const [sent] = await validations(page);
    expect(sent).toMatchObject({ accountId: account.id, deployerVersionMode: 'Latest', deployerVersion: 'master|latest', vmImageName: TEST_IMAGE });

    const dialog = page.getByRole('dialog', { name: 'Push instance settings?' });
    const issues = dialog.getByRole('list', { name: 'Issues' });
    await issues.waitFor();
    expect(await issues.getByRole('listitem').allInnerTexts()).toContain(DEPLOYER_WARNING);

    // Cancel: nothing is pushed.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await settings(account.id)).version).toBe(before.version);

    await pushButton(page).click();
    await dialog.getByRole('button', { name: 'Push' }).click();
    await page.getByText('Instance settings pushed').waitFor();
    expect(await settings(account.id)).toMatchObject({ deployerVersionMode: 'Latest', deployerVersion: 'master|latest', version: before.version + 1 });
    await poll(() => selectText(card(page), 'Deployer version mode')).toBe('Latest');
    expect(await selectText(card(page), 'Deployer branch')).toBe('master');
  });

  it("shows 'Failed to push instance settings' with every server error, for longer than the default 5 s", async () => {
    const account = await newAccount();
    const before = await settings(account.id);
    const { page } = await openPage();
    // The page's own clock: it runs as the real one, and the test moves it past the 5 s instead of waiting.
    await page.clock.install();
    await recordValidations(page);
    // A real 400 with two errors: values the console cannot send (a branch and a
    // library file that do not exist) are put into the push on its way.
    await page.route(`**/api/v1/accounts/${account.id}/instance-settings`, async (route) => {
      const [{ accountId: _accountId, ...values } = {}] = (await validations(page)).slice(-1);
      const body = { ...values, version: before.version, deployerVersionMode: 'Latest', deployerVersion: 'no-such-branch|latest', mainLibraryMode: 'Select', mainLibraryFiles: [999_999] };
      await route.continue({ postData: JSON.stringify(body) });
    });
    await openAccount(page, account.id);

    await card(page).getByLabel('Marketing version').fill('7.7');
    await page.keyboard.press('Escape');
    await pushButton(page).click();

    const toast = page.getByRole('alert', { name: 'Failed to push instance settings' });
    await toast.waitFor();
    expect(await toast.getByRole('listitem').allInnerTexts()).toEqual(["Library file 999999 does not exist", "Deployer branch 'no-such-branch' does not exist"]);
    expect(await settings(account.id)).toMatchObject({ version: before.version, marketingVersion: '8.1' });
    // The list stays 20 s (spec 1 §8), well past the 5 s of other error toasts, and is gone after them.
    await expectShownUntil(page, toast, { stillAtMs: 6_000, goneAtMs: 20_500 });
    // The user's values are kept for a corrected push.
    expect(await card(page).getByLabel('Marketing version').inputValue()).toBe('7.7');
  });

  it('shows the conflict of a push made in between, and Reload loads the other values', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);

    // Another operator pushes the section after this page loaded it.
    const current = await settings(account.id);
    await api<TInstanceSettings>(`/accounts/${account.id}/instance-settings`, adminToken, {
      method: 'PUT',
      body: JSON.stringify({ ...current, marketingVersion: 'from-api' }),
    });

    await card(page).getByLabel('Marketing version').fill('from-page');
    await page.keyboard.press('Escape');
    await pushButton(page).click();
    const conflict = card(page).getByRole('alert').filter({ hasText: 'Someone else changed this section' });
    await conflict.waitFor();
    expect((await settings(account.id)).marketingVersion).toBe('from-api');
    expect(await page.getByText('Instance settings pushed').count()).toBe(0);

    await conflict.getByRole('button', { name: 'Reload' }).click();
    await conflict.waitFor({ state: 'hidden' });
    await poll(() => card(page).getByLabel('Marketing version').inputValue()).toBe('from-api');

    // Pushing again names the new version and goes through.
    await card(page).getByLabel('Marketing version').fill('after-reload');
    await page.keyboard.press('Escape');
    await pushButton(page).click();
    await page.getByText('Instance settings pushed').waitFor();
    expect(await settings(account.id)).toMatchObject({ marketingVersion: 'after-reload', version: current.version + 2 });
  });

  it('picks an image: filters, inactive and other-region images cannot be picked, a jump-start image brings its monitoring, versions and library files', async () => {
    const account = await newAccount();
    const images = await api<TSaasImage[]>('/cloud/images', adminToken);
    // Tall enough for the popover and the dropdowns of its filters.
    const { page } = await openPage({ height: 1400 });
    // The account as if it had no image yet (the server then accepts one).
    await page.route(new RegExp(`/api/v1/accounts/${account.id}$`), async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as TAccountDetail;
      body.vmImageName = null;
      body.machineConfig!.vmImageName = '';
      await route.fulfill({ response, json: body });
    });
    await recordValidations(page);
    await openAccount(page, account.id);
    const c = card(page);
    await poll(() => c.getByLabel('Marketing version').inputValue()).toBe('8.1');
    expect(await c.getByLabel('Image', { exact: true }).inputValue()).toBe('');

    await c.getByRole('button', { name: 'Choose image' }).click();
    const picker = page.getByRole('dialog', { name: 'Select image' });
    await picker.getByText('Changing the VM image may require recreating the machine.').waitFor();
    const rows = picker.locator('.ant-table-tbody tr[data-row-key]');
    const rowNames = async () => (await rows.locator('td:nth-child(2) strong').allInnerTexts()).map((t) => t.trim());
    const expectRows = async (list: TSaasImage[]) => poll(rowNames).toEqual(list.map((i) => i.name));

    // The region filter starts at the account's region.
    await expectRows(images.filter((i) => i.region === 'us-east-1'));
    await clearSelect(picker, 'Region filter');
    await expectRows(images);

    // Inactive and other-region images say why and cannot be picked.
    const inactive = images.find((i) => !i.active && i.region === 'us-east-1')!;
    const otherRegion = images.find((i) => i.active && i.region !== 'us-east-1')!;
    const rowOf = (name: string) => rows.filter({ has: page.getByText(name, { exact: true }) });
    expect(await rowOf(inactive.name).innerText()).toContain('Inactive');
    expect(await rowOf(otherRegion.name).innerText()).toContain('Other region');
    expect(await picker.getByRole('radio', { name: `Pick ${inactive.name}` }).isDisabled()).toBe(true);
    expect(await picker.getByRole('radio', { name: `Pick ${otherRegion.name}` }).isDisabled()).toBe(true);
    // A click on such a row (forced past the row's aria-disabled) picks nothing.
    await rowOf(inactive.name).click({ force: true });
    await rowOf(otherRegion.name).click({ force: true });
    expect(await picker.isVisible()).toBe(true);
    expect(await c.getByLabel('Image', { exact: true }).inputValue()).toBe('');

    // Tri-state filters and the version filter (N/A holds the images without a version).
    const tri = (name: string) => picker.getByRole('radiogroup', { name });
    await tri('Jump-start').getByText('Yes', { exact: true }).click();
    await expectRows(images.filter((i) => i.jumpStart));
    await tri('Official').getByText('No', { exact: true }).click();
    await expectRows(images.filter((i) => i.jumpStart && !i.official));
    await tri('Jump-start').getByText('No', { exact: true }).click();
    await expectRows(images.filter((i) => !i.jumpStart && !i.official));
    await tri('Jump-start').getByText('Any', { exact: true }).click();
    await tri('Official').getByText('Any', { exact: true }).click();
    await chooseOption(page, picker.getByLabel('Version filter'), '8.0');
    await expectRows(images.filter((i) => i.irmnVersion === '8.0'));
    await chooseOption(page, picker.getByLabel('Version filter'), 'N/A');
    await expectRows(images.filter((i) => i.irmnVersion === null));
    await clearSelect(picker, 'Version filter');
    await expectRows(images);

    // A jump-start image of the account's region: SSL stays (locked), the rest comes from the image.
    const jumpStart = images.find((i) => i.jumpStart && i.active && i.region === 'us-east-1' && i.jumpStartConfig!.showInGrafana)!;
    const config = jumpStart.jumpStartConfig!;
    expect(await isChecked(c.getByLabel('Show in Grafana'))).toBe(false);
    await rowOf(jumpStart.name).click();
    await picker.waitFor({ state: 'hidden' });
    expect(await c.getByLabel('Image', { exact: true }).inputValue()).toBe(jumpStart.name);
    expect(await isChecked(c.getByLabel('Show in Grafana'))).toBe(true);
    expect(await selectText(card(page), 'Deployer version mode')).toBe('Select');
    // The picker shows `branch / hash` (spec 3 §2.8); the stored `branch|hash` is what is pushed.
    expect(await c.getByLabel('Deployer version', { exact: true }).inputValue()).toBe(config.deployer!.replace('|', ' / '));

    // What is pushed carries every version and library file of the image, modes Select.
    await pushButton(page).click();
    await poll(async () => (await validations(page)).length).toBe(1);
    const [sent] = await validations(page);
    const expected: Record<string, unknown> = {
      vmImageName: jumpStart.name,
      enableSsl: true,
      showInGrafana: true,
      deployerVersionMode: 'Select',
      deployerVersion: config.deployer,
      mainLibraryMode: 'Select',
      mainLibraryFiles: config.libraryFiles,
    };
    for (const [key, version] of Object.entries(config.versions)) Object.assign(expected, { [`${key}VersionMode`]: 'Select', [`${key}Version`]: version });
    expect(sent).toMatchObject(expected);
    // The real account has an image, which the server keeps.
    await page.getByRole('dialog', { name: 'Push instance settings?' }).getByRole('button', { name: 'Push' }).click();
    const toast = page.getByRole('alert', { name: 'Failed to push instance settings' });
    await toast.waitFor();
    expect(await toast.getByRole('listitem').allInnerTexts()).toContain('Image cannot be changed for an existing account');
  });
});

describe('instance settings as viewer', () => {
  it('shows the settings read-only, without push or key downloads; add-on accounts have no card', async () => {
    const [account] = (await api<TListAccountsResponse>('/accounts?classIds=2&limit=1', adminToken)).items;
    const stored = await settings(account!.id);
    const { page } = await openPage();
    await openAccount(page, account!.id, 'viewer');
    const c = card(page);
    await poll(() => c.getByLabel('Image', { exact: true }).inputValue()).toBe(stored.vmImageName);
    expect(await c.getByLabel('Marketing version').isDisabled()).toBe(true);
    expect(await c.getByLabel('Run smoke test').isDisabled()).toBe(true);
    expect(await c.getByRole('button', { name: 'Push Instance Settings' }).count()).toBe(0);
    expect(await c.getByRole('button', { name: 'Download Keys' }).count()).toBe(0);

    const [addOn] = (await api<TListAccountsResponse>('/accounts?classIds=200&limit=1', adminToken)).items;
    await page.goto(`/#/account/edit/${addOn!.id}`);
    await page.getByText('An add-on account has no machines, sites or services.').waitFor();
    expect(await card(page).count()).toBe(0);
  });
});
