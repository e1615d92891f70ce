/**
 * The accounts list (spec 1 §2 Accounts list, §5, §6, §8, §9) in Chromium:
 * filters, search, sort, paging, delete, View Logins, and what each role sees.
 * Expected rows come from the API with the same query, so the screen is checked
 * against the server, not against numbers copied into the test.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TAccountListItem, TAccountListRow, TAccountsInfo, TFullAccountsPage, TListAccountsResponse, TLauncherLogin, TUserActivity } from '@fleet/contracts';
import { adminToken, api, apiToken, pagesPerTest, expectAccessible, signIn, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

const listApi = (query: string, token = adminToken) => api<TFullAccountsPage>(`/accounts?${query}`, token);

/** Names in the table's body rows, in order, once the table has loaded (empty when it shows its empty state). */
async function rowNames(page: Page): Promise<string[]> {
  await page.locator('.ant-table-tbody .ant-table-row, .ant-table-tbody .ant-table-placeholder').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
  return page.locator('.ant-table-tbody .ant-table-row td:nth-child(2)').allInnerTexts();
}

async function expectRows(page: Page, expected: TAccountListRow[]) {
  await expect.poll(() => rowNames(page), { timeout: 10_000 }).toEqual(expected.map((a) => a.name));
  if (expected.length === 0) await page.getByText('No accounts match these filters').waitFor();
}

const row = (page: Page, name: string) => page.locator('.ant-table-tbody .ant-table-row', { has: page.getByRole('link', { name, exact: true }) });

describe('accounts list as admin', () => {
  it('opens on the default classes (no On Premise, no Add-on), sorted by name, 20 per page, with the total', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin');
    const expected = await listApi('classIds=1,2,3,4,5&limit=20');
    await expectRows(page, expected.items);
    await page.getByText(`1-20 of ${expected.totalItems} accounts`).waitFor();
    const classTags = await page.locator('#accounts-class').locator('xpath=ancestor::div[contains(@class,"ant-select")]').first().innerText();
    expect(classTags).toContain('Experimental');
  });

  it('searches after a 500 ms pause, keeps the search in the URL, and ranks by relevance', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin');
    await rowNames(page);
    await page.getByLabel('Search', { exact: true }).fill('alpine ski');
    await page.waitForURL(/search=alpine/);
    const expected = await listApi('classIds=1,2,3,4,5&search=alpine%20ski');
    expect(expected.totalItems).toBeGreaterThan(0);
    await expectRows(page, expected.items);
    await page.reload();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('alpine ski');
    await expectRows(page, expected.items);
  });

  it('filters by class, SaaS image, and machine status include and exclude; the URL keeps them', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/account/list?classIds=6');
    const onPremise = await listApi('classIds=6');
    await expectRows(page, onPremise.items);
    expect(await page.locator('.ant-table-tbody .ant-table-row').filter({ hasText: 'On Premise' }).count()).toBe(onPremise.items.length);

    await page.goto('/#/account/list');
    await rowNames(page);
    await page.getByRole('combobox', { name: 'Machine status include' }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('Needs admin (panic)', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/machineStatusInclude=needsAdmin/);
    const panic = await listApi('classIds=1,2,3,4,5&machineStatusInclude=needsAdmin');
    await expectRows(page, panic.items);
    const icons = await page.locator('.ant-table-tbody').getByRole('img', { name: 'Needs admin (panic)' }).count();
    expect(icons).toBe(panic.items.length);
    // Each icon says its count on hover (the tooltip mounts at the first hover: LazyTooltip).
    const first = panic.items[0]!;
    if (first.restricted) throw new Error('an admin sees no restricted row');
    await page.locator('.ant-table-tbody').getByRole('img', { name: 'Needs admin (panic)' }).first().hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: `Needs admin (panic): ${first.machineStats.needsAdmin} of ${first.machineStats.machines} machine(s)` })
      .waitFor();

    await page.goto('/#/account/list?machineStatusExclude=stopped,idle');
    const notStopped = await listApi('classIds=1,2,3,4,5&machineStatusExclude=stopped,idle');
    await expectRows(page, notStopped.items);
    expect(await page.locator('.ant-table-tbody').getByRole('img', { name: 'Stopped' }).count()).toBe(0);

    await page.goto('/#/account/list');
    await rowNames(page);
    await page.getByRole('combobox', { name: 'SaaS image' }).click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    const imageName = (await option.getAttribute('title')) ?? (await option.innerText());
    await option.click();
    await page.waitForURL(/saasImage=/);
    const byImage = await listApi(`classIds=1,2,3,4,5&saasImage=${encodeURIComponent(imageName)}`);
    await expectRows(page, byImage.items);
    const footer = page.getByRole('region', { name: 'Account statistics' });
    await expect.poll(() => footer.innerText()).toContain(`Accounts: ${byImage.totalItems}`);
  });

  it('sorts on the server by a clicked column, both ways, and pages', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin');
    await rowNames(page);
    await page.locator('.ant-table-thead th', { hasText: 'Created' }).click();
    await page.waitForURL(/sortBy=creationTime/);
    await expectRows(page, (await listApi('classIds=1,2,3,4,5&sortBy=creationTime&sortDirection=Ascending')).items);
    await page.locator('.ant-table-thead th', { hasText: 'Created' }).click();
    await page.waitForURL(/sortDirection=Descending/);
    await expectRows(page, (await listApi('classIds=1,2,3,4,5&sortBy=creationTime&sortDirection=Descending')).items);

    await page.locator('.ant-pagination').getByText('2', { exact: true }).click();
    await page.waitForURL(/page=2/);
    await expectRows(page, (await listApi('classIds=1,2,3,4,5&sortBy=creationTime&sortDirection=Descending&startIndex=20')).items);
    await page.reload();
    await expectRows(page, (await listApi('classIds=1,2,3,4,5&sortBy=creationTime&sortDirection=Descending&startIndex=20')).items);
  });

  it('shows launcher logins with their passwords', async () => {
    // The first seeded account of the page that has logins (accounts made by the specs before this one have none).
    let account: TAccountListItem | undefined;
    let logins: TLauncherLogin[] = [];
    for (const candidate of (await listApi('classIds=1&limit=20')).items) {
      logins = await api<TLauncherLogin[]>(`/accounts/${candidate.id}/launcher-logins`, adminToken);
      if (logins.length > 0) {
        account = candidate;
        break;
      }
    }
    expect(logins.length).toBeGreaterThan(0);
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/list?classIds=1`);
    await row(page, account!.name).getByRole('button', { name: 'View Logins' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launcher Logins' });
    await dialog.getByText(logins[0]!.userName).waitFor();
    expect(await dialog.innerText()).toContain(logins[0]!.password);
  });

  it('shows Customer Production accounts with their actions', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/account/list?classIds=5');
    const cp = await listApi('classIds=5');
    await expectRows(page, cp.items);
    await row(page, cp.items[0]!.name).getByRole('button', { name: 'Delete' }).waitFor();
  });
});

describe('accounts list as operator', () => {
  it('deletes an account after the confirmation; the list, audit and tasks follow', async () => {
    const operatorToken = await apiToken('operator');
    const victim = (await listApi('classIds=2&search=staging', operatorToken)).items[0] ?? (await listApi('classIds=2', operatorToken)).items[0]!;
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', `/account/list?classIds=2&search=${encodeURIComponent(victim.urlFriendlyName)}`);
    await row(page, victim.name).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`This will delete account ${victim.name} and terminate all its machines.`).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Account deleted').waitFor();
    await expect.poll(() => row(page, victim.name).count()).toBe(0);
    const audit = await api<TUserActivity[]>(`/user-activities?accountId=${victim.id}&action=DeleteAccount`, adminToken);
    expect(audit[0]).toMatchObject({ user: 'operator', accounts: [{ id: victim.id, name: victim.name }] });
    expect((audit[0]!.metadata.params.terminatedMachineIds as number[]).length).toBe(victim.machineStats.machines);
  });

  it('cancelling the confirmation keeps the account', async () => {
    const [account] = (await listApi('classIds=3&limit=1')).items;
    const { page } = await openPage();
    const deletes: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'DELETE' && req.url().includes('/api/v1/accounts/')) deletes.push(req.url());
    });
    await signIn(page, 'operator', 'operator', '/account/list?classIds=3');
    await row(page, account!.name).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // A later request of the page (the search's, sent after its 500 ms pause): a delete the cancel sent would be before it.
    const searched = page.waitForResponse((res) => res.request().method() === 'GET' && /\/api\/v1\/accounts\?.*search=/.test(res.url()));
    await page.getByLabel('Search', { exact: true }).fill(account!.name);
    const found = (await (await searched).json()) as TFullAccountsPage;
    expect(found.items.map((a) => a.id)).toContain(account!.id);
    expect(deletes).toEqual([]);
    await expect.poll(() => row(page, account!.name).count()).toBe(1);
  });

  it('lists Customer Production as plain names with their class only; the footer counts them; their page is not found', async () => {
    const { page } = await openPage();
    // What the server answered the page (other spec files change accounts meanwhile).
    const listed = page.waitForResponse((r) => /\/api\/v1\/accounts\?/.test(r.url()) && r.request().method() === 'GET' && r.ok());
    const counted = page.waitForResponse((r) => r.url().includes('/api/v1/accounts/info') && r.ok());
    await signIn(page, 'operator', 'operator', '/account/list?classIds=5');
    const list = (await (await listed).json()) as TListAccountsResponse;
    const info = (await (await counted).json()) as TAccountsInfo;
    expect(list.items.length, 'the demo fleet has Customer Production accounts').toBeGreaterThan(0);
    expect(list.items.every((a) => a.restricted)).toBe(true);
    await expectRows(page, list.items);

    const [cp] = list.items;
    const row = page.locator('.ant-table-tbody .ant-table-row').filter({ has: page.locator('td:nth-child(2)', { hasText: cp!.name }) }).first();
    // The name as plain text and the class; no link, no action, no other value.
    expect((await row.locator('td').allInnerTexts()).map((v) => v.trim()).filter((v) => v !== '')).toEqual([cp!.name, 'Customer Production']);
    expect(await row.getByRole('link').count()).toBe(0);
    expect(await row.getByRole('button').count()).toBe(0);
    await row.getByRole('img', { name: /only members of group CustomerProductionAccess may open this account/ }).waitFor();
    await row.getByRole('img', { name: /only members of group CustomerProductionAccess may open this account/ }).hover();
    await page.getByRole('tooltip').filter({ hasText: 'only members of group CustomerProductionAccess may open this account' }).waitFor();
    // The restricted rows and the top bar's Customer Production chip (no link) are accessible.
    await page.getByRole('region', { name: 'Fleet counters' }).getByRole('note', { name: /^Customer Production: / }).waitFor();
    await expectAccessible(page, 'accounts list of an operator, with restricted rows');

    // The footer counts them: as many accounts as the list, the machines of the class in the total.
    expect(info.totalAccounts).toBe(list.totalItems);
    const footer = page.getByRole('region', { name: 'Account statistics' });
    await expect.poll(() => footer.innerText()).toContain(`Accounts: ${info.totalAccounts}`);
    expect(info.machineCounts.machines).toBeGreaterThan(0);
    await footer.getByText(`Machines: ${info.machineCounts.machines}`, { exact: true }).waitFor();

    // Every class is offered in the filter, Customer Production among the defaults.
    await page.getByRole('combobox', { name: 'MMA class' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
    expect(await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts()).toContain('Customer Production');

    // Its page is not found, as every call about it.
    await page.goto(`/#/account/edit/${cp!.id}`);
    await page.getByRole('alert').filter({ hasText: 'Account could not be loaded' }).getByText(`Account ${cp!.id} was not found`).waitFor();
    expect(await page.getByRole('tab', { name: 'Machines' }).count()).toBe(0);
  });
});

describe('accounts list as viewer', () => {
  it('has no Create New and no row actions; the server refuses a delete anyway', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer');
    await rowNames(page);
    expect(await page.getByRole('link', { name: 'Create New' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create New' }).count()).toBe(0);
    expect(await page.locator('.ant-table-tbody').getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.locator('.ant-table-tbody').getByRole('button', { name: 'View Logins' }).count()).toBe(0);
    const [account] = (await listApi('classIds=1&limit=1')).items;
    const res = await fetch(new URL(`/api/v1/accounts/${account!.id}`, page.url()), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await apiToken('viewer')}` },
    });
    expect(res.status).toBe(403);
  });
});
