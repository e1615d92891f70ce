/**
 * The software version picker and its dialogs in the Component Versions card of
 * Edit account (spec 1 §2 Instance Settings card, §4, §9; spec 3 §2.1, §4, §7,
 * §8, §9) in Chromium against the real server: the Select Version modal (branch
 * filter, search, tags only, builds only, 10 commits a page, the breaking
 * checkbox and its revert on failure, Daily and Release builds), what Select and
 * Cancel leave in the picker (and what a push stores), the Select Library File
 * dialog (filters, paging of 12, OK disabled until a file is chosen, the warning
 * when an installed file of the package is newer), Compare Versions, and the
 * auto-test banner with its disabled pickers.
 *
 * Each test that changes an account creates its own through the API (draft, then
 * create-from-draft); what the modal lists is compared with what the API answers.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TAccountDetail, TBuild, TCommit, TInstanceSettings, TLibraryFile, TListCommitsResponse, TListLibraryFilesResponse } from '@fleet/contracts';
import { adminToken, api, pagesPerTest, signIn, chooseOption, clearSelect, createAccount, selectText, setSwitch, openDropdown, TEST_IMAGE, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();

const openPage = pagesPerTest();

/** Waits up to 15 s (the table follows a debounce and a server call; the 1 s default is too short on a busy machine). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
/** Timeout of a test that walks through several dialogs. */
const LONG = 150_000;

/** A new AllInOne account; `autoTestBranch` turns auto test on with that branch. */
async function newAccount(autoTestBranch?: string): Promise<TAccountDetail> {
  const id = await createAccount(adminToken, 'Version Picker', {
    ...(autoTestBranch ? { autoTest: true, autoTestBranch } : {}),
    machineConfig: { vmImageName: TEST_IMAGE, marketingVersion: '8.1' },
  });
  return api<TAccountDetail>(`/accounts/${id}`, adminToken);
}

const commitsApi = (query: string) => api<TListCommitsResponse>(`/software/launcher/commits?${query}`, adminToken);
const libraryApi = (query: string) => api<TListLibraryFilesResponse>(`/library/files?${query}`, adminToken);

const card = (page: Page) => page.getByRole('region', { name: 'Instance Settings' });
const versionModal = (page: Page) => page.getByRole('dialog', { name: /Select Version/ });
const rows = (scope: Locator) => scope.locator('.ant-table-tbody tr[data-row-key]');
/** The text of column `n` (1-based, the selection column included) of every row. */
const column = (scope: Locator, n: number) => rows(scope).locator(`td:nth-child(${n})`).allInnerTexts();
const rowKeys = (scope: Locator) => rows(scope).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key') ?? ''));

async function openAccount(page: Page, id: number) {
  await signIn(page, 'admin', 'admin', `/account/edit/${id}`);
  await card(page).getByText('Component Versions').waitFor();
  await card(page).getByLabel('Launcher version mode', { exact: true }).waitFor();
}

/** Opens the Select Version modal of `component` by choosing the Select mode. */
async function openSelect(page: Page, component: string): Promise<Locator> {
  await chooseOption(page, card(page).getByLabel(`${component} version mode`, { exact: true }), 'Select', { exact: true });
  const modal = versionModal(page);
  await modal.getByRole('tab', { name: 'Commits' }).waitFor();
  await poll(() => rows(modal).count()).toBeGreaterThan(0);
  return modal;
}

/** Waits until the commits table shows exactly the commits `expected` (by full hash). */
async function expectCommits(modal: Locator, expected: TCommit[]) {
  await poll(() => rowKeys(modal)).toEqual(expected.map((c) => c.fullHash));
}

describe('Select Version modal', () => {
  it('opens on Select and filters commits by branch, search, tags only and builds only, 10 a page', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    const modal = await openSelect(page, 'Launcher');
    expect(await modal.getByRole('tab', { name: 'Builds' }).count()).toBe(1);

    // 10 a page, newest first, paged on the server.
    const first = await commitsApi('limit=10');
    expect(first.totalItems).toBeGreaterThan(10);
    await expectCommits(modal, first.items);
    await modal.getByText(`1-10 of ${first.totalItems} commits`).waitFor();
    await modal.locator('.ant-pagination').getByText('2', { exact: true }).click();
    await expectCommits(modal, (await commitsApi('startIndex=10&limit=10')).items);
    // Columns: hash (full hash in a tooltip), builds as first letters, message cut at 45.
    const longMessage = first.items.find((c) => c.message.length > 45);
    await modal.locator('.ant-pagination').getByText('1', { exact: true }).click();
    await expectCommits(modal, first.items);
    expect(await column(modal, 2)).toEqual(first.items.map((c) => c.shortHash));
    expect(await column(modal, 7)).toEqual(first.items.map((c) => c.builds.map((b) => b.type[0]).join('')));
    if (longMessage) {
      const cell = rows(modal).filter({ hasText: longMessage.shortHash }).locator('td:nth-child(9)');
      expect(await cell.innerText()).toBe(`${longMessage.message.slice(0, 45)}…`);
    }
    await rows(modal).first().locator('td:nth-child(2) code').hover();
    await page.getByRole('tooltip').getByText(first.items[0]!.fullHash).waitFor();

    // Branch filter.
    await chooseOption(page, modal.getByRole('combobox', { name: 'Branch', exact: true }), 'release/8.1', { exact: true });
    const onBranch = await commitsApi('branch=release%2F8.1&limit=10');
    await expectCommits(modal, onBranch.items);
    expect(new Set(await column(modal, 3))).toEqual(new Set(['release/8.1']));

    // Tags only, within the branch; then builds only as well.
    await setSwitch(modal.getByRole('switch', { name: 'Tags only' }), true);
    const tagged = await commitsApi('branch=release%2F8.1&tagsOnly=true&limit=10');
    expect(tagged.items.length).toBeGreaterThan(0);
    expect(tagged.totalItems).toBeLessThan(onBranch.totalItems);
    await expectCommits(modal, tagged.items);
    expect((await column(modal, 6)).every((tags) => tags.trim().length > 0)).toBe(true);
    await setSwitch(modal.getByRole('switch', { name: 'Tags only' }), false);
    await setSwitch(modal.getByRole('switch', { name: 'Builds only' }), true);
    const built = await commitsApi('branch=release%2F8.1&buildsOnly=true&limit=10');
    await expectCommits(modal, built.items);
    expect((await column(modal, 7)).every((builds) => builds.trim().length > 0)).toBe(true);
    await setSwitch(modal.getByRole('switch', { name: 'Builds only' }), false);

    // Search (debounced) over every branch: by author.
    await clearSelect(modal, 'Branch');
    await expectCommits(modal, first.items);
    const author = first.items[0]!.author;
    await modal.getByLabel('Search commits').fill(author);
    const byAuthor = await commitsApi(`search=${encodeURIComponent(author)}&limit=10`);
    expect(byAuthor.totalItems).toBeLessThan(first.totalItems);
    await expectCommits(modal, byAuthor.items);
    expect(new Set(await column(modal, 4))).toEqual(new Set([author]));
  }, LONG);

  it('marks a commit breaking and back, and reverts the checkbox when the call fails', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    const modal = await openSelect(page, 'Launcher');
    const [commit] = (await commitsApi('branch=develop&limit=10')).items.filter((c) => !c.isBreaking);
    await modal.getByLabel('Search commits').fill(commit!.shortHash);
    await poll(() => rowKeys(modal)).toEqual([commit!.fullHash]);
    const checkbox = modal.getByRole('checkbox', { name: `Breaking ${commit!.shortHash}` });
    expect(await checkbox.isChecked()).toBe(false);

    const isBreaking = async () => (await commitsApi(`search=${commit!.shortHash}`)).items[0]!.isBreaking;
    await checkbox.click();
    await page.getByText('Commit has been updated').waitFor();
    expect(await isBreaking()).toBe(true);
    expect(await checkbox.isChecked()).toBe(true);
    await poll(() => rows(modal).first().getAttribute('class')).toContain('commit-row-breaking');
    // Choosing the row is not a side effect of the checkbox.
    expect(await modal.getByText('Nothing chosen').count()).toBe(1);

    // A failing call puts the checkbox back and says so.
    await page.route('**/api/v1/software/launcher/commits/*/breaking', (route) =>
      route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }) }),
    );
    await checkbox.click();
    await page.getByText('Error occurred updating commit').waitFor();
    await poll(() => checkbox.isChecked()).toBe(true);
    expect(await isBreaking()).toBe(true);

    await page.unroute('**/api/v1/software/launcher/commits/*/breaking');
    await checkbox.click();
    await poll(isBreaking).toBe(false);
    await poll(() => checkbox.isChecked()).toBe(false);
  }, LONG);

  it('lists Daily and Release builds and puts a chosen build or commit in the picker; a push stores it', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    let modal = await openSelect(page, 'Reporting');

    await modal.getByRole('tab', { name: 'Builds' }).click();
    const panel = modal.getByRole('tabpanel', { name: 'Builds' });
    const daily = await api<TBuild[]>('/software/reporting/builds?type=Daily', adminToken);
    const release = await api<TBuild[]>('/software/reporting/builds?type=Release', adminToken);
    expect(daily.length).toBeGreaterThan(0);
    await poll(() => column(panel, 2)).toEqual(daily.map((b) => b.name));
    await panel.getByText('Release', { exact: true }).click();
    await poll(() => column(panel, 2)).toEqual(release.map((b) => b.name));
    expect(await column(panel, 4)).toHaveLength(release.length);
    expect((await column(panel, 4))[0]).toMatch(/^\d+(\.\d+)? (MB|GB|KB)$/);

    await rows(panel).first().click();
    await modal.getByRole('button', { name: 'Select' }).click();
    await modal.waitFor({ state: 'hidden' });
    const zipName = release[0]!.url.split('/').pop()!;
    expect(await card(page).getByLabel('Reporting version', { exact: true }).inputValue()).toBe(zipName);
    expect(await selectText(card(page), 'Reporting version mode')).toBe('Select');

    // A commit for the launcher: its branch and short hash.
    modal = await openSelect(page, 'Launcher');
    const onBranch = new Map((await commitsApi('branch=release%2F8.1&limit=100')).items.map((c) => [c.fullHash, c]));
    await chooseOption(page, modal.getByRole('combobox', { name: 'Branch', exact: true }), 'release/8.1', { exact: true });
    // The first row is a commit of the branch once the filter applies.
    await poll(() => rowKeys(modal).then((keys) => onBranch.has(keys[0] ?? ''))).toBe(true);
    const commit = onBranch.get((await rowKeys(modal))[0]!);
    await rows(modal).first().click();
    // Shown as `branch / hash` (spec 3 §2.8); the stored `release/8.1|hash` is what the push sends.
    await modal.getByText(`Chosen: release/8.1 / ${commit!.shortHash}`).waitFor();
    await modal.getByRole('button', { name: 'Select' }).click();
    await modal.waitFor({ state: 'hidden' });
    expect(await card(page).getByLabel('Launcher version', { exact: true }).inputValue()).toBe(`release/8.1 / ${commit!.shortHash}`);

    // Latest starts at master; clearing the branch means any branch.
    await chooseOption(page, card(page).getByLabel('Web Client version mode', { exact: true }), 'None', { exact: true });
    await chooseOption(page, card(page).getByLabel('Web Client version mode', { exact: true }), 'Latest', { exact: true });
    await poll(() => selectText(card(page), 'Web Client branch')).toBe('master');
    await clearSelect(card(page), 'Web Client branch');
    await poll(() => selectText(card(page), 'Web Client branch')).toBe('Any branch');

    await card(page).getByRole('button', { name: 'Push Instance Settings' }).click();
    const confirm = page.getByRole('dialog', { name: 'Push instance settings?' });
    const pushed = page.getByText('Instance settings pushed');
    await Promise.race([confirm.waitFor(), pushed.waitFor()]);
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Push' }).click();
    await pushed.waitFor();
    expect(await api<TInstanceSettings>(`/accounts/${account.id}/instance-settings`, adminToken)).toMatchObject({
      reportingVersionMode: 'Select',
      reportingVersion: release[0]!.url,
      launcherVersionMode: 'Select',
      launcherVersion: `release/8.1|${commit!.shortHash}`,
      clientVersionMode: 'Latest',
      clientVersion: '|latest',
    });
  }, LONG);

  it('reverts to None when Select is pressed with nothing chosen or the modal is cancelled', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    expect(await selectText(card(page), 'Export version mode')).toBe('Latest');

    let modal = await openSelect(page, 'Export');
    await modal.getByText('Nothing chosen').waitFor();
    await modal.getByRole('button', { name: 'Select' }).click();
    await modal.waitFor({ state: 'hidden' });
    await poll(() => selectText(card(page), 'Export version mode')).toBe('None');

    modal = await openSelect(page, 'Populate');
    await rows(modal).first().click();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'hidden' });
    await poll(() => selectText(card(page), 'Populate version mode')).toBe('None');
  }, LONG);
});

describe('Select Library File dialog', () => {
  it('filters and pages the files, enables OK once a file is chosen, and warns where an installed file is newer', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    await chooseOption(page, card(page).getByLabel('Main Library mode', { exact: true }), 'Select', { exact: true });
    const dialog = page.getByRole('dialog', { name: 'Select Main Library File' });
    const ok = dialog.getByRole('button', { name: 'OK' });

    // Hide old files is on by default; 12 a page (550 / 45), newest first.
    expect(await dialog.getByRole('switch', { name: 'Hide old files' }).getAttribute('aria-checked')).toBe('true');
    const recent = await libraryApi('hideOld=true&limit=12');
    const all = await libraryApi('limit=1');
    expect(recent.totalItems).toBeLessThan(all.totalItems);
    await poll(() => rowKeys(dialog)).toEqual(recent.items.map((f) => String(f.id)));
    await dialog.getByText(`1-12 of ${recent.totalItems} files`).waitFor();
    expect(await ok.isDisabled()).toBe(true);

    // Type, LCT only, then sorted by name.
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Type', exact: true }), 'Prod', { exact: true });
    await setSwitch(dialog.getByRole('switch', { name: 'LCT only' }), true);
    const prodLct = await libraryApi('hideOld=true&type=Prod&lctOnly=true&limit=12');
    await poll(() => rowKeys(dialog)).toEqual(prodLct.items.map((f) => String(f.id)));
    expect(new Set(await column(dialog, 4))).toEqual(new Set(['Prod']));
    expect((await column(dialog, 6)).every((t) => t.includes('lct2') && t.includes('LCT'))).toBe(true);
    await dialog.getByRole('columnheader', { name: 'Name' }).click();
    const byName = await libraryApi('hideOld=true&type=Prod&lctOnly=true&sortBy=name&sortDirection=Ascending&limit=12');
    await poll(() => rowKeys(dialog)).toEqual(byName.items.map((f) => String(f.id)));

    // Package and latest only, old files shown: one Fiber file per type.
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Type', exact: true }), 'Dev', { exact: true });
    await setSwitch(dialog.getByRole('switch', { name: 'LCT only' }), false);
    await setSwitch(dialog.getByRole('switch', { name: 'Hide old files' }), false);
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Package', exact: true }), 'Fiber', { exact: true });
    await setSwitch(dialog.getByRole('switch', { name: 'Latest only' }), true);
    const [newest] = (await libraryApi('type=Dev&package=Fiber&latestOnly=true')).items;
    await poll(() => rowKeys(dialog)).toEqual([String(newest!.id)]);

    // Choosing a file enables OK; it lands in the picker.
    await rows(dialog).first().click();
    expect(await ok.isDisabled()).toBe(false);
    await ok.click();
    await dialog.waitFor({ state: 'hidden' });
    await card(page).getByLabel('Main Library files', { exact: true }).getByText(newest!.name).waitFor();

    // The account now has the newest Fiber Dev file: older Fiber files warn.
    await chooseOption(page, card(page).getByLabel('Account Library mode', { exact: true }), 'Select', { exact: true });
    const account2 = page.getByRole('dialog', { name: 'Select Account Library File' });
    expect(await account2.getByRole('button', { name: 'OK' }).isDisabled()).toBe(true);
    await setSwitch(account2.getByRole('switch', { name: 'Hide old files' }), false);
    await chooseOption(page, account2.getByRole('combobox', { name: 'Package', exact: true }), 'Fiber', { exact: true });
    const fiber = (await libraryApi('package=Fiber&limit=12')).items;
    await poll(() => rowKeys(account2)).toEqual(fiber.map((f) => String(f.id)));
    const warned = (f: TLibraryFile) => Date.parse(f.date) < Date.parse(newest!.date);
    for (const file of fiber) {
      const warning = rows(account2).filter({ hasText: file.name }).getByLabel('Installed Fiber file is newer');
      expect(await warning.count(), file.name).toBe(warned(file) ? 1 : 0);
    }
    expect(fiber.some(warned)).toBe(true);
    // Cancel without a file: the account library stays None.
    await account2.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => selectText(card(page), 'Account Library mode')).toBe('None');
  }, LONG);
});

describe('Component Versions card', () => {
  it('opens Compare Versions from the bundle version link', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    await card(page).getByText('Bundle version:').locator('a').click();
    const dialog = page.getByRole('dialog', { name: 'Compare Versions' });
    await dialog.getByRole('columnheader', { name: 'Current' }).waitFor();
    expect(await column(dialog, 1)).toEqual(expect.arrayContaining(['Launcher', 'Web Client', 'AP Sensing', 'Bundle version']));
    const launcherRow = rows(dialog).filter({ hasText: 'Launcher' }).first();
    expect(await launcherRow.innerText()).toContain(account.machineConfig!.launcherVersionMode);

    // A template adds a column.
    await dialog.getByLabel('Templates to compare').click();
    const option = openDropdown(page).locator('.ant-select-item-option').first();
    const name = (await option.innerText()).replace(/ \(account\)$/, '');
    await option.click();
    await poll(async () => (await dialog.getByRole('columnheader').allInnerTexts()).map((t) => t.trim())).toContain(name);
  }, LONG);

  it('shows the auto-test banner and disables the pickers when auto test runs with a branch', async () => {
    const account = await newAccount('develop');
    const { page } = await openPage();
    await openAccount(page, account.id);
    await card(page).getByText('Auto test is active with branch develop').waitFor();
    for (const label of ['Launcher version mode', 'AP Sensing version mode', 'Main Library mode', 'Account Library mode']) {
      expect(await card(page).getByLabel(label, { exact: true }).isDisabled(), label).toBe(true);
    }

    const other = await newAccount();
    await page.goto(`/#/account/edit/${other.id}`);
    await card(page).getByLabel('Launcher version mode', { exact: true }).waitFor();
    expect(await card(page).getByText('Auto test is active').count()).toBe(0);
    expect(await card(page).getByLabel('Launcher version mode', { exact: true }).isDisabled()).toBe(false);
  }, LONG);
});
