/**
 * The edit-account screen (spec 1 §2 Edit account, §6, §8; spec 2 §2.2, §6) in
 * Chromium against the real server: opening it from the list, the Machines,
 * Sites and Services tabs, editing a site, deleting the account, what a viewer
 * sees, add-on accounts, and load failures (the server's detail in an alert).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type {
  TAccountDetail,
  TAccountListItem,
  TAccountService,
  TFullAccountsPage,
  TListMachinesResponse,
  TSite,
} from '@fleet/contracts';
import { adminToken, api, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

const accounts = async (query: string) => (await api<TFullAccountsPage>(`/accounts?${query}`, adminToken)).items;
const machineNames = async (accountId: number) =>
  (await api<TListMachinesResponse>(`/accounts/${accountId}/machines?limit=100`, adminToken)).items.map((m) => m.name);

/** The InstancePerSiteMaster accounts (they have sites and several machines) of class `classId`. */
const multiSiteAccounts = async (classId: number) =>
  (await accounts(`classIds=${classId}&limit=200`)).filter((a) => a.instancePolicy === 'InstancePerSiteMaster');

/** The `skip`-th of `found` (the InstancePerSiteMaster accounts of class `classId`). */
function nth(found: TAccountListItem[], classId: number, skip: number): TAccountListItem {
  if (!found[skip]) throw new Error(`no InstancePerSiteMaster account of class ${classId}`);
  return found[skip];
}

/** An InstancePerSiteMaster account (it has sites and several machines) of class `classId`. */
async function multiSiteAccount(classId: number, skip = 0): Promise<TAccountListItem> {
  return nth(await multiSiteAccounts(classId), classId, skip);
}

/** The machine names of the Machines tab (the settings cards below have tables of their own). */
async function machineRowNames(page: Page): Promise<string[]> {
  const rows = page.getByRole('tabpanel').locator('.ant-table-tbody tr[data-row-key]');
  await rows.first().waitFor();
  const cells = await rows.locator('td:nth-child(4)').allInnerTexts();
  return cells.map((text) => text.replace(/\s+/g, ' ').trim().split(' ')[0]!);
}

const errorAlert = (page: Page) => page.getByRole('alert').filter({ hasText: 'Account could not be loaded' });

describe('edit account as admin', () => {
  it('opens from the list link and shows the machines, the class and the properties', async () => {
    const account = await multiSiteAccount(1);
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/list?classIds=1&search=${encodeURIComponent(account.urlFriendlyName)}`);
    await page.getByRole('link', { name: account.name, exact: true }).first().click();
    await page.waitForURL((url) => url.hash.startsWith(`#/account/edit/${account.id}`));
    await page.getByRole('heading', { name: account.name }).waitFor();
    expect(await page.title()).toContain('Edit Account');
    const expected = await machineNames(account.id);
    expect(expected.length).toBeGreaterThan(1);
    await expect.poll(() => machineRowNames(page)).toEqual(expected);
    await page.getByText(`1-${expected.length} of ${expected.length} machines`).waitFor();

    const detail = await api<TAccountDetail>(`/accounts/${account.id}`, adminToken);
    const properties = page.getByRole('region', { name: 'Account Properties' });
    await expect.poll(() => properties.getByLabel('URL name', { exact: true }).inputValue()).toBe(detail.urlFriendlyName);
    expect(await properties.getByLabel('Contact name', { exact: true }).inputValue()).toBe(detail.contact.name);
    await properties.locator('.ant-select', { has: page.getByLabel('MMA class', { exact: true }) }).getByText(detail.class.name).waitFor();
    await properties.getByText(detail.launcherUrl!).waitFor();
    await page.getByRole('button', { name: 'Delete Account' }).waitFor();
  });

  it('lists the services with their status', async () => {
    // A seeded account with services (accounts made by other specs have new machines without versions yet).
    const candidates = await multiSiteAccounts(1);
    let account = nth(candidates, 1, 1);
    let services = await api<TAccountService[]>(`/accounts/${account.id}/software-status`, adminToken);
    for (let skip = 2; services.length === 0; skip += 1) {
      account = nth(candidates, 1, skip);
      services = await api<TAccountService[]>(`/accounts/${account.id}/software-status`, adminToken);
    }
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${account.id}`);
    await page.getByRole('tab', { name: 'Services' }).click();
    await page.waitForURL(/tab=services/);
    const rows = page.getByRole('tabpanel', { name: 'Services' }).locator('.ant-table-tbody tr[data-row-key]');
    await expect.poll(() => rows.count()).toBe(services.length);
    // The fleet lives on: a service's status read before the page loaded may have changed by the time it drew (a
    // Pending launcher turned Degraded in a full run). The page shows the status of some time between the two reads.
    const after = await api<TAccountService[]>(`/accounts/${account.id}/software-status`, adminToken);
    const shown = (await rows.first().innerText()).replace(/\s+/g, ' ');
    expect([services[0]!, after[0]!].map((s) => `${s.name} ${s.status}`).some((text) => shown.includes(text)), shown).toBe(true);
  });

  it('edits a site: validation on blur, Site updated, the table and the server follow', async () => {
    const account = await multiSiteAccount(2);
    const [site] = await api<TSite[]>(`/accounts/${account.id}/sites`, adminToken);
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${account.id}?tab=sites`);
    await page.getByRole('button', { name: `Edit site ${site!.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Site' });
    expect(await dialog.getByLabel('Domain name').inputValue()).toBe(site!.domainName.replace(/\.fleet\.example\.net$/, ''));
    await dialog.getByLabel('Name', { exact: true }).fill('');
    await dialog.getByLabel('Port').click();
    await dialog.getByText('Site name is required').waitFor();
    const newName = `${site!.name} East`;
    await dialog.getByLabel('Name', { exact: true }).fill(newName);
    await dialog.getByLabel('Port').fill('9443');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Site updated').waitFor();
    const siteRow = page.locator(`.ant-table-tbody tr[data-row-key="${site!.id}"]`);
    await expect.poll(async () => (await siteRow.innerText()).replace(/\s+/g, ' ')).toContain(`${newName} `);
    expect(await siteRow.innerText()).toContain('9443');
    const saved = (await api<TSite[]>(`/accounts/${account.id}/sites`, adminToken)).find((s) => s.id === site!.id);
    expect(saved).toMatchObject({ name: newName, port: 9443, domainName: site!.domainName });
  });

  it('hides the tabs of an add-on account', async () => {
    const [addOn] = await accounts('classIds=200&limit=1');
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${addOn!.id}`);
    await page.getByText('An add-on account has no machines, sites or services.').waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
  });

  it('deletes the account after the list confirmation and goes back to the list', async () => {
    const [victim] = (await accounts('classIds=1&limit=200&sortDirection=Descending')).filter((a) => a.instancePolicy === 'AllInOne');
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', `/account/edit/${victim!.id}`);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog.getByText(`This will delete account ${victim!.name} and terminate all its machines.`).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Account deleted').waitFor();
    await page.waitForURL((url) => url.hash.startsWith('#/account/list'));
    const res = await fetch(new URL(`/api/v1/accounts/${victim!.id}`, page.url()), { headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.status).toBe(404);
  });
});

describe('edit account as viewer', () => {
  it('shows machines, sites and tasks without any write control', async () => {
    const account = await multiSiteAccount(3);
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', `/account/edit/${account.id}`);
    await expect.poll(() => machineRowNames(page)).toEqual(await machineNames(account.id));
    expect(await page.getByRole('button', { name: 'Create Machine' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Account' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Start|Stop) / }).count()).toBe(0);
    // The row menu offers a viewer View operations only (spec 2 §2.3).
    await page.getByRole('button', { name: /^Actions for / }).first().click();
    const entries = page.locator('.ant-dropdown:visible').getByRole('menuitem');
    await entries.first().waitFor();
    expect(await entries.allInnerTexts()).toEqual(['View operations']);
    await page.keyboard.press('Escape');
    const switches = page.getByRole('switch');
    expect(await switches.count()).toBeGreaterThan(0);
    for (const s of await switches.all()) expect(await s.isDisabled()).toBe(true);

    await page.getByRole('button', { name: / — Tasks of / }).first().click();
    await page.getByRole('dialog', { name: /^Tasks of / }).waitFor();
    expect(await page.getByRole('button', { name: /^Cancel task/ }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Sites' }).click();
    await page.getByRole('tabpanel', { name: 'Sites' }).locator('.ant-table-tbody tr[data-row-key]').first().waitFor();
    expect(await page.getByRole('button', { name: /^Edit site/ }).count()).toBe(0);
  });
});

describe('load failures', () => {
  it('answers not found for a Customer Production account to an operator', async () => {
    const [cp] = await accounts('classIds=5&limit=1');
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', `/account/edit/${cp!.id}`);
    await errorAlert(page).getByText(`Account ${cp!.id} was not found`).waitFor();
    expect(await page.getByRole('tab', { name: 'Machines' }).count()).toBe(0);
  });

  it('shows the server detail of a failed load', async () => {
    const [account] = await accounts('classIds=1&limit=1');
    const { page } = await openPage();
    await page.route(`**/api/v1/accounts/${account!.id}`, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'The database is restarting' }),
      }),
    );
    await signIn(page, 'admin', 'admin', `/account/edit/${account!.id}`);
    await errorAlert(page).getByText('The database is restarting').waitFor();
    await page.goto('/#/account/edit/987654');
    await errorAlert(page).getByText('Account 987654 was not found').waitFor();
  });
});
