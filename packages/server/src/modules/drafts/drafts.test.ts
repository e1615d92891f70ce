/**
 * API tests of account creation through a draft (spec 1 §2 Create account, §3
 * Creation payload, §4, §5, §9; DESIGN §6): validation of the payload, defaults,
 * planned sites and machines with their component configs, and create-from-draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { TDraftAccount } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities, createAccount, creationPayload, detail, fieldErrors, seededAccountId } from '../../../test/account-fixtures.js';
import { accounts, machines, machineTasks, sites } from '../../db/schema.js';

let t: TestApp;
const ids = { parent: 0, template: 0, existing: 0 };

beforeAll(async () => {
  t = await startTestApp();
  ids.parent = await seededAccountId(t, { classId: 4 });
  ids.template = await seededAccountId(t, { classId: 1, isTemplate: true });
  ids.existing = await seededAccountId(t, { classId: 2 });
});
afterAll(() => t.close());

const draftOf = async (body: unknown, as = 'admin') => {
  const res = await t.call({ method: 'POST', url: '/accounts', as, body });
  expect(res.statusCode, res.body).toBe(200);
  const got = await t.call({ method: 'GET', url: `/draft-accounts/${res.json().draftAccountId}`, as });
  expect(got.statusCode, got.body).toBe(200);
  return got.json() as TDraftAccount;
};

describe('POST /accounts (validate and save a draft)', () => {
  it('lists every error of the properties, instance settings and license in one answer', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/accounts',
      as: 'admin',
      body: { billingAmount: 0, licenseConfig: { cloudCredits: 5000, maxSites: 0, maxRacks: -1 }, backupConfig: { monthlyBackupDay: 30 }, idleSchedules: [{ stopAt: '2026-12-01T18:00:00Z', resumeAfter: -2 }] },
    });
    expect(fieldErrors(res)).toEqual(
      expect.arrayContaining([
        'name: Account name is required',
        'contactName: Contact name is required',
        'contactEmail: Contact email is required',
        'billingAmount: Billing amount must be at least 1',
        'licenseConfig.cloudCredits: Maximum Credits must be between 1 and 1000',
        'licenseConfig.maxSites: Maximum sites must be at least 1',
        'licenseConfig.maxRacks: Maximum racks must be at least 0',
        'backupConfig.monthlyBackupDay: Monthly backup day must be between 1 and 28',
        'idleSchedules.0.resumeAfter: Resume after must be at least 0 hours',
        'machineConfig.vmImageName: Image is required',
      ]),
    );
  });

  it('needs the parent and the add-on names for add-on accounts, and no image', async () => {
    const res = await t.call({ method: 'POST', url: '/accounts', as: 'admin', body: { ...creationPayload({ classId: 200 }), machineConfig: {} } });
    expect(fieldErrors(res)).toEqual([
      'parentId: Add-on parent account is required',
      'licenseConfig.addOnSiteName: Add-on Site Name is required',
      'licenseConfig.addOnAreaCategoryName: Add-on Area Category Name is required',
    ]);
    const template = await t.call({
      method: 'POST',
      url: '/accounts',
      as: 'admin',
      body: creationPayload({ classId: 200, parentId: ids.template, licenseConfig: { addOnSiteName: 'Annex', addOnAreaCategoryName: 'Annex' } }),
    });
    expect(fieldErrors(template)).toEqual(['parentId: A template cannot be an add-on parent']);
  });

  it('checks sites against the instance policy and the license', async () => {
    const allInOne = await t.call({ method: 'POST', url: '/accounts', as: 'admin', body: creationPayload({ sites: [{ name: 'A' }, { name: 'B' }] }) });
    expect(fieldErrors(allInOne)).toEqual(['sites: An AllInOne account has exactly one site']);
    const tooMany = await t.call({
      method: 'POST',
      url: '/accounts',
      as: 'admin',
      body: creationPayload({ licenseConfig: { instancePolicy: 'InstancePerSiteMaster', maxSites: 2 }, sites: [{ name: 'A' }, { name: 'B' }, { name: 'a' }] }),
    });
    expect(fieldErrors(tooMany)).toEqual(['sites: The license allows at most 2 sites', 'sites.2.urlFriendlyName: Site URL name must be unique within the account']);
  });

  it('checks catalogue entries: image, region, instance type, features', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/accounts',
      as: 'admin',
      body: creationPayload({
        machineConfig: { vmImageName: 'irmn-8.1.3-win2022-euw1', region: 'us-east-1' },
        licenseConfig: { cloudInstanceType: 77, features: ['Fiber Management', 'Time Travel'] },
      }),
    });
    expect(fieldErrors(res)).toEqual([
      'licenseConfig.cloudInstanceType: Cloud instance type is not a known instance type',
      "licenseConfig.features.1: Unknown feature 'Time Travel'",
      "machineConfig.vmImageName: Image 'irmn-8.1.3-win2022-euw1' is in region eu-west-1, not us-east-1",
    ]);
  });

  it('answers 409 for a URL name in use, 403 for Customer Production without the group, 403 for viewers', async () => {
    const taken = (await detail(t, ids.existing)).urlFriendlyName;
    const dup = await t.call({ method: 'POST', url: '/accounts', as: 'admin', body: creationPayload({ urlFriendlyName: taken }) });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe(`Account URL name '${taken}' is already used by another account`);
    expect((await t.call({ method: 'POST', url: '/accounts', as: 'operator', body: creationPayload({ classId: 5 }) })).statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url: '/accounts', as: 'viewer', body: creationPayload() })).statusCode).toBe(403);
  });

  it('fills the new account defaults of spec 1 §9 and derives the URL name', async () => {
    const draft = await draftOf(creationPayload({ name: 'Defaults Check - Alpha & Co' }));
    const p = draft.payload;
    expect(p).toMatchObject({
      urlFriendlyName: 'defaultscheckalphaco',
      classId: 1,
      managed: true,
      autoTest: false,
      whiteGlove: false,
      billingPeriod: 'Biweekly',
      billingAmount: 10,
      maintainer: 'devops@fleet.example',
      siteMasterName: 'Site 1',
      siteMasterUrlFriendlyName: 'site1',
      siteMasterPort: 8080,
    });
    expect(p.licenseConfig).toMatchObject({ instancePolicy: 'AllInOne', maxSites: 1, maxAreas: 1000, maxReportUsers: 50, maxClientUsers: 50, maxTechnicianUsers: 50, cloudCredits: 1000, isActive: true, cloudInstanceType: 1 });
    const expires = new Date(p.licenseConfig.expirationTime!).getTime() - Date.now();
    expect(Math.round(expires / 86_400_000)).toBe(365);
    expect(p.machineConfig).toMatchObject({ enableSsl: true, keyType: 'Default', launcherVersionMode: 'Latest', launcherVersion: 'master|latest', deployerVersionMode: 'None', mainLibraryMode: 'None', accountLibraryMode: 'None', region: 'us-east-1' });
    expect(Math.round((new Date(p.machineConfig.autoStopTime!).getTime() - Date.now()) / 86_400_000)).toBe(2);
    expect(p.backupConfig).toMatchObject({ weeklyBackupDay: 1, monthlyBackupDay: 1, manualDaysToRetain: 7, dailyDaysToRetain: 7, weeklyDaysToRetain: 28, monthlyDaysToRetain: 180, manualEolAction: 'Delete', dailyEolAction: 'Delete', weeklyEolAction: 'MoveToGlacier', monthlyEolAction: 'MoveToGlacier' });
  });
});

describe('draft plans (DESIGN §6)', () => {
  it('plans one launcher-and-site-master machine for AllInOne with substituted component configs', async () => {
    const draft = await draftOf(creationPayload({ name: 'Plan AllInOne', siteMasterPort: 8081 }));
    expect(draft.sites).toEqual([{ name: 'Site 1', urlFriendlyName: 'site1', domainName: 'site1-planallinone.fleet.example.net', port: 8081 }]);
    expect(draft.machines).toHaveLength(1);
    const [m] = draft.machines;
    expect(m).toMatchObject({ name: 'planallinone-launcher', isLauncher: true, isSiteMaster: true, siteUrlFriendlyName: 'site1', instanceTypeId: 1 });
    expect(m!.componentConfig).toMatchObject({
      'launcher.publicUrl': 'https://planallinone.fleet.example.net',
      'launcher.port': 443,
      'siteMaster.siteName': 'Site 1',
      'siteMaster.siteUrl': 'https://site1-planallinone.fleet.example.net:8081',
      'siteMaster.port': 8081,
      'database.connectionString': 'Server=localhost;Database=planallinone_site1;Integrated Security=true',
      'client.features': { mapView: true, floorPlans: true },
      'grafana.enabled': true,
    });
    expect(draft.componentConfigKeys).toEqual(expect.arrayContaining([{ key: 'database.connectionString', dataType: null, protected: true, siteSpecific: true }]));
  });

  it('plans a launcher plus one site master per site for InstancePerSiteMaster', async () => {
    const draft = await draftOf(
      creationPayload({
        name: 'Plan Multi',
        licenseConfig: { instancePolicy: 'InstancePerSiteMaster', cloudInstanceType: 4 },
        machineConfig: { vmImageName: 'irmn-8.1.3-win2022-use1', enableSsl: false },
        sites: [{ name: 'Head Office' }, { name: 'Plant', urlFriendlyName: 'plant7', domainName: 'plant-seven', port: 9090 }, { name: 'Lab' }],
      }),
    );
    expect(draft.sites.map((s) => s.domainName)).toEqual(['headoffice-planmulti.fleet.example.net', 'plant-seven.fleet.example.net', 'lab-planmulti.fleet.example.net']);
    expect(draft.machines.map((m) => [m.name, m.isLauncher, m.isSiteMaster, m.instanceTypeId])).toEqual([
      ['planmulti-launcher', true, false, 4],
      ['planmulti-headoffice', false, true, 4],
      ['planmulti-plant7', false, true, 4],
      ['planmulti-lab', false, true, 4],
    ]);
    const [launcher, , plant] = draft.machines;
    expect(launcher!.componentConfig['launcher.publicUrl']).toBe('http://planmulti.fleet.example.net');
    expect(launcher!.componentConfig).not.toHaveProperty('siteMaster.siteName');
    expect(plant!.componentConfig).not.toHaveProperty('launcher.publicUrl');
    expect(plant!.componentConfig).toMatchObject({ 'siteMaster.siteUrl': 'http://plant7-planmulti.fleet.example.net:9090', 'siteMaster.port': 9090 });
  });

  it('uses Linux values on Linux images, on-premise values for class On Premise, and the config versions', async () => {
    const linux = await draftOf(creationPayload({ name: 'Plan Linux', machineConfig: { vmImageName: 'irmn-8.1.3-ubuntu2204-use1' } }));
    expect(linux.machines[0]!.componentConfig).toMatchObject({ 'siteMaster.dataPath': '/var/lib/irmn/data', 'launcher.port': 8443, 'reporting.engine': 'jasper' });
    const onPrem = await draftOf(creationPayload({ name: 'Plan OnPrem', classId: 6 }));
    expect(onPrem.machines[0]!.componentConfig).toMatchObject({ 'launcher.publicUrl': 'https://Plan OnPrem', 'pdfExport.pageSize': 'Letter' });
    // No on-prem value: the default of the type (config-rules.ts).
    expect(onPrem.machines[0]!.componentConfig).toHaveProperty('linkware.apiUrl', '');
    const old = await draftOf(creationPayload({ name: 'Plan Old', machineConfig: { vmImageName: 'irmn-8.0.7-win2019-use1' } }));
    expect(old.machines[0]!.componentConfig).not.toHaveProperty('launcher.enableSso');
    expect(old.machines[0]!.componentConfig).toHaveProperty('siteMaster.syncIntervalSeconds', 30);
    const preview = await draftOf(creationPayload({ name: 'Plan Preview', machineConfig: { vmImageName: 'irmn-8.2.0-win2022-use1' } }));
    expect(preview.machines[0]!.componentConfig).not.toHaveProperty('siteMaster.syncIntervalSeconds');
    expect(preview.machines[0]!.componentConfig).toHaveProperty('apSensing.endpoint', 'https://dts.example.com/planpreview');
  });

  it('plans nothing for add-on accounts', async () => {
    const draft = await draftOf(creationPayload({ classId: 200, parentId: ids.parent, licenseConfig: { addOnSiteName: 'Annex', addOnAreaCategoryName: 'Annex Areas' } }));
    expect(draft).toMatchObject({ sites: [], machines: [], accountId: null });
  });

  it('keeps drafts to their author and lets the author update them', async () => {
    const res = await t.call({ method: 'POST', url: '/accounts', as: 'admin', body: creationPayload({ name: 'Draft Owner' }) });
    const id = res.json().draftAccountId as number;
    expect((await t.call({ method: 'GET', url: `/draft-accounts/${id}`, as: 'operator' })).statusCode).toBe(404);
    const update = await t.call({ method: 'POST', url: '/draft-accounts', as: 'admin', body: { ...creationPayload({ name: 'Draft Owner Renamed' }), id } });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json()).toEqual({ draftAccountId: id });
    const got = (await t.call({ method: 'GET', url: `/draft-accounts/${id}`, as: 'admin' })).json() as TDraftAccount;
    expect(got.payload.urlFriendlyName).toBe('draftownerrenamed');
    expect(got.machines[0]!.name).toBe('draftownerrenamed-launcher');
    expect(fieldErrors(await t.call({ method: 'POST', url: '/draft-accounts', as: 'admin', body: { id, name: '' } }))).toEqual(
      expect.arrayContaining(['name: Account name is required']),
    );
    expect((await activities(t, undefined, 'SaveDraftAccount')).length).toBeGreaterThanOrEqual(2);
  });
});

describe('POST /accounts/create-from-draft', () => {
  it('creates the account, settings, sites, machines with adjusted configs and one CreateMachine task each', async () => {
    const draft = await draftOf(
      creationPayload({
        name: 'Created Multi',
        customer: 'Created Customer Inc',
        licenseConfig: { instancePolicy: 'InstancePerSiteMaster' },
        sites: [{ name: 'East' }, { name: 'West', port: 8090 }],
        mainLibraryFiles: [1, 2],
        idleSchedules: [{ stopAt: '2026-12-24T18:00:00Z', resumeAfter: 60 }],
      }),
    );
    const east = draft.machines.find((m) => m.name === 'createdmulti-east')!;
    const res = await t.call({
      method: 'POST',
      url: '/accounts/create-from-draft',
      as: 'admin',
      body: { draftAccountId: draft.id, machineComponentConfigs: { 'createdmulti-east': { ...east.componentConfig, 'logging.level': 'Debug', 'siteMaster.maxMemoryMb': 6144 } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const accountId = res.json().accountId as number;

    const a = await detail(t, accountId);
    expect(a).toMatchObject({ draftId: draft.id, name: 'Created Multi', creator: 'Ada Admin', instancePolicy: 'InstancePerSiteMaster', vmImageName: 'irmn-8.1.3-win2022-use1' });
    expect(a.machineConfig).toMatchObject({ mainLibraryMode: 'Select', mainLibraryFiles: [1, 2] });
    expect(a.idleSchedules).toEqual([{ stopAt: '2026-12-24T18:00:00.000Z', resumeAfter: 60 }]);
    expect(a.sites.map((s) => [s.name, s.domainName, s.port])).toEqual([
      ['East', 'east-createdmulti.fleet.example.net', 8080],
      ['West', 'west-createdmulti.fleet.example.net', 8090],
    ]);

    const db = t.database.db;
    const rows = await db.select().from(machines).where(eq(machines.accountId, accountId)).orderBy(asc(machines.id));
    expect(rows.map((m) => m.name)).toEqual(['createdmulti-launcher', 'createdmulti-east', 'createdmulti-west']);
    const siteRows = await db.select().from(sites).where(eq(sites.accountId, accountId));
    expect(rows[1]!.siteId).toBe(siteRows.find((s) => s.urlFriendlyName === 'east')!.id);
    expect(rows[1]!.componentConfig).toMatchObject({ 'logging.level': 'Debug', 'siteMaster.maxMemoryMb': 6144 });
    expect(rows[2]!.componentConfig).toMatchObject({ 'logging.level': 'Information' });
    expect(rows[0]!.deployerConfig).toMatchObject({ 'deployer.retryCount': 3, 'deployer.channel': 'stable' });
    const tasks = await db.select().from(machineTasks).where(eq(machineTasks.accountId, accountId));
    expect(tasks.map((task) => [task.type, task.status]).sort()).toEqual([
      ['CreateMachine', 'New'],
      ['CreateMachine', 'New'],
      ['CreateMachine', 'New'],
    ]);

    const [activity] = await activities(t, accountId, 'CreateAccount');
    expect(activity).toMatchObject({ user: 'admin', accounts: [{ id: accountId, name: 'Created Multi' }] });
    expect(activity!.metadata.params).toMatchObject({ draftAccountId: draft.id, sites: 2 });
    // One trail (DESIGN §12): the creation's tasks name its activity.
    expect(tasks.map((task) => task.activityId)).toEqual([activity!.id, activity!.id, activity!.id]);
    expect(activity!.metadata.changes).toEqual(expect.arrayContaining([{ entityName: 'Account', propertyName: 'name', oldValue: null, newValue: 'Created Multi' }]));
    expect((await t.call({ method: 'GET', url: '/customers', as: 'viewer' })).json()).toContain('Created Customer Inc');

    const again = await t.call({ method: 'POST', url: '/accounts/create-from-draft', as: 'admin', body: { draftAccountId: draft.id } });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`Draft account ${draft.id} was already turned into account ${accountId}`);
    expect((await (t.call({ method: 'GET', url: `/draft-accounts/${draft.id}`, as: 'admin' }))).json().accountId).toBe(accountId);
  });

  it('checks the adjusted configs: planned machines, known keys, types, protected values', async () => {
    const draft = await draftOf(creationPayload({ name: 'Adjusted Check' }));
    const name = draft.machines[0]!.name;
    const res = await t.call({
      method: 'POST',
      url: '/accounts/create-from-draft',
      as: 'admin',
      body: {
        draftAccountId: draft.id,
        machineComponentConfigs: {
          'no-such-machine': {},
          [name]: { 'launcher.port': '443', 'grafana.enabled': 'yes', 'database.connectionString': 'Server=elsewhere', 'made.up': 1 },
        },
      },
    });
    expect(fieldErrors(res)).toEqual([
      "machineComponentConfigs.no-such-machine: 'no-such-machine' is not a planned machine of the draft",
      `machineComponentConfigs.${name}.launcher.port: Component config 'launcher.port' must be a number`,
      `machineComponentConfigs.${name}.grafana.enabled: Component config 'grafana.enabled' must be a boolean`,
      `machineComponentConfigs.${name}.database.connectionString: Component config 'database.connectionString' is protected`,
      `machineComponentConfigs.${name}.made.up: Unknown component config 'made.up'`,
    ]);
  });

  it('creates add-on accounts with no sites, machines or tasks', async () => {
    const accountId = await createAccount(
      t,
      creationPayload({ name: 'Created Add-on', classId: 200, parentId: ids.parent, managed: true, licenseConfig: { addOnSiteName: 'Annex', addOnAreaCategoryName: 'Annex Areas' } }),
    );
    const a = await detail(t, accountId);
    expect(a).toMatchObject({ classId: 200, parentId: ids.parent, managed: false, sites: [], machineConfig: null, machineStats: { machines: 0 } });
    expect(await t.database.db.select().from(machines).where(eq(machines.accountId, accountId))).toEqual([]);
  });

  it('answers 409 when the URL name was taken since the draft, 404 for another user, 403 for viewers', async () => {
    const res = await t.call({ method: 'POST', url: '/accounts', as: 'admin', body: creationPayload({ name: 'Raced Name' }) });
    const draftAccountId = res.json().draftAccountId as number;
    expect((await t.call({ method: 'POST', url: '/accounts/create-from-draft', as: 'operator', body: { draftAccountId } })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: '/accounts/create-from-draft', as: 'viewer', body: { draftAccountId } })).statusCode).toBe(403);
    const winner = await createAccount(t, creationPayload({ name: 'Raced Name' }), 'operator');
    const raced = await t.call({ method: 'POST', url: '/accounts/create-from-draft', as: 'admin', body: { draftAccountId } });
    expect(raced.statusCode).toBe(409);
    expect(raced.json().detail).toContain("'racedname'");
    // The name stays the operator's account's alone: the refused draft made none.
    const rows = await t.database.db.select({ n: accounts.id }).from(accounts).where(eq(accounts.urlFriendlyName, 'racedname'));
    expect(rows).toEqual([{ n: winner }]);
  });
});
