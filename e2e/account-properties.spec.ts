/**
 * The Account Properties card of Edit account (spec 1 §2 Account Properties
 * card, §4 add-on rules and class confirmation, §5 validation, §6, §8; DESIGN §5
 * section versions) in Chromium against the real server: editing and pushing
 * and seeing the values after a reload, validation on blur, the server's field
 * errors (a URL name it refuses, a URL name another account uses), a stale push
 * and its Reload, the class confirmation, add-on accounts and their parent,
 * Send Creation Email, and what operators and viewers see.
 *
 * Every test that changes an account creates its own through the API (draft,
 * then create-from-draft), so tests do not depend on each other or on the seed.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  DEVOPS_EMAIL,
  URL_NAME_MESSAGE,
  type TAccountDetail,
  type TCreateAccountRequest,
  type TFullAccountsPage,
  type TPushAccountPropertiesRequest,
  type TUserActivity,
} from '@fleet/contracts';
import { adminToken, api, apiToken, pagesPerTest, signIn, chooseOption, createAccount, openDropdown, selectText, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

/** A new account made through the API (draft, then create-from-draft); add-ons (class 200) get no image. */
async function newAccount(extra: Partial<TCreateAccountRequest> = {}): Promise<TAccountDetail> {
  return detail(await createAccount(adminToken, 'Properties', extra));
}

async function newAddOn(parent: TAccountDetail): Promise<TAccountDetail> {
  return newAccount({
    classId: 200,
    parentId: parent.id,
    name: `${parent.name} add-on`,
    licenseConfig: { addOnSiteName: 'Annex', addOnAreaCategoryName: 'Annex Areas' },
  });
}

const detail = (id: number) => api<TAccountDetail>(`/accounts/${id}`, adminToken);

/** The properties of an account as `PUT /accounts/{id}` takes them. */
function propertiesBody(a: TAccountDetail): TPushAccountPropertiesRequest {
  const { classId, parentId, name, urlFriendlyName, description, customer, contact, maintainer, billing, managed, whiteGlove, autoTest, autoTestBranch } = a;
  return {
    ...{ classId, parentId, name, urlFriendlyName, description, customer, contact, maintainer, billing, managed, whiteGlove, autoTest, autoTestBranch },
    version: a.versions.properties,
  };
}

const card = (page: Page) => page.getByRole('region', { name: 'Account Properties' });
const field = (page: Page, label: string) => card(page).getByLabel(label, { exact: true });
const pushButton = (page: Page) => card(page).getByRole('button', { name: 'Push Account Properties' });
/** A maintainer choice as the user clicks it (antd hides the radio input inside its button). */
const maintainerButton = (page: Page, name: string) => card(page).locator('label.ant-radio-button-wrapper', { hasText: name });
const isChecked = async (control: Locator) => (await control.getAttribute('aria-checked')) === 'true';
/** The error text under a field (antd's explain list of its Form.Item). */
const fieldError = (page: Page, label: string) =>
  card(page).locator('.ant-form-item', { has: page.getByLabel(label, { exact: true }) }).locator('.ant-form-item-explain-error');

async function openAccount(page: Page, id: number, user = 'admin') {
  await signIn(page, user, user, `/account/edit/${id}`);
  await expect.poll(() => field(page, 'Display name').inputValue()).not.toBe('');
}

describe('account properties as admin', () => {
  it('edits every kind of field, pushes, and shows the values after a reload', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    const c = card(page);
    expect(await field(page, 'URL name').inputValue()).toBe(account.urlFriendlyName);
    await c.getByText(account.launcherUrl!).waitFor();
    expect(await c.getByRole('radio', { name: 'DevOps' }).isChecked()).toBe(true);

    await field(page, 'Description').fill('Edited by the properties spec');
    // The customer autocomplete offers known customers.
    await field(page, 'Customer').fill('Contoso');
    await openDropdown(page).locator('.ant-select-item-option', { hasText: 'Contoso Telecom' }).click();
    await field(page, 'Phone 1').fill('+1 555 0100');
    await chooseOption(page, field(page, 'Billing period'), 'Monthly');
    await field(page, 'Billing amount').fill('25');
    await maintainerButton(page, 'Contact').click();
    await c.getByText('casey@example.com', { exact: true }).waitFor();
    // The maintainer follows the contact's email while it is edited.
    await field(page, 'Contact email').fill('morgan@example.com');
    await c.getByText('morgan@example.com', { exact: true }).waitFor();
    expect(await field(page, 'Auto test branch').isDisabled()).toBe(true);
    await field(page, 'Auto test').click();
    await field(page, 'Auto test branch').fill('develop');
    await field(page, 'White glove').click();

    await pushButton(page).click();
    await page.getByText('Account properties pushed').waitFor();
    const saved = await detail(account.id);
    expect(saved).toMatchObject({
      description: 'Edited by the properties spec',
      customer: 'Contoso Telecom',
      contact: { name: 'Casey Contact', email: 'morgan@example.com', phone1: '+1 555 0100' },
      billing: { period: 'Monthly', amount: 25 },
      maintainer: 'morgan@example.com',
      autoTest: true,
      autoTestBranch: 'develop',
      whiteGlove: true,
      managed: true,
    });
    expect(saved.versions.properties).toBe(account.versions.properties + 1);

    await page.reload();
    await expect.poll(() => field(page, 'Description').inputValue()).toBe('Edited by the properties spec');
    expect(await field(page, 'Customer').inputValue()).toBe('Contoso Telecom');
    expect(await field(page, 'Phone 1').inputValue()).toBe('+1 555 0100');
    expect(await selectText(card(page), 'Billing period')).toBe('Monthly');
    expect(await field(page, 'Billing amount').inputValue()).toBe('25');
    expect(await c.getByRole('radio', { name: 'Contact' }).isChecked()).toBe(true);
    expect(await field(page, 'Auto test branch').inputValue()).toBe('develop');
    expect(await isChecked(field(page, 'White glove'))).toBe(true);

    // A custom maintainer.
    await maintainerButton(page, 'Custom').click();
    await c.getByLabel('Custom maintainer').fill('night-shift@example.com');
    await pushButton(page).click();
    await expect.poll(async () => (await detail(account.id)).maintainer).toBe('night-shift@example.com');
    await maintainerButton(page, 'DevOps').click();
    await pushButton(page).click();
    await expect.poll(async () => (await detail(account.id)).maintainer).toBe(DEVOPS_EMAIL);
  });

  it('validates on blur with the specification messages and pushes nothing while a field is wrong', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    const pushes: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PUT' && req.url().endsWith(`/api/v1/accounts/${account.id}`)) pushes.push(req.url());
    });
    await openAccount(page, account.id);
    const cases: [string, string, string][] = [
      ['Display name', '', 'Account name is required'],
      ['URL name', '', 'Account URL name is required'],
      ['Contact name', '', 'Contact name is required'],
      ['Contact email', '', 'Contact email is required'],
      ['Billing amount', '0', 'Billing amount must be at least 1'],
    ];
    for (const [label, value, message] of cases) {
      await field(page, label).fill(value);
      expect(await fieldError(page, label).count()).toBe(0);
      await field(page, label).blur();
      await expect.poll(() => fieldError(page, label).innerText()).toBe(message);
    }
    await pushButton(page).click();
    await expect.poll(() => fieldError(page, 'Display name').innerText()).toBe('Account name is required');
    // Put right, it pushes: that push is the page's only one, so the wrong form sent none.
    const fixed: [string, string][] = [
      ['Display name', `${account.name} fixed`],
      ['URL name', account.urlFriendlyName],
      ['Contact name', account.contact.name],
      ['Contact email', account.contact.email],
      ['Billing amount', '25'],
    ];
    for (const [label, value] of fixed) await field(page, label).fill(value);
    await pushButton(page).click();
    await page.getByText('Account properties pushed').waitFor();
    expect(pushes).toHaveLength(1);
    const saved = await detail(account.id);
    expect(saved.versions.properties).toBe(account.versions.properties + 1);
    expect(saved).toMatchObject({ name: `${account.name} fixed`, billing: { amount: 25 } });
  });

  it("shows the server's field errors: a URL name it refuses (400) and one another account uses (409)", async () => {
    const [account, other] = await Promise.all([newAccount(), newAccount()]);
    const { page } = await openPage();
    await openAccount(page, account.id);

    await field(page, 'URL name').fill('Bad Name!');
    await pushButton(page).click();
    await page.getByText('Error occurred pushing account properties').waitFor();
    await expect.poll(() => fieldError(page, 'URL name').innerText()).toBe(URL_NAME_MESSAGE);

    await field(page, 'URL name').fill(other.urlFriendlyName);
    await pushButton(page).click();
    await expect
      .poll(() => fieldError(page, 'URL name').innerText())
      .toBe(`Account URL name '${other.urlFriendlyName}' is already used by another account`);
    // A duplicate is not a stale version: no conflict notice.
    expect(await card(page).getByText('Someone else changed this section').count()).toBe(0);
    expect((await detail(account.id)).urlFriendlyName).toBe(account.urlFriendlyName);
  });

  it('answers a stale push with the conflict notice; Reload shows the current values', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    // Another session pushes after this page loaded the account.
    await api(`/accounts/${account.id}`, await apiToken('operator'), {
      method: 'PUT',
      body: JSON.stringify({ ...propertiesBody(account), description: 'Pushed by the other session' }),
    });

    await field(page, 'Description').fill('Pushed by this page');
    await pushButton(page).click();
    const notice = card(page).getByRole('alert').filter({ hasText: 'Someone else changed this section' });
    await notice.getByText(/last pushed by operator/).waitFor();
    expect((await detail(account.id)).description).toBe('Pushed by the other session');

    await notice.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => field(page, 'Description').inputValue()).toBe('Pushed by the other session');
    expect(await notice.count()).toBe(0);
    // Pushing now carries the current version.
    await field(page, 'Description').fill('Pushed after the reload');
    await pushButton(page).click();
    await page.getByText('Account properties pushed').waitFor();
    expect((await detail(account.id)).description).toBe('Pushed after the reload');
  });

  it('asks before switching class: No keeps it, Yes switches, the push stores it', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    expect(await selectText(card(page), 'MMA class')).toBe('Experimental');

    // The same class does nothing.
    await chooseOption(page, field(page, 'MMA class'), 'Experimental');
    expect(await page.getByRole('dialog', { name: 'Change MMA class' }).count()).toBe(0);

    await chooseOption(page, field(page, 'MMA class'), 'Internal Testing');
    const dialog = page.getByRole('dialog', { name: 'Change MMA class' });
    await dialog.getByText('Change the MMA class from Experimental to Internal Testing?').waitFor();
    await dialog.getByRole('button', { name: 'No' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await selectText(card(page), 'MMA class')).toBe('Experimental');

    await chooseOption(page, field(page, 'MMA class'), 'Internal Testing');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => selectText(card(page), 'MMA class')).toBe('Internal Testing');
    await pushButton(page).click();
    await page.getByText('Account properties pushed').waitFor();
    expect((await detail(account.id)).classId).toBe(2);
  });

  it('sends the creation email, and says so when it fails', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id);
    await card(page).getByRole('button', { name: 'Send Creation Email' }).click();
    await page.getByText('Creation email sent').waitFor();
    const sent = await api<TUserActivity[]>(`/user-activities?accountId=${account.id}&action=SendCreationMail`, adminToken);
    expect(sent).toHaveLength(1);

    await page.route(`**/api/v1/accounts/${account.id}/send-creation-mail`, (route) =>
      route.fulfill({
        status: 502,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: 'The mail server refused the message' }),
      }),
    );
    await card(page).getByRole('button', { name: 'Send Creation Email' }).click();
    await page.getByText('Error occurred sending creation email').waitFor();
  });
});

describe('add-on accounts', () => {
  it('locks the add-on switches, lists only possible parents, and names the add-on after a new parent', async () => {
    const [first, second] = await Promise.all([newAccount(), newAccount()]);
    const addOn = await newAddOn(first);
    const templates = (await api<TFullAccountsPage>('/accounts?limit=1000&classIds=1,2,3,4', adminToken)).items.filter((a) => a.isTemplate);
    expect(templates.length).toBeGreaterThan(0);
    const { page } = await openPage();
    await openAccount(page, addOn.id);

    expect(await selectText(card(page), 'MMA class')).toBe('Add-on Account');
    expect(await field(page, 'MMA class').isDisabled()).toBe(true);
    expect(await selectText(card(page), 'Add-on parent account')).toBe(first.name);
    for (const label of ['Managed', 'White glove', 'Auto test']) {
      const control = card(page).getByRole('switch', { name: label });
      expect(await control.isDisabled()).toBe(true);
      expect(await isChecked(control)).toBe(false);
    }
    // No launcher URL for an add-on.
    expect(await card(page).getByText('Launcher URL').count()).toBe(0);

    // Templates and add-ons are no parents (the list has loaded: the current parent is in it).
    const parent = field(page, 'Add-on parent account');
    await parent.click();
    await parent.fill(first.name);
    await openDropdown(page).locator('.ant-select-item-option', { hasText: first.name }).waitFor();
    for (const name of [templates[0]!.name, addOn.name]) {
      await parent.fill(name);
      await openDropdown(page).locator('.ant-empty-description').waitFor();
    }
    await parent.fill(second.name);
    await openDropdown(page).locator('.ant-select-item-option', { hasText: second.name }).click();
    await expect.poll(() => field(page, 'Display name').inputValue()).toBe(`${second.name} add-on`);

    await pushButton(page).click();
    await page.getByText('Account properties pushed').waitFor();
    expect(await detail(addOn.id)).toMatchObject({ parentId: second.id, name: `${second.name} add-on`, managed: false });
  });
});

describe('who may do what', () => {
  it('offers Customer Production only to the CustomerProductionAccess group', async () => {
    const account = await newAccount();
    const options = async (user: string) => {
      const { page } = await openPage();
      await openAccount(page, account.id, user);
      await field(page, 'MMA class').click();
      await openDropdown(page).locator('.ant-select-item-option').first().waitFor();
      const texts = await openDropdown(page).locator('.ant-select-item-option').allInnerTexts();
      return texts;
    };
    const admin = await options('admin');
    expect(admin).toContain('Customer Production');
    // An existing account cannot become an add-on.
    expect(admin).not.toContain('Add-on Account');
    const operator = await options('operator');
    expect(operator).toContain('Customer Staging');
    expect(operator).not.toContain('Customer Production');
  });

  it('shows a viewer the properties read-only, without buttons', async () => {
    const account = await newAccount();
    const { page } = await openPage();
    await openAccount(page, account.id, 'viewer');
    expect(await field(page, 'Display name').inputValue()).toBe(account.name);
    for (const label of ['Display name', 'URL name', 'Contact email', 'MMA class', 'Billing amount']) {
      expect(await field(page, label).isDisabled()).toBe(true);
    }
    expect(await card(page).getByRole('radio', { name: 'Custom' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Push Account Properties' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send Creation Email' }).count()).toBe(0);
    // The launcher URL is there to copy.
    await card(page).getByText(account.launcherUrl!).waitFor();
  });
});
