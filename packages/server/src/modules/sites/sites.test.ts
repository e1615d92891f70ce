/**
 * API tests of the Sites and Services tabs (spec 1 §2, §3 Site, Service; §8):
 * list and edit sites with their rules and audit, and the software status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountService, TSite } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { activities, detail, fieldErrors, seededAccountId } from '../../../test/account-fixtures.js';
import { cloudInstances, sites } from '../../db/schema.js';

let t: TestApp;
const ids = { ipsm: 0, other: 0, addOn: 0, cp: 0, status: 0 };
let instanceCounter = 0;

async function addInstance(machineId: number, status: string) {
  instanceCounter += 1;
  await t.database.db.insert(cloudInstances).values({
    machineId,
    cloudId: `i-sitestest${instanceCounter}`,
    status,
    region: 'us-east-1',
    hostName: `host-${instanceCounter}`,
    ipAddress: '10.0.0.1',
    privateIpAddress: '10.0.0.2',
    storageSize: 100,
  });
}

beforeAll(async () => {
  t = await startTestApp();
  ids.ipsm = await seededAccountId(t, { classId: 1, policy: 'InstancePerSiteMaster' });
  ids.other = await seededAccountId(t, { classId: 3, policy: 'InstancePerSiteMaster' });
  ids.addOn = await seededAccountId(t, { classId: 200 });
  ids.cp = await seededAccountId(t, { classId: 5 });

  const db = t.database.db;
  const account = await insertAccount(db, { name: 'Service Status', classId: 2 });
  ids.status = account.id;
  const m1 = await insertMachine(db, {
    accountId: account.id,
    classId: 2,
    currentVersions: { launcher: '8.1.1', siteMaster: '8.1.1', reporting: '8.1.1' },
    desiredVersions: { launcher: '8.1.1', siteMaster: '8.1.2', reporting: '8.1.1', populate: '8.1.1' },
  });
  await addInstance(m1.id, 'running');
  const m2 = await insertMachine(db, { accountId: account.id, classId: 2, currentVersions: { reporting: '8.1.1', smchk: '8.1.1' }, desiredVersions: { reporting: '8.1.1', smchk: '8.1.1' } });
  await addInstance(m2.id, 'stopped');
  await insertMachine(db, { accountId: account.id, classId: 2, desiredVersions: { cadImport: '6.0.1' } });
  const leaving = await insertMachine(db, { accountId: account.id, classId: 2, terminate: true, currentVersions: { linkware: '3.4' }, desiredVersions: { linkware: '3.4' } });
  await addInstance(leaving.id, 'running');
});
afterAll(() => t.close());

const list = async (id: number, as = 'admin') => {
  const res = await t.call({ method: 'GET', url: `/accounts/${id}/sites`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TSite[];
};
const put = (id: number, siteId: number, body: unknown, as = 'admin') => t.call({ method: 'PUT', url: `/accounts/${id}/sites/${siteId}`, as, body });

describe('GET /accounts/{id}/sites', () => {
  it('lists the sites of an account; add-on accounts have none', async () => {
    const found = await list(ids.ipsm);
    expect(found.length).toBeGreaterThanOrEqual(2);
    const a = await detail(t, ids.ipsm);
    expect(found.every((s) => s.domainName === `${s.urlFriendlyName}-${a.urlFriendlyName}.fleet.example.net`)).toBe(true);
    expect(await list(ids.addOn)).toEqual([]);
  });

  it('hides Customer Production sites from users without the group', async () => {
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.cp}/sites`, as: 'operator' })).statusCode).toBe(404);
    expect((await list(ids.cp)).length).toBeGreaterThan(0);
  });
});

describe('PUT /accounts/{id}/sites/{siteId}', () => {
  it('updates name, URL name, domain name and port, and audits UpdateSite with the changes', async () => {
    const [site] = await list(ids.ipsm);
    const a = await detail(t, ids.ipsm);
    const res = await put(ids.ipsm, site!.id, { name: 'North Campus', urlFriendlyName: '', domainName: 'north-campus', port: 8443 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: site!.id, name: 'North Campus', urlFriendlyName: 'northcampus', domainName: 'north-campus.fleet.example.net', port: 8443 });
    const [activity] = await activities(t, ids.ipsm, 'UpdateSite');
    expect(activity).toMatchObject({ user: 'admin', accounts: [{ id: ids.ipsm, name: a.name }] });
    expect(activity!.metadata.changes).toEqual(
      expect.arrayContaining([
        { entityName: 'Site', propertyName: 'name', oldValue: site!.name, newValue: 'North Campus' },
        { entityName: 'Site', propertyName: 'port', oldValue: site!.port, newValue: 8443 },
      ]),
    );
  });

  it('derives the domain name from the URL names when blank, and keeps the provider suffix fixed', async () => {
    const [, site] = await list(ids.ipsm);
    const a = await detail(t, ids.ipsm);
    const derived = await put(ids.ipsm, site!.id, { name: 'Warehouse B', port: 8080 });
    expect(derived.json()).toMatchObject({ urlFriendlyName: 'warehouseb', domainName: `warehouseb-${a.urlFriendlyName}.fleet.example.net` });
    const suffixed = await put(ids.ipsm, site!.id, { name: 'Warehouse B', domainName: 'wb.fleet.example.net' });
    expect(suffixed.json().domainName).toBe('wb.fleet.example.net');
    expect(fieldErrors(await put(ids.ipsm, site!.id, { name: 'Warehouse B', domainName: 'wb.example.org' }))[0]).toMatch(/^domainName: Domain name must be one label/);
  });

  it('lists every field error: name, URL name, port', async () => {
    const [site] = await list(ids.ipsm);
    const res = await put(ids.ipsm, site!.id, { name: '', port: 0 });
    expect(fieldErrors(res)).toEqual(['name: Site name is required', 'port: Port must be between 1 and 65535']);
    expect(fieldErrors(await put(ids.ipsm, site!.id, { name: 'X', urlFriendlyName: 'Bad Url' }))[0]).toMatch(/^urlFriendlyName: URL name may hold only/);
  });

  it('answers 409 for a URL name of another site of the account or a domain of another account', async () => {
    const [first, second] = await list(ids.ipsm);
    const dup = await put(ids.ipsm, second!.id, { name: 'Dup', urlFriendlyName: first!.urlFriendlyName, domainName: 'dup-unique' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toContain(`Site URL name '${first!.urlFriendlyName}' is already used`);
    const [foreign] = await list(ids.other);
    const taken = await put(ids.ipsm, second!.id, { name: 'Dup', domainName: foreign!.domainName });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe(`Domain name '${foreign!.domainName}' is already used by another site`);
  });

  it('answers 404 for a site of another account, 404 for hidden accounts, 403 for viewers, 422 for add-ons', async () => {
    const [foreign] = await list(ids.other);
    expect((await put(ids.ipsm, foreign!.id, { name: 'X' })).statusCode).toBe(404);
    const [cpSite] = await list(ids.cp);
    expect((await put(ids.cp, cpSite!.id, { name: 'X' }, 'operator')).statusCode).toBe(404);
    expect((await put(ids.ipsm, foreign!.id, { name: 'X' }, 'viewer')).statusCode).toBe(403);
    const [anySite] = await t.database.db.select({ id: sites.id }).from(sites).limit(1);
    expect((await put(ids.addOn, anySite!.id, { name: 'X' })).statusCode).toBe(422);
  });
});

describe('GET /accounts/{id}/software-status', () => {
  it('derives each service status from the machines running or meant to run it', async () => {
    const res = await t.call({ method: 'GET', url: `/accounts/${ids.status}/software-status`, as: 'viewer' });
    expect(res.statusCode, res.body).toBe(200);
    const services = res.json() as TAccountService[];
    expect(services.map((s) => [s.name, s.status, s.version, s.machines])).toEqual([
      ['Launcher', 'Running', '8.1.1', 1],
      ['Site Master', 'Outdated', '8.1.1', 1],
      ['Site Master Validator', 'Stopped', '8.1.1', 1],
      ['Reporting', 'Degraded', '8.1.1', 2],
      ['Populate', 'Pending', null, 1],
      ['CAD Import', 'Pending', null, 1],
    ]);
  });

  it('answers an empty list for add-on accounts and 404 for hidden ones', async () => {
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.addOn}/software-status`, as: 'viewer' })).json()).toEqual([]);
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.cp}/software-status`, as: 'operator' })).statusCode).toBe(404);
    const seeded = await t.call({ method: 'GET', url: `/accounts/${ids.other}/software-status`, as: 'viewer' });
    expect((seeded.json() as TAccountService[]).map((s) => s.name)).toContain('Launcher');
  });
});
