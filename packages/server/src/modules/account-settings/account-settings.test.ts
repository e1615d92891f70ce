/**
 * API tests of the account detail, Push Account Properties and Push License
 * Settings (spec 1 §3, §4, §5, §9; DESIGN §5): every rule, stale versions, audit,
 * Customer Production visibility and permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { ZAccountDetail } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount } from '../../../test/fixtures.js';
import { activities, detail, fieldErrors, propertiesBody, seededAccountId } from '../../../test/account-fixtures.js';
import { accounts } from '../../db/schema.js';

let t: TestApp;
const ids = { staging: 0, cp: 0, addOn: 0, template: 0, other: 0, noSsl: 0 };

beforeAll(async () => {
  t = await startTestApp();
  ids.staging = await seededAccountId(t, { classId: 4, policy: 'AllInOne', ssl: true });
  ids.other = await seededAccountId(t, { classId: 2 });
  ids.noSsl = await seededAccountId(t, { notClassId: 200, ssl: false });
  ids.cp = await seededAccountId(t, { classId: 5 });
  ids.addOn = await seededAccountId(t, { classId: 200 });
  ids.template = await seededAccountId(t, { classId: 1, isTemplate: true });
});
afterAll(() => t.close());

describe('GET /accounts/{id}', () => {
  it('answers every seeded account in the documented shape', async () => {
    const rows = await t.database.db.select({ id: accounts.id }).from(accounts).where(isNull(accounts.deletedAt));
    for (const { id } of rows) {
      const res = await t.call({ method: 'GET', url: `/accounts/${id}`, as: 'admin' });
      expect(res.statusCode, `account ${id}: ${res.body}`).toBe(200);
      expect(ZAccountDetail.safeParse(res.json()).success, `account ${id}`).toBe(true);
    }
  });

  it('holds contact, billing, sections, sites, versions and the launcher URL', async () => {
    const a = await detail(t, ids.staging);
    expect(a.contact.email).toContain('@');
    expect(a.billing.period).toBe(a.billingPeriod);
    expect(a.licenseConfig.instancePolicy).toBe('AllInOne');
    expect(a.licenseConfig.maxSites).toBe(1);
    expect(a.sites).toHaveLength(1);
    expect(a.siteMasterSubdomain).toBe(`${a.sites[0]!.urlFriendlyName}-${a.urlFriendlyName}`);
    expect(a.launcherUrl).toBe(`https://${a.urlFriendlyName}.fleet.example.net`);
    expect(a.versions).toEqual({ properties: 1, license: 1, instance: 1, backup: 1, idle: 1 });
    const plain = await detail(t, ids.noSsl);
    expect(plain.launcherUrl).toBe(`http://${plain.urlFriendlyName}.fleet.example.net`);
  });

  it('shows add-on accounts without instance, backup, sites or launcher', async () => {
    const a = await detail(t, ids.addOn);
    expect(a).toMatchObject({ classId: 200, machineConfig: null, backupConfig: null, sites: [], launcherUrl: null, idleSchedules: [] });
    expect(a.parentId).not.toBeNull();
    // The demo seed names an add-on's site one of these (seed/accounts.ts).
    expect(['Expansion Site', 'Annex', 'North Wing']).toContain(a.licenseConfig.addOnSiteName);
  });

  it('hides Customer Production from users without the group', async () => {
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.cp}`, as: 'admin' })).statusCode).toBe(200);
    const res = await t.call({ method: 'GET', url: `/accounts/${ids.cp}`, as: 'operator' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toContain('not found');
  });

  it('answers 404 for unknown and deleted accounts, 400 for a malformed id', async () => {
    expect((await t.call({ method: 'GET', url: '/accounts/99999999', as: 'viewer' })).statusCode).toBe(404);
    const gone = await insertAccount(t.database.db, { name: 'Gone Account', deletedAt: new Date() });
    expect((await t.call({ method: 'GET', url: `/accounts/${gone.id}`, as: 'viewer' })).statusCode).toBe(404);
    expect(fieldErrors(await t.call({ method: 'GET', url: '/accounts/abc', as: 'viewer' }))[0]).toMatch(/^id:/);
  });
});

describe('PUT /accounts/{id} (Push Account Properties)', () => {
  it('lists every field error of spec 1 §5 in one answer', async () => {
    const a = await detail(t, ids.other);
    const res = await t.call({
      method: 'PUT',
      url: `/accounts/${ids.other}`,
      as: 'admin',
      body: { ...propertiesBody(a), name: ' ', urlFriendlyName: '', contact: { name: '', email: '' }, billing: { period: 'Monthly', amount: 0 } },
    });
    expect(fieldErrors(res)).toEqual(
      expect.arrayContaining([
        'name: Account name is required',
        'urlFriendlyName: Account URL name is required',
        'contact.name: Contact name is required',
        'contact.email: Contact email is required',
        'billing.amount: Billing amount must be at least 1',
      ]),
    );
    expect(res.json().errors.find((e: { propertyName: string }) => e.propertyName === 'billing.amount').attemptedValue).toBe(0);
  });

  it('answers the spec messages for missing fields too, and checks formats', async () => {
    const res = await t.call({ method: 'PUT', url: `/accounts/${ids.other}`, as: 'admin', body: { version: 1, contact: {} } });
    expect(fieldErrors(res)).toEqual(
      expect.arrayContaining(['name: Account name is required', 'urlFriendlyName: Account URL name is required', 'contact.name: Contact name is required']),
    );
    const a = await detail(t, ids.other);
    const bad = await t.call({
      method: 'PUT',
      url: `/accounts/${ids.other}`,
      as: 'admin',
      body: { ...propertiesBody(a), urlFriendlyName: 'Not A Url!', contact: { ...a.contact, email: 'nobody' }, classId: 7 },
    });
    expect(fieldErrors(bad).map((e) => e.split(':')[0])).toEqual(expect.arrayContaining(['urlFriendlyName', 'contact.email', 'classId']));
  });

  it('pushes, bumps the version, audits field-level changes, refuses the same version again with who and when', async () => {
    const a = await detail(t, ids.other);
    const body = { ...propertiesBody(a), description: 'Pushed by the lifecycle test', customer: 'Brand New Customer Ltd' };
    const first = await t.call({ method: 'PUT', url: `/accounts/${ids.other}`, as: 'admin', body });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ description: 'Pushed by the lifecycle test', version: a.versions.properties + 1 });

    const [activity] = await activities(t, ids.other, 'PushAccountProperties');
    expect(activity).toMatchObject({ user: 'admin', accounts: [{ id: ids.other, name: a.name }] });
    expect(activity!.metadata.changes).toEqual(
      expect.arrayContaining([{ entityName: 'Account', propertyName: 'description', oldValue: a.description, newValue: 'Pushed by the lifecycle test' }]),
    );

    const stale = await t.call({ method: 'PUT', url: `/accounts/${ids.other}`, as: 'operator', body: { ...body, description: 'Second operator' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toContain('admin');
    expect(stale.json().errors).toBeUndefined();
    expect(stale.json().detail).toContain(activity!.time);
    expect((await detail(t, ids.other)).description).toBe('Pushed by the lifecycle test');
    // The new customer joins the autocomplete list.
    expect((await t.call({ method: 'GET', url: '/customers', as: 'viewer' })).json()).toContain('Brand New Customer Ltd');
  });

  it('answers 409 with a clear message for a URL name another live account uses', async () => {
    const a = await detail(t, ids.staging);
    const taken = (await detail(t, ids.other)).urlFriendlyName;
    const res = await t.call({ method: 'PUT', url: `/accounts/${ids.staging}`, as: 'admin', body: { ...propertiesBody(a), urlFriendlyName: taken } });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`Account URL name '${taken}' is already used by another account`);
    // Named as a field error, so that a form can tell it from a stale version (which names none).
    expect(res.json().errors).toEqual([
      { propertyName: 'urlFriendlyName', errorMessage: `Account URL name '${taken}' is already used by another account`, attemptedValue: taken },
    ]);
  });

  it('needs an add-on parent, and one that may be a parent', async () => {
    const addOn = await detail(t, ids.addOn);
    const put = (parentId: number | null) =>
      t.call({ method: 'PUT', url: `/accounts/${ids.addOn}`, as: 'admin', body: { ...propertiesBody(addOn), parentId } });
    expect(fieldErrors(await put(null))).toEqual(['parentId: Add-on parent account is required']);
    expect(fieldErrors(await put(ids.template))).toEqual(['parentId: A template cannot be an add-on parent']);
    const otherAddOn = (await t.database.db.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.classId, 200)))).find((r) => r.id !== ids.addOn)!;
    expect(fieldErrors(await put(otherAddOn.id))).toEqual(['parentId: An account that has a parent cannot be an add-on parent']);
    expect(fieldErrors(await put(ids.addOn))).toEqual(['parentId: An account cannot be its own add-on parent']);
    expect(fieldErrors(await put(99999999))).toEqual(['parentId: Add-on parent account was not found']);
  });

  it('forces add-on accounts unmanaged without auto test or white glove, and keeps them add-ons', async () => {
    const addOn = await detail(t, ids.addOn);
    const res = await t.call({
      method: 'PUT',
      url: `/accounts/${ids.addOn}`,
      as: 'admin',
      body: { ...propertiesBody(addOn), managed: true, autoTest: true, autoTestBranch: 'develop', whiteGlove: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ managed: false, autoTest: false, autoTestBranch: null, whiteGlove: false });
    const toAddOn = await t.call({ method: 'PUT', url: `/accounts/${ids.staging}`, as: 'admin', body: { ...propertiesBody(await detail(t, ids.staging)), classId: 200, parentId: ids.other } });
    expect(fieldErrors(toAddOn)).toEqual(['classId: An existing account cannot be changed to or from the add-on class']);
  });

  it('lets only group CustomerProductionAccess choose Customer Production', async () => {
    const a = await detail(t, ids.staging);
    const operator = await t.call({ method: 'PUT', url: `/accounts/${ids.staging}`, as: 'operator', body: { ...propertiesBody(a), classId: 5 } });
    expect(operator.statusCode).toBe(403);
    expect(operator.json().detail).toContain('CustomerProductionAccess');
  });

  it('answers 404 to operators for Customer Production, 403 to viewers', async () => {
    const cp = await detail(t, ids.cp);
    expect((await t.call({ method: 'PUT', url: `/accounts/${ids.cp}`, as: 'operator', body: propertiesBody(cp) })).statusCode).toBe(404);
    expect((await t.call({ method: 'PUT', url: `/accounts/${ids.other}`, as: 'viewer', body: propertiesBody(cp) })).statusCode).toBe(403);
  });

  it.each([[null], [[]], [[1, 2]], [{ version: 'one' }], [{ version: 1, contact: 'x', billing: { amount: 'lots' } }]])(
    'answers 400, never 500, for %j',
    async (body) => {
      const res = await t.call({ method: 'PUT', url: `/accounts/${ids.other}`, as: 'admin', body });
      expect(res.statusCode, res.body).toBe(400);
    },
  );

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.call({ method: 'PUT', url: `/accounts/${ids.other}`, as: 'admin', body: 'text' });
    expect(res.statusCode).toBe(415);
  });
});

describe('PUT /accounts/{id}/license-settings', () => {
  const push = async (id: number, change: Record<string, unknown>, as = 'admin') => {
    const a = await detail(t, id);
    return t.call({ method: 'PUT', url: `/accounts/${id}/license-settings`, as, body: { ...a.licenseConfig, version: a.versions.license, ...change } });
  };

  it('checks credits 1 to 1000, maxSites at least 1 and other counts at least 0, all at once', async () => {
    const res = await push(ids.other, { cloudCredits: 0, maxSites: 0, maxAreas: -1, maxUsers: 1.5 });
    expect(fieldErrors(res)).toEqual(
      expect.arrayContaining([
        'cloudCredits: Maximum Credits must be between 1 and 1000',
        'maxSites: Maximum sites must be at least 1',
        'maxAreas: Maximum areas must be at least 0',
        'maxUsers: Maximum users must be a whole number',
      ]),
    );
    expect(fieldErrors(await push(ids.other, { cloudCredits: 1001 }))).toEqual(['cloudCredits: Maximum Credits must be between 1 and 1000']);
  });

  it('forces maxSites to 1 for AllInOne and keeps account, audit and version in step', async () => {
    const expirationTime = '2031-05-01T00:00:00.000Z';
    const res = await push(ids.other, { instancePolicy: 'AllInOne', maxSites: 7, cloudCredits: 1000, maxAreas: 0, expirationTime });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ instancePolicy: 'AllInOne', maxSites: 1, maxAreas: 0 });
    const a = await detail(t, ids.other);
    expect(a).toMatchObject({ instancePolicy: 'AllInOne', expirationTime, versions: { license: 2 } });
    const [activity] = await activities(t, ids.other, 'PushLicenseSettings');
    expect(activity!.metadata.changes).toEqual(expect.arrayContaining([expect.objectContaining({ entityName: 'LicenseConfig', propertyName: 'maxAreas', newValue: 0 })]));
  });

  it('refuses a stale version with 409', async () => {
    const a = await detail(t, ids.staging);
    const body = { ...a.licenseConfig, version: a.versions.license };
    expect((await t.call({ method: 'PUT', url: `/accounts/${ids.staging}/license-settings`, as: 'admin', body })).statusCode).toBe(200);
    const second = await t.call({ method: 'PUT', url: `/accounts/${ids.staging}/license-settings`, as: 'operator', body });
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toMatch(/License settings of account .* last pushed by admin at \d{4}-/);
  });

  it('needs the add-on names on add-on accounts, and accepts the addOnSitename spelling', async () => {
    const res = await push(ids.addOn, { addOnSiteName: '', addOnAreaCategoryName: null });
    expect(fieldErrors(res)).toEqual(['addOnSiteName: Add-on Site Name is required', 'addOnAreaCategoryName: Add-on Area Category Name is required']);
    const alias = await push(ids.addOn, { addOnSiteName: null, addOnSitename: 'East Annex', addOnAreaCategoryName: 'Annex Areas' });
    expect(alias.statusCode, alias.body).toBe(200);
    expect(alias.json()).toMatchObject({ addOnSiteName: 'East Annex', addOnAreaCategoryName: 'Annex Areas' });
    expect(alias.json()).not.toHaveProperty('addOnSitename');
  });

  it('checks instance types, features and reporting categories against the catalogues', async () => {
    const res = await push(ids.other, { cloudInstanceType: 20, redisCloudInstanceType: 3, features: ['Teleportation'], reportingCategories: ['Nope'] });
    expect(fieldErrors(res)).toEqual([
      'cloudInstanceType: Cloud instance type is not a known instance type',
      'redisCloudInstanceType: Redis instance type is not a known Redis instance type',
      "features.0: Unknown feature 'Teleportation'",
      "reportingCategories.0: Unknown reporting category 'Nope'",
    ]);
  });

  it('answers 404 to operators for Customer Production and 403 to viewers', async () => {
    const cp = await detail(t, ids.cp);
    const body = { ...cp.licenseConfig, version: cp.versions.license };
    expect((await t.call({ method: 'PUT', url: `/accounts/${ids.cp}/license-settings`, as: 'operator', body })).statusCode).toBe(404);
    expect((await t.call({ method: 'PUT', url: `/accounts/${ids.cp}/license-settings`, as: 'viewer', body })).statusCode).toBe(403);
  });
});
