/**
 * The License Settings card of Edit account (spec 1 §2 License Settings card,
 * §4 AllInOne, §5 rules and push confirmations, §6, §8; DESIGN §5 section
 * versions) in Chromium against the real server: editing and pushing and
 * seeing the values after a reload, AllInOne forcing one site, validation on
 * blur, the t2.medium and add-on parent confirmations (Yes and No), a stale push
 * from a second page and its Reload, Download License (named
 * '{urlFriendlyName} license.dat' and verified with `npm run verify-license`),
 * Show Logins, and what a viewer sees.
 *
 * Every test that changes an account creates its own through the API (draft,
 * then create-from-draft), so tests do not depend on each other or on the seed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type {
  TAccountDetail,
  TCreateAccountRequest,
  TLauncherLogin,
  TLicenseFile,
  TFullAccountsPage,
} from '@fleet/contracts';
import { adminToken, api, pagesPerTest, signIn, chooseOption, createAccount, localDateTime, openDropdown, selectText, useBrowserAndAdmin } from './browser.js';

const root = new URL('..', import.meta.url).pathname;
let workDir: string;
useBrowserAndAdmin();
const openPage = pagesPerTest();
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'fleet-license-e2e-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const T2_MEDIUM_CONFIRM =
  'You have selected t2.medium for Cloud Instance Type. Machine created with this instance type may have low performance and should only be used for simple testing. Are you sure to continue?';
const ADD_ON_CONFIRM = 'Pushing license settings for add-on account will update license file of parent account. Are you sure to continue?';
/** A new AllInOne account made through the API (draft, then create-from-draft); add-ons (class 200) get no image. */
async function newAccount(extra: Partial<TCreateAccountRequest> = {}): Promise<TAccountDetail> {
  return detail(await createAccount(adminToken, 'License', extra));
}

async function newAddOn(): Promise<TAccountDetail> {
  const parent = await newAccount();
  return newAccount({
    classId: 200,
    parentId: parent.id,
    name: `${parent.name} add-on`,
    licenseConfig: { addOnSiteName: 'Annex', addOnAreaCategoryName: 'Annex Areas' },
  });
}

/** A date as the console shows it in the browser's (and this process's) time zone. */
const localDate = (iso: string) => localDateTime(iso).slice(0, 10);

const detail = (id: number) => api<TAccountDetail>(`/accounts/${id}`, adminToken);

const card = (page: Page) => page.getByRole('region', { name: 'License Settings' });
const field = (page: Page, label: string) => card(page).getByLabel(label, { exact: true });
const pushButton = (page: Page) => card(page).getByRole('button', { name: 'Push License Settings' });
const fieldError = (page: Page, label: string) =>
  card(page).locator('.ant-form-item', { has: page.getByLabel(label, { exact: true }) }).locator('.ant-form-item-explain-error');
/** The confirmation asking `text` (a second one may open while the first is still fading out). */
const confirmDialog = (page: Page, text: string) => page.getByRole('dialog', { name: 'Push License Settings' }).filter({ hasText: text });

async function openAccount(page: Page, id: number, user = 'admin') {
  await signIn(page, user, user, `/account/edit/${id}`);
  await expect.poll(() => field(page, 'Maximum Credits').inputValue()).not.toBe('');
}

/** The license pushes (`PUT /accounts/{id}/license-settings`) the page sends from now on. */
function pushesOf(page: Page, accountId: number): string[] {
  const pushes: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'PUT' && req.url().endsWith(`/api/v1/accounts/${accountId}/license-settings`)) pushes.push(req.url());
  });
  return pushes;
}

/** Answers the open confirmation, after checking its text; waits until it is gone. */
async function answer(page: Page, text: string, reply: 'Yes' | 'No') {
  const dialog = confirmDialog(page, text);
  await dialog.getByText(text).waitFor();
  await dialog.getByRole('button', { name: reply }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('license settings as admin', () => {
  it('edits the license, pushes, and shows the values after a reload; AllInOne forces one site', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    const c = card(page);

    // AllInOne (the default) has exactly one site, not editable.
    expect(await selectText(card(page), 'Server instance policy')).toBe('All in one');
    expect(await field(page, 'Maximum sites').inputValue()).toBe('1');
    expect(await field(page, 'Maximum sites').isDisabled()).toBe(true);

    await chooseOption(page, field(page, 'Server instance policy'), 'Instance per site master (IPSM)');
    // The form re-renders after the choice: wait for the field to follow it.
    await expect.poll(() => field(page, 'Maximum sites').isDisabled()).toBe(false);
    await field(page, 'Maximum sites').fill('12');
    await field(page, 'Maximum Credits').fill('500');
    await field(page, 'Maximum racks').fill('40');
    await chooseOption(page, field(page, 'Cloud instance type'), 'm5.large');
    await chooseOption(page, field(page, 'Redis instance type'), 'cache.t3.small');
    await chooseOption(page, field(page, 'Features'), 'Audit Trail');
    // The list stays open after a pick of a multiple select.
    await openDropdown(page).locator('.ant-select-item-option', { hasText: 'Floor Plans' }).click();
    await page.keyboard.press('Escape');
    await chooseOption(page, field(page, 'Reporting categories'), 'Fiber');
    await page.keyboard.press('Escape');
    await field(page, 'Expiration date').click();
    await field(page, 'Expiration date').fill('2031-06-15');
    await page.keyboard.press('Enter');
    await field(page, 'Active').click();

    await pushButton(page).click();
    await page.getByText('License settings pushed').waitFor();
    const saved = (await detail(account.id)).licenseConfig;
    expect(saved).toMatchObject({
      instancePolicy: 'InstancePerSiteMaster',
      maxSites: 12,
      cloudCredits: 500,
      maxRacks: 40,
      cloudInstanceType: 4,
      redisCloudInstanceType: 21,
      features: ['Audit Trail', 'Floor Plans'],
      reportingCategories: ['Fiber'],
      isActive: false,
    });
    expect(localDate(saved.expirationTime!)).toBe('2031-06-15');

    await page.reload();
    await expect.poll(() => field(page, 'Maximum Credits').inputValue()).toBe('500');
    expect(await selectText(card(page), 'Server instance policy')).toBe('Instance per site master (IPSM)');
    expect(await field(page, 'Maximum sites').inputValue()).toBe('12');
    expect(await field(page, 'Maximum racks').inputValue()).toBe('40');
    // The types' names come with their lists, which may answer after the form's values.
    await expect.poll(() => selectText(card(page), 'Cloud instance type')).toContain('m5.large');
    await expect.poll(() => selectText(card(page), 'Redis instance type')).toContain('cache.t3.small');
    expect(await selectText(card(page), 'Features')).toContain('Audit Trail');
    expect(await selectText(card(page), 'Features')).toContain('Floor Plans');
    expect(await selectText(card(page), 'Reporting categories')).toContain('Fiber');
    expect(await field(page, 'Expiration date').inputValue()).toBe('2031-06-15');
    expect(await c.getByRole('switch', { name: 'Active' }).getAttribute('aria-checked')).toBe('false');

    // Back to AllInOne: one site again, and the server stores it.
    await chooseOption(page, field(page, 'Server instance policy'), 'All in one');
    await expect.poll(() => field(page, 'Maximum sites').inputValue()).toBe('1');
    await expect.poll(() => field(page, 'Maximum sites').isDisabled()).toBe(true);
    await pushButton(page).click();
    await page.getByText('License settings pushed').waitFor();
    expect((await detail(account.id)).licenseConfig).toMatchObject({ instancePolicy: 'AllInOne', maxSites: 1 });
  });

  it('validates on blur: credits 1 to 1000, sites at least 1, counts at least 0, and pushes nothing while wrong', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    const pushes = pushesOf(page, account.id);
    await openAccount(page, account.id);
    await chooseOption(page, field(page, 'Server instance policy'), 'Instance per site master (IPSM)');
    const cases: [string, string, string][] = [
      ['Maximum Credits', '0', 'Maximum Credits must be between 1 and 1000'],
      ['Maximum Credits', '1001', 'Maximum Credits must be between 1 and 1000'],
      ['Maximum sites', '0', 'Maximum sites must be at least 1'],
      ['Maximum areas', '-1', 'Maximum areas must be at least 0'],
    ];
    for (const [label, value, message] of cases) {
      await field(page, label).fill(value);
      await field(page, label).blur();
      await expect.poll(() => fieldError(page, label).innerText()).toBe(message);
    }
    await field(page, 'Maximum areas').fill('0');
    await field(page, 'Maximum areas').blur();
    await expect.poll(() => fieldError(page, 'Maximum areas').count()).toBe(0);
    await pushButton(page).click();
    await expect.poll(() => fieldError(page, 'Maximum Credits').innerText()).toBe('Maximum Credits must be between 1 and 1000');
    // Put right, it pushes: that push is the page's only one, so the wrong form sent none.
    await field(page, 'Maximum Credits').fill('1000');
    await field(page, 'Maximum sites').fill('1');
    await pushButton(page).click();
    await page.getByText('License settings pushed').waitFor();
    expect(pushes).toHaveLength(1);
    const saved = await detail(account.id);
    expect(saved.versions.license).toBe(account.versions.license + 1);
    expect(saved.licenseConfig).toMatchObject({ instancePolicy: 'InstancePerSiteMaster', cloudCredits: 1000, maxSites: 1, maxAreas: 0 });
  });

  it('asks before pushing t2.medium: No aborts, Yes pushes', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    const pushes = pushesOf(page, account.id);
    await openAccount(page, account.id);
    await chooseOption(page, field(page, 'Cloud instance type'), 't2.medium');
    await pushButton(page).click();
    await answer(page, T2_MEDIUM_CONFIRM, 'No');
    expect(pushes).toEqual([]);

    await pushButton(page).click();
    await answer(page, T2_MEDIUM_CONFIRM, 'Yes');
    await page.getByText('License settings pushed').waitFor();
    // The Yes push is the only one: No sent none (it would have gone first).
    expect(pushes).toHaveLength(1);
    const saved = await detail(account.id);
    expect(saved.versions.license).toBe(account.versions.license + 1);
    expect(saved.licenseConfig.cloudInstanceType).toBe(2);
  });

  it("asks before pushing an add-on's license (it updates the parent's), after the t2.medium question", async () => {
    const addOn = await newAddOn();
    const { page } = await openPage();
    const pushes = pushesOf(page, addOn.id);
    await openAccount(page, addOn.id);
    expect(await field(page, 'Add-on Site Name').inputValue()).toBe('Annex');
    expect(await field(page, 'Add-on Area Category Name').inputValue()).toBe('Annex Areas');

    // The add-on names are required, on blur.
    for (const [label, message] of [
      ['Add-on Site Name', 'Add-on Site Name is required'],
      ['Add-on Area Category Name', 'Add-on Area Category Name is required'],
    ] as const) {
      await field(page, label).fill('');
      await field(page, label).blur();
      await expect.poll(() => fieldError(page, label).innerText()).toBe(message);
    }
    await field(page, 'Add-on Site Name').fill('North Annex');
    await field(page, 'Add-on Area Category Name').fill('North Areas');

    await pushButton(page).click();
    await answer(page, ADD_ON_CONFIRM, 'No');
    expect(pushes).toEqual([]);

    // Both questions, in order; No to the second aborts.
    await chooseOption(page, field(page, 'Cloud instance type'), 't2.medium');
    await pushButton(page).click();
    await answer(page, T2_MEDIUM_CONFIRM, 'Yes');
    await answer(page, ADD_ON_CONFIRM, 'No');
    expect(pushes).toEqual([]);

    await pushButton(page).click();
    await answer(page, T2_MEDIUM_CONFIRM, 'Yes');
    await answer(page, ADD_ON_CONFIRM, 'Yes');
    await page.getByText('License settings pushed').waitFor();
    // The page's only push: neither No sent one (it would have gone before this one).
    expect(pushes).toHaveLength(1);
    expect((await detail(addOn.id)).versions.license).toBe(addOn.versions.license + 1);
    expect((await detail(addOn.id)).licenseConfig).toMatchObject({
      addOnSiteName: 'North Annex',
      addOnAreaCategoryName: 'North Areas',
      cloudInstanceType: 2,
    });
  });

  it('answers a stale push from a second page with the conflict notice; Reload shows the current values', async () => {
    const account = await newAccount();
    const first = await openPage();
    const second = await openPage();
    await openAccount(first.page, account.id);
    await openAccount(second.page, account.id, 'operator');

    await field(second.page, 'Maximum Credits').fill('700');
    await pushButton(second.page).click();
    await second.page.getByText('License settings pushed').waitFor();

    await field(first.page, 'Maximum Credits').fill('300');
    await pushButton(first.page).click();
    const notice = card(first.page).getByRole('alert').filter({ hasText: 'Someone else changed this section' });
    await notice.getByText(/last pushed by operator/).waitFor();
    expect((await detail(account.id)).licenseConfig.cloudCredits).toBe(700);

    await notice.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => field(first.page, 'Maximum Credits').inputValue()).toBe('700');
    expect(await notice.count()).toBe(0);
    // Two signed-in browsers: more time than a one-page test.
  }, 120_000);

  it("downloads '{urlFriendlyName} license.dat', which verifies with the server's public key", async () => {
    const account = await newAccount({ licenseConfig: { cloudCredits: 321 } });
    const { page } = await openPage();
    await openAccount(page, account.id);
    const [download] = await Promise.all([page.waitForEvent('download'), card(page).getByRole('button', { name: 'Download License' }).click()]);
    expect(download.suggestedFilename()).toBe(`${account.urlFriendlyName} license.dat`);
    const file = join(workDir, download.suggestedFilename());
    await download.saveAs(file);
    const license = JSON.parse(await readFile(file, 'utf8')) as TLicenseFile;
    expect(license.payload.account).toMatchObject({ id: account.id, urlFriendlyName: account.urlFriendlyName });
    expect(license.payload.license.cloudCredits).toBe(321);

    const key = await api<{ publicKeyPem: string }>('/license/public-key', adminToken);
    const keyFile = join(workDir, 'license-key.pem');
    await writeFile(keyFile, key.publicKeyPem);
    const run = (path: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/cli/verify-license.ts'), path, keyFile], { cwd: root }).then(
        (r) => ({ code: 0, out: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
      );
    const verified = await run(file);
    expect(verified.code).toBe(0);
    expect(verified.out).toContain(`valid: ${account.name} (${account.urlFriendlyName})`);
    // The same check refuses a file whose license was changed after signing.
    const tampered = join(workDir, 'tampered license.dat');
    await writeFile(tampered, JSON.stringify({ ...license, payload: { ...license.payload, license: { ...license.payload.license, cloudCredits: 1000 } } }));
    expect((await run(tampered)).code).toBe(1);

    await page.route(`**/api/v1/accounts/${account.id}/files/license`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }) }),
    );
    await card(page).getByRole('button', { name: 'Download License' }).click();
    await page.getByText('Error occurred downloading license').waitFor();
  });

  it('shows the launcher logins', async () => {
    // A seeded account with launcher logins; reading them changes nothing.
    const { items } = await api<TFullAccountsPage>('/accounts?classIds=1,2&limit=50', adminToken);
    let found: { id: number; name: string; logins: TLauncherLogin[] } | undefined;
    for (const a of items.filter((x) => !x.isTemplate)) {
      const logins = await api<TLauncherLogin[]>(`/accounts/${a.id}/launcher-logins`, adminToken);
      if (logins.length > 0) {
        found = { id: a.id, name: a.name, logins };
        break;
      }
    }
    expect(found).toBeDefined();
    const { page } = await openPage();
    await openAccount(page, found!.id);
    await card(page).getByRole('button', { name: 'Show Logins' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launcher Logins' });
    await dialog.getByText(found!.name, { exact: true }).waitFor();
    const rows = dialog.locator('.ant-table-tbody tr[data-row-key]');
    await expect.poll(() => rows.count()).toBe(found!.logins.length);
    expect(await rows.first().innerText()).toContain(found!.logins[0]!.userName);
  });
});

describe('license settings as viewer', () => {
  it('shows the license read-only: no push, no logins, but the license can be downloaded', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id, 'viewer');
    for (const label of ['Maximum Credits', 'Server instance policy', 'Cloud instance type', 'Features', 'Expiration date']) {
      expect(await field(page, label).isDisabled()).toBe(true);
    }
    expect(await page.getByRole('button', { name: 'Push License Settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Show Logins' }).count()).toBe(0);
    const [download] = await Promise.all([page.waitForEvent('download'), card(page).getByRole('button', { name: 'Download License' }).click()]);
    expect(download.suggestedFilename()).toBe(`${account.urlFriendlyName} license.dat`);
  });
});
