/**
 * Templates in the console (spec 1 §2 Manage Templates dialog, §3 Template, §4
 * Template picking, §5 Templates, §6 write, §8 toasts, §9 page size 7) in
 * Chromium against the real server, on the Edit account page: saving a template
 * of every kind from the page's forms, loading templates into the cards,
 * replacing and deleting templates, the filters and paging, private templates,
 * refusals of the server, and what a viewer and an add-on account get.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TAccountDetail, TListAccountsResponse, TTemplate } from '@fleet/contracts';
import { adminToken, api, apiToken, pagesPerTest, settled, signIn, useBrowserAndAdmin } from './browser.js';

let operatorToken: string;
/** An account with every section (class Internal Testing, not a template account). */
let account: TAccountDetail;
useBrowserAndAdmin();
beforeAll(async () => {
  operatorToken = await apiToken('operator');
  const listed = (await api<TListAccountsResponse>('/accounts?classIds=2&limit=50', adminToken)).items;
  const candidates = await Promise.all(listed.map((a) => api<TAccountDetail>(`/accounts/${a.id}`, adminToken)));
  const found = candidates.find((a) => !a.isTemplate && a.machineConfig && a.backupConfig && a.backupConfig.times.length > 0);
  if (!found) throw new Error('no Internal Testing account with instance and backup settings');
  account = found;
});

const ROWS = '.ant-table-tbody tr[data-row-key]';
const openPage = pagesPerTest();
/**
 * A short tag unique to this attempt of a test: the names of the templates it
 * makes carry it, so that a retried test does not find its first attempt's too.
 */
const attempt = () => Math.random().toString(36).slice(2, 7);

const templates = (kind: string, token = adminToken) => api<TTemplate[]>(`/template/${kind}`, token);
const createTemplate = (kind: string, body: Record<string, unknown>, token = adminToken) =>
  api<TTemplate>(`/template/${kind}`, token, { method: 'POST', body: JSON.stringify(body) });
const byName = async (kind: string, name: string, token = adminToken) => (await templates(kind, token)).find((t) => t.name === name);

/**
 * Clicks Manage Templates once the Edit page's cards have loaded: the button
 * sits under them, and while they arrive each one moves it down (on a loaded
 * runner a click kept waiting for it to stand still until it timed out, on
 * both attempts).
 */
async function clickManageTemplates(page: Page) {
  await page.getByRole('region', { name: 'License Settings' }).waitFor();
  await settled(page);
  await page.getByRole('button', { name: 'Manage Templates' }).click();
}

/** Signs in on the account's Edit page and opens Manage Templates. */
async function openDialog(page: Page, user = 'admin', accountId = account.id): Promise<Locator> {
  await signIn(page, user, user, `/account/edit/${accountId}`);
  await clickManageTemplates(page);
  const dialog = page.getByRole('dialog', { name: 'Manage Templates' });
  await dialog.waitFor();
  return dialog;
}

/** The names in the dialog's table, once the list has loaded. */
async function rowNames(dialog: Locator): Promise<string[]> {
  await dialog.locator('.ant-table-tbody tr').first().waitFor();
  await dialog.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
  return dialog.locator(`${ROWS} td:first-child`).allInnerTexts();
}

async function showKind(dialog: Locator, label: string) {
  await dialog.getByRole('tab', { name: label }).click();
  await dialog.getByRole('tabpanel', { name: label }).waitFor();
}

async function closeDialog(dialog: Locator) {
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

describe('saving templates from the page', () => {
  it('saves a template of every kind with the values of its card; an empty name is skipped', async () => {
    const { context, page } = await openPage();
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/api/v1/template/')) posts.push(req.url());
    });
    const dialog = await openDialog(page);

    await dialog.getByRole('button', { name: 'Create New' }).click();
    await dialog.getByLabel('New template name').fill('   ');
    await dialog.getByRole('button', { name: 'Create New' }).click();
    expect(posts).toEqual([]);

    const kinds = [
      { label: 'General', kind: 'general', saved: 'General template saved' },
      { label: 'License Settings', kind: 'license-settings', saved: 'License template saved' },
      { label: 'Instance Settings', kind: 'instance-settings', saved: 'Instance settings template saved' },
      { label: 'Backup Settings', kind: 'backup-settings', saved: 'Backup settings template saved' },
    ];
    for (const { label, kind, saved } of kinds) {
      await showKind(dialog, label);
      const name = `E2E saved ${kind}`;
      await dialog.getByLabel('New template name').fill(name);
      if (kind === 'backup-settings') await dialog.getByRole('switch', { name: 'Public' }).click();
      await dialog.getByRole('button', { name: 'Create New' }).click();
      await toast(page, saved).waitFor();
      // The blank name showed nothing: the first save's toast is the only one (a toast shows for 3 s).
      if (kind === 'general') expect(await page.locator('.ant-message-notice').allInnerTexts()).toEqual([saved]);
      await expect.poll(() => rowNames(dialog)).toContain(name);
      expect(await dialog.getByLabel('New template name').inputValue()).toBe('');
    }
    // One save per kind: the blank name sent none (it would have gone before them).
    expect(posts).toHaveLength(4);

    const backup = await byName('backup-settings', 'E2E saved backup-settings');
    expect(backup).toMatchObject({ ...account.backupConfig, isPublic: false, owner: 'admin' });
    const instance = await byName('instance-settings', 'E2E saved instance-settings');
    const { autoStopTime: _autoStop, ...machineConfig } = account.machineConfig!;
    expect(instance).toMatchObject({ ...machineConfig, isPublic: true, autoStopTime: null });
    const general = await byName('general', 'E2E saved general');
    expect(general).toMatchObject({
      isPublic: true,
      classId: account.classId,
      customer: account.customer,
      description: account.description,
      maintainer: account.maintainer,
      managed: account.managed,
      contactName: account.contact.name,
      contactEmail: account.contact.email,
      contactPhone1: account.contact.phone1,
      billingPeriod: account.billing.period,
      billingAmount: account.billing.amount,
    });
    expect(general).not.toHaveProperty('urlFriendlyName');
    const license = await byName('license-settings', 'E2E saved license-settings');
    const { expirationTime: _expires, matchedTemplate: _matched, addOnSitename: _alias, ...licenseConfig } = account.licenseConfig;
    expect(license).toMatchObject(licenseConfig);
    expect(license).not.toHaveProperty('expirationTime');
    await context.close();
  });
});

describe('loading templates into the cards', () => {
  it('loads a backup template: the daily schedule and retention show its values', async () => {
    const name = `E2E load backup ${attempt()}`;
    await createTemplate('backup-settings', { name, times: ['03:30', '21:00'], monthlyBackupDay: 17, weeklyBackupDay: 5, dailyDaysToRetain: 11 });
    const { context, page } = await openPage();
    const dialog = await openDialog(page);
    await showKind(dialog, 'Backup Settings');
    await dialog.getByLabel('Search templates').fill(name);
    await expect.poll(() => rowNames(dialog)).toEqual([name]);
    await dialog.getByRole('button', { name: `Select ${name}` }).click();
    await toast(page, 'Template loaded').waitFor();
    await closeDialog(dialog);

    const card = page.getByRole('region', { name: 'Backup Settings' });
    const schedule = card.getByRole('table').filter({ hasText: 'Time (UTC)' });
    await expect.poll(async () => (await schedule.locator(`tbody tr[data-row-key]`).allInnerTexts()).map((t) => t.trim())).toEqual(['03:30', '21:00']);
    expect(await card.getByLabel('Monthly backup day').inputValue()).toBe('17');
    expect(await card.getByLabel('Daily days to retain').inputValue()).toBe('11');
    await context.close();
  });

  it("loads an instance template but keeps the existing account's locked region and image", async () => {
    const name = `E2E load instance ${attempt()}`;
    const own = account.machineConfig!;
    const smoke = !own.runSmokeTest;
    // A region and image other than the account's, which an existing account must keep.
    const other =
      own.region === 'eu-west-1'
        ? { region: 'us-east-1', vmImageName: 'irmn-8.1.3-win2022-use1' }
        : { region: 'eu-west-1', vmImageName: 'irmn-8.1.3-win2022-euw1' };
    await createTemplate('instance-settings', { name, ...other, marketingVersion: 'E2E Marketing 9.9', runSmokeTest: smoke });
    const { context, page } = await openPage();
    const dialog = await openDialog(page);
    await showKind(dialog, 'Instance Settings');
    await dialog.getByLabel('Search templates').fill('E2E load');
    await dialog.getByRole('button', { name: `Select ${name}` }).click();
    await toast(page, 'Template loaded').waitFor();
    await closeDialog(dialog);

    const card = page.getByRole('region', { name: 'Instance Settings' });
    expect(await card.getByLabel('Marketing version').inputValue()).toBe('E2E Marketing 9.9');
    expect(await card.getByRole('switch', { name: 'Run smoke test' }).isChecked()).toBe(smoke);
    expect(await card.getByLabel('Image', { exact: true }).inputValue()).toBe(own.vmImageName);
    expect(await card.locator('.ant-form-item').filter({ hasText: /^Region/ }).innerText()).toContain(`(${own.region})`);
    await context.close();
  });

  it("loads a general template into Account Properties without touching the account's name", async () => {
    const name = `E2E load general ${attempt()}`;
    await createTemplate('general', {
      name,
      classId: account.classId,
      customer: 'E2E Customer',
      contactName: 'E2E Contact',
      contactEmail: 'e2e.contact@example.com',
      billingPeriod: 'Yearly',
      billingAmount: 321,
    });
    const { context, page } = await openPage();
    const dialog = await openDialog(page);
    await dialog.getByLabel('Search templates').fill(name);
    await dialog.getByRole('button', { name: `Select ${name}` }).click();
    await toast(page, 'Template loaded').waitFor();
    await closeDialog(dialog);

    const card = page.getByRole('region', { name: 'Account Properties' });
    expect(await card.getByLabel('Contact name').inputValue()).toBe('E2E Contact');
    expect(await card.getByLabel('Contact email').inputValue()).toBe('e2e.contact@example.com');
    expect(await card.getByLabel('Customer').inputValue()).toBe('E2E Customer');
    expect(await card.getByLabel('Billing amount').inputValue()).toBe('321');
    expect(await card.getByLabel('Display name').inputValue()).toBe(account.name);
    expect(await card.getByLabel('URL name').inputValue()).toBe(account.urlFriendlyName);
    await context.close();
  });

  it('picks a license template in the License Settings header', async () => {
    const name = `E2E pick license ${attempt()}`;
    await createTemplate('license-settings', { name, instancePolicy: 'InstancePerSiteMaster', cloudCredits: 432, maxUsers: 77, maxSites: 9 });
    const { context, page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${account.id}`);
    const card = page.getByRole('region', { name: 'License Settings' });
    const picker = card.getByRole('combobox', { name: 'License Settings template' });
    // Once the cards have loaded, as clickManageTemplates does: while they arrive the header moves
    // (on a loaded runner the click kept waiting for it to stand still, on both attempts).
    await card.waitFor();
    await settled(page);
    await picker.click();
    await picker.fill(name);
    await page.locator('.ant-select-item-option').filter({ hasText: name }).click();
    await toast(page, 'Template loaded').waitFor();
    // The header's picker does not fold the card.
    expect(await card.getByLabel('Maximum Credits').inputValue()).toBe('432');
    expect(await card.getByLabel('Maximum users', { exact: true }).inputValue()).toBe('77');
    expect(await card.getByLabel('Maximum sites').inputValue()).toBe('9');
    await context.close();
  });
});

describe('replacing and deleting templates', () => {
  it("saves the card's current values into the selected template", async () => {
    const name = `E2E replace backup ${attempt()}`;
    await createTemplate('backup-settings', { name, monthlyBackupDay: 2 });
    const { context, page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${account.id}`);
    const card = page.getByRole('region', { name: 'Backup Settings' });
    await card.getByLabel('Monthly backup day').fill('23');
    await clickManageTemplates(page);
    const dialog = page.getByRole('dialog', { name: 'Manage Templates' });
    await showKind(dialog, 'Backup Settings');
    await dialog.getByLabel('Search templates').fill(name);
    await dialog.getByRole('button', { name: `Save ${name}` }).click();
    await toast(page, 'Backup settings template saved').waitFor();
    expect(await byName('backup-settings', name)).toMatchObject({ monthlyBackupDay: 23, times: account.backupConfig!.times, isPublic: true });
    await context.close();
  });

  it('deletes a template only after Yes', async () => {
    const name = `E2E delete general ${attempt()}`;
    const created = await createTemplate('general', { name });
    const { context, page } = await openPage();
    const deletes: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'DELETE' && req.url().includes('/api/v1/template/')) deletes.push(req.url());
    });
    const dialog = await openDialog(page);
    await dialog.getByLabel('Search templates').fill(name);
    await expect.poll(() => rowNames(dialog)).toEqual([name]);

    await dialog.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: `Are you sure you want to delete ${name}` });
    await confirm.getByRole('button', { name: 'No' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await byName('general', name)).toMatchObject({ id: created.id, name });

    await dialog.getByRole('button', { name: `Delete ${name}` }).click();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Template deleted').waitFor();
    // Yes sent the page's only delete: No sent none (it would have gone first).
    expect(deletes).toHaveLength(1);
    await expect.poll(() => rowNames(dialog)).toEqual([]);
    await dialog.getByText('No templates').waitFor();
    expect(await byName('general', name)).toBeUndefined();
    await context.close();
  });

  it("shows the error toasts when the server refuses another user's template", async () => {
    const name = `E2E operator public backup ${attempt()}`;
    await createTemplate('backup-settings', { name, isPublic: true }, operatorToken);
    const { context, page } = await openPage();
    const dialog = await openDialog(page);
    await showKind(dialog, 'Backup Settings');
    await dialog.getByLabel('Search templates').fill(name);
    await dialog.getByRole('button', { name: `Save ${name}` }).click();
    await toast(page, 'Error occurred saving backup settings template').waitFor();
    await dialog.getByRole('button', { name: `Delete ${name}` }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Error occurred deleting template').waitFor();
    expect(await rowNames(dialog)).toEqual([name]);
    expect(await byName('backup-settings', name)).toMatchObject({ owner: 'operator' });
    await context.close();
  });
});

describe('finding templates', () => {
  it('filters by search, version-only and Template/Account, 7 per page', async () => {
    const tag = attempt();
    const filtered = [`vE2E filter one ${tag}`, `E2E filter two ${tag}`, `E2E filter three ${tag}`];
    for (const name of filtered) await createTemplate('license-settings', { name });
    const paged = Array.from({ length: 8 }, (_, i) => `E2E paged ${tag} ${String(i + 1).padStart(2, '0')}`);
    for (const name of paged) await createTemplate('license-settings', { name });
    const listed = await templates('license-settings');
    const { context, page } = await openPage();
    const dialog = await openDialog(page);
    await showKind(dialog, 'License Settings');

    await dialog.getByLabel('Search templates').fill('FILTER');
    await expect.poll(async () => (await rowNames(dialog)).filter((n) => n.endsWith(tag)).sort()).toEqual([...filtered].sort());
    await dialog.getByLabel('Search templates').fill(`FILTER ONE ${tag.toUpperCase()}`);
    await expect.poll(() => rowNames(dialog)).toEqual([filtered[0]]);
    await dialog.getByLabel('Search templates').fill('FILTER');
    await dialog.getByRole('switch', { name: 'Version only' }).click();
    await expect.poll(async () => (await rowNames(dialog)).filter((n) => n.endsWith(tag))).toEqual([filtered[0]]);
    await dialog.getByLabel('Search templates').fill('');
    const versionNames = listed.filter((t) => t.isTemplate && t.name.startsWith('v')).map((t) => t.name);
    await expect.poll(() => rowNames(dialog)).toEqual(versionNames.slice(0, 7));
    await dialog.getByRole('switch', { name: 'Version only' }).click();

    await dialog.getByLabel('Search templates').fill(`E2E paged ${tag}`);
    await expect.poll(() => rowNames(dialog)).toEqual(paged.slice(0, 7));
    await dialog.getByText('1-7 of 8').waitFor();
    await dialog.locator('.ant-pagination-item-2').click();
    await expect.poll(() => rowNames(dialog)).toEqual([paged[7]]);

    await dialog.getByLabel('Search templates').fill('');
    await dialog.locator('label').filter({ hasText: /^Account$/ }).click();
    const accountNames = listed.filter((t) => !t.isTemplate).map((t) => t.name);
    expect(accountNames.length).toBeGreaterThan(0);
    await expect.poll(() => rowNames(dialog)).toEqual(accountNames.slice(0, 7));
    expect(await dialog.getByRole('button', { name: /^(Save|Delete) / }).count()).toBe(0);
    await dialog.getByRole('button', { name: `Select ${accountNames[0]}` }).click();
    await toast(page, 'Template loaded').waitFor();
    await context.close();
  });

  it("shows a private template to its owner only", async () => {
    const name = 'E2E operator private general';
    await createTemplate('general', { name, isPublic: false }, operatorToken);
    expect(await byName('general', name)).toBeUndefined();

    const { context, page } = await openPage();
    const dialog = await openDialog(page);
    await dialog.getByLabel('Search templates').fill('E2E operator');
    await dialog.getByText('No templates').waitFor();
    expect(await rowNames(dialog)).toEqual([]);
    await context.close();

    const operator = await openPage();
    const own = await openDialog(operator.page, 'operator');
    await own.getByLabel('Search templates').fill('E2E operator');
    await expect.poll(() => rowNames(own)).toEqual([name]);
    const row = own.locator(ROWS).first();
    expect((await row.innerText()).replace(/\s+/g, ' ')).toContain(`${name} Private operator`);
    await operator.context.close();
  });
});

describe('who gets what', () => {
  it('offers no Manage Templates to a viewer', async () => {
    const { context, page } = await openPage();
    await signIn(page, 'viewer', 'viewer', `/account/edit/${account.id}`);
    await page.getByRole('region', { name: 'Backup Settings' }).waitFor();
    expect(await page.getByRole('button', { name: 'Manage Templates' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: /template$/ }).count()).toBe(0);
    await context.close();
  });

  it('offers only the general and license kinds for an add-on account', async () => {
    const [addOn] = (await api<TListAccountsResponse>('/accounts?classIds=200&limit=1', adminToken)).items;
    const { context, page } = await openPage();
    const dialog = await openDialog(page, 'admin', addOn!.id);
    expect(await dialog.getByRole('tab').allInnerTexts()).toEqual(['General', 'License Settings']);
    await context.close();
  });
});
