/**
 * Component and deployer configurations against the seeded catalogues: saving
 * under the rules of spec 2 §5, defaults with their variables substituted per
 * machine (DESIGN §6), and the batch read of current configurations (spec 3 §7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TListComponentConfigDefinitionsResponse, TListDeployerConfigDefinitionsResponse, TMachine, TUserActivity } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { accountSettings, sites } from '../../db/schema.js';
import { compareVersions } from './config-rules.js';

let t: TestApp;
const ids = { siteMaster: 0, launcher: 0, onPrem: 0, linux: 0, hidden: 0 };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const account = await insertAccount(db, { name: 'Config Fixture', urlFriendlyName: 'configfix', classId: 2, vmImageName: 'irmn-8.1.3-win2022-use1' });
  await db.insert(accountSettings).values({ accountId: account.id, machineConfig: { enableSsl: true } });
  const [site] = await db
    .insert(sites)
    .values({ accountId: account.id, name: 'North Hall', urlFriendlyName: 'north-hall', domainName: 'north-hall-configfix.fleet.example.net', port: 8443 })
    .returning();
  ids.siteMaster = (
    await insertMachine(db, {
      accountId: account.id,
      classId: 2,
      isSiteMaster: true,
      siteId: site!.id,
      componentConfig: { 'logging.level': 'Information', 'database.connectionString': 'Server=db1' },
      deployerConfig: { 'deployer.retryCount': 3 },
    })
  ).id;
  ids.launcher = (await insertMachine(db, { accountId: account.id, classId: 2, isLauncher: true })).id;
  const onPrem = await insertAccount(db, { name: 'On Prem Fixture', urlFriendlyName: 'onpremfix', classId: 6, vmImageName: 'irmn-8.1.3-win2022-use1' });
  ids.onPrem = (await insertMachine(db, { accountId: onPrem.id, classId: 6, isLauncher: true })).id;
  const linux = await insertAccount(db, { name: 'Linux Fixture', urlFriendlyName: 'linuxfix', classId: 1, vmImageName: 'irmn-8.2.0-ubuntu2404-euw1' });
  ids.linux = (await insertMachine(db, { accountId: linux.id, classId: 1, isLauncher: true })).id;
  const production = await insertAccount(db, { name: 'Config Production', classId: 5 });
  ids.hidden = (await insertMachine(db, { accountId: production.id, classId: 5 })).id;
});
afterAll(() => t.close());

const put = (kind: 'component' | 'deployer', machineId: number, config: unknown, as = 'operator') =>
  t.call({ method: 'PUT', url: `/machines/${machineId}/${kind}-config`, as, body: kind === 'component' ? { componentConfig: config } : { deployerConfig: config } });
const get = async <T>(url: string, as = 'operator', query?: Record<string, string>) => {
  const res = await t.call({ method: 'GET', url, as, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

describe('PUT /machines/{id}/component-config and deployer-config', () => {
  it('saves the whole configuration, with a change per key in the audit', async () => {
    const res = await put('component', ids.siteMaster, {
      'logging.level': 'Debug',
      'database.connectionString': 'Server=db1',
      'launcher.enableSso': null,
      'client.features': { mapView: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TMachine).config.componentConfig).toEqual({
      'logging.level': 'Debug',
      'database.connectionString': 'Server=db1',
      'launcher.enableSso': null,
      'client.features': { mapView: true },
    });
    const [activity] = await get<TUserActivity[]>('/user-activities', 'admin', { action: 'UpdateComponentConfig', limit: '1' });
    expect(activity!.metadata.changes).toEqual([
      { entityName: 'ComponentConfig', propertyName: 'logging.level', oldValue: 'Information', newValue: 'Debug' },
      { entityName: 'ComponentConfig', propertyName: 'client.features', oldValue: null, newValue: { mapView: true } },
    ]);
  });

  it('removing a key is a change to null', async () => {
    const res = await put('component', ids.siteMaster, { 'database.connectionString': 'Server=db1' });
    expect(res.statusCode).toBe(200);
    const [activity] = await get<TUserActivity[]>('/user-activities', 'admin', { action: 'UpdateComponentConfig', limit: '1' });
    expect(activity!.metadata.changes.map((c) => [c.propertyName, c.newValue])).toEqual([
      ['logging.level', null],
      ['client.features', null],
    ]);
  });

  it.each([
    [{ 'foo.bar': 'x' }, 'componentConfig.foo.bar'],
    [{ nodot: 'x' }, 'componentConfig.nodot'],
    [{ 'launcher.port': '443' }, 'componentConfig.launcher.port'],
    [{ 'launcher.enableSso': 'yes' }, 'componentConfig.launcher.enableSso'],
    [{ 'logging.level': 3 }, 'componentConfig.logging.level'],
  ])('answers 400 naming the key for %o', async (config, field) => {
    const res = await put('component', ids.siteMaster, { 'database.connectionString': 'Server=db1', ...config });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('keeps protected keys read-only (422)', async () => {
    const res = await put('component', ids.siteMaster, { 'database.connectionString': 'Server=elsewhere' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain('database.connectionString');
    expect((await put('component', ids.siteMaster, {})).statusCode).toBe(422);
  });

  it('saves a deployer configuration by its catalogue', async () => {
    const ok = await put('deployer', ids.siteMaster, { 'deployer.retryCount': 5, 'monitoring.tags': { team: 'ops' } });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as TMachine).config.deployerConfig).toEqual({ 'deployer.retryCount': 5, 'monitoring.tags': { team: 'ops' } });
    const bad = await put('deployer', ids.siteMaster, { 'deployer.retryCount': '5' });
    expect(bad.json().errors[0].propertyName).toBe('deployerConfig.deployer.retryCount');
    expect((await put('deployer', ids.siteMaster, { 's3.bucket': 'mine' })).statusCode).toBe(422);
  });

  it('answers 400 without the body field, 404 when hidden, 403 to a viewer', async () => {
    const res = await t.call({ method: 'PUT', url: `/machines/${ids.siteMaster}/component-config`, as: 'operator', body: { other: {} } });
    expect(res.json().errors[0].propertyName).toBe('componentConfig');
    expect((await put('component', ids.hidden, {})).statusCode).toBe(404);
    expect((await put('component', ids.siteMaster, {}, 'viewer')).statusCode).toBe(403);
  });
});

describe('default configurations', () => {
  it('substitutes the variables of a site master; launcher keys are absent', async () => {
    const { machineId, componentConfig } = await get<{ machineId: number; componentConfig: Record<string, unknown> }>(`/machines/${ids.siteMaster}/default-component-config`);
    expect(machineId).toBe(ids.siteMaster);
    expect(componentConfig).toMatchObject({
      'siteMaster.siteName': 'North Hall',
      'siteMaster.siteUrl': 'https://north-hall-configfix.fleet.example.net:8443',
      'siteMaster.port': 8443,
      'siteMaster.maxMemoryMb': 4096,
      'rabbitMq.virtualHost': 'configfix',
      'client.features': { mapView: true, floorPlans: true },
      'grafana.enabled': true,
      // Deprecated at 8.2, the image is 8.1.
      'siteMaster.syncIntervalSeconds': 30,
    });
    expect(Object.keys(componentConfig).some((k) => k.startsWith('launcher.'))).toBe(false);
    // Since 8.2.
    expect(componentConfig).not.toHaveProperty('apSensing.endpoint');
  });

  it('uses on-prem values for On Premise accounts and Linux values for Linux images', async () => {
    const onPrem = await get<{ componentConfig: Record<string, unknown> }>(`/machines/${ids.onPrem}/default-component-config`, 'admin');
    expect(onPrem.componentConfig).toMatchObject({ 'launcher.publicUrl': 'http://On Prem Fixture', 'launcher.port': 80, 'grafana.enabled': false });
    const linux = await get<{ componentConfig: Record<string, unknown> }>(`/machines/${ids.linux}/default-component-config`);
    expect(linux.componentConfig).toMatchObject({ 'launcher.port': 8443, 'launcher.publicUrl': 'http://linuxfix.fleet.example.net', 'apSensing.endpoint': 'https://dts.example.com/linuxfix' });
    expect(linux.componentConfig).not.toHaveProperty('siteMaster.syncIntervalSeconds');
  });

  it('gives deployer defaults typed by their catalogue', async () => {
    const { deployerConfig } = await get<{ deployerConfig: Record<string, unknown> }>(`/machines/${ids.siteMaster}/default-deployer-config`);
    expect(deployerConfig).toMatchObject({ 'deployer.retryCount': 3, 'deployer.backupBeforeDeploy': true, 'deployer.channel': 'stable', 'monitoring.tags': { team: 'devops' }, 'notifications.webhookUrl': '' });
    expect(deployerConfig).not.toHaveProperty('smokeTest.suite');
  });

  it('answers defaults in batch, in the order asked', async () => {
    const items = await get<{ machineId: number }[]>('/machines/default-component-configs', 'operator', { ids: `${ids.launcher},${ids.siteMaster}` });
    expect(items.map((i) => i.machineId)).toEqual([ids.launcher, ids.siteMaster]);
    const deployer = await get<{ machineId: number; deployerConfig: object }[]>('/machines/default-deployer-configs', 'operator', { ids: String(ids.launcher) });
    expect(deployer[0]!.deployerConfig).toHaveProperty('deployer.retryCount', 3);
  });

  it('answers 400 naming ids for hidden, unknown or malformed ids, 404 for one hidden machine', async () => {
    for (const value of [`${ids.launcher},${ids.hidden}`, '99999999', 'a,b', '']) {
      const res = await t.call({ method: 'GET', url: '/machines/default-component-configs', as: 'operator', query: { ids: value } });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().errors[0].propertyName).toBe('ids');
    }
    expect((await t.call({ method: 'GET', url: `/machines/${ids.hidden}/default-component-config`, as: 'operator' })).statusCode).toBe(404);
  });

  it('compares versions numerically', () => {
    expect(compareVersions('8.10', '8.2')).toBeGreaterThan(0);
    expect(compareVersions('8.1', '8.1')).toBe(0);
    expect(compareVersions('7.6', '8.0')).toBeLessThan(0);
  });
});

describe('batch current configurations: GET /machines/component-configs and /deployer-configs', () => {
  const batch = (kind: 'component' | 'deployer', value: string, as = 'operator') =>
    t.call({ method: 'GET', url: `/machines/${kind}-configs`, as, query: { ids: value } });

  it("answers each machine's configuration as its single read shows it, in the order asked, to a viewer too", async () => {
    const order = [ids.launcher, ids.siteMaster, ids.linux];
    for (const as of ['operator', 'viewer']) {
      const component = await get<{ machineId: number; componentConfig: object }[]>('/machines/component-configs', as, { ids: order.join(',') });
      const deployer = await get<{ machineId: number; deployerConfig: object }[]>('/machines/deployer-configs', as, { ids: order.join(',') });
      const singles = await Promise.all(order.map((id) => get<TMachine>(`/machines/${id}`, as)));
      expect(component).toEqual(singles.map((m) => ({ machineId: m.id, componentConfig: m.config.componentConfig })));
      expect(deployer).toEqual(singles.map((m) => ({ machineId: m.id, deployerConfig: m.config.deployerConfig })));
    }
    expect(Object.keys((await get<{ componentConfig: object }[]>('/machines/component-configs', 'operator', { ids: String(ids.siteMaster) }))[0]!.componentConfig)).not.toHaveLength(0);
  });

  it('answers 404 naming each unknown or hidden id (ids[i]); the admin sees Customer Production', async () => {
    const res = await batch('component', `${ids.launcher},${ids.hidden},99999999`);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().errors.map((e: { propertyName: string; attemptedValue: unknown }) => [e.propertyName, e.attemptedValue])).toEqual([
      ['ids[1]', ids.hidden],
      ['ids[2]', 99999999],
    ]);
    expect((await batch('deployer', String(ids.hidden), 'viewer')).statusCode).toBe(404);
    const admin = await batch('deployer', String(ids.hidden), 'admin');
    expect(admin.statusCode, admin.body).toBe(200);
  });

  it('answers 400 naming ids for 201 ids, none or malformed ones', async () => {
    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1).join(',');
    for (const value of [tooMany, '', 'a,b']) {
      const res = await batch('component', value);
      expect(res.statusCode, value.slice(0, 20)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe('ids');
    }
  });
});

describe('the catalogues of definitions: GET and POST /component-configs, /deployer-configs', () => {
  const post = (kind: 'component' | 'deployer', body: unknown, as = 'operator') => t.call({ method: 'POST', url: `/${kind}-configs`, as, body });

  it('lists definitions sorted by key, filtered by a substring of rootKey.subKey or by root key', async () => {
    const all = await get<TListComponentConfigDefinitionsResponse>('/component-configs', 'viewer', { limit: '1000' });
    expect(all.totalItems).toBe(all.items.length);
    const keys = all.items.map((d) => `${d.rootKey}.${d.subKey}`);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const port = all.items.find((d) => d.rootKey === 'launcher' && d.subKey === 'port')!;
    expect(port).toMatchObject({ dataType: 'number', protected: false, siteSpecific: false, saasDefaultValue: '443', onPremDefaultValue: '80', linuxSpecificValue: '8443' });
    const sso = all.items.find((d) => d.rootKey === 'launcher' && d.subKey === 'enableSso')!;
    expect(sso.version).toMatchObject({ name: '8.1' });
    expect(all.items.find((d) => d.subKey === 'connectionString')).toMatchObject({ protected: true, dataType: null });

    const search = await get<TListComponentConfigDefinitionsResponse>('/component-configs', 'viewer', { search: 'MASTER.PO' });
    expect(search.items.map((d) => `${d.rootKey}.${d.subKey}`)).toEqual(['siteMaster.port']);
    const root = await get<TListComponentConfigDefinitionsResponse>('/component-configs', 'viewer', { rootKey: 'launcher', limit: '2' });
    expect(root.items).toHaveLength(2);
    expect(root.totalItems).toBe(all.items.filter((d) => d.rootKey === 'launcher').length);
    expect((await get<TListComponentConfigDefinitionsResponse>('/component-configs', 'viewer', { search: '%' })).totalItems).toBe(0);

    const deployer = await get<TListDeployerConfigDefinitionsResponse>('/deployer-configs', 'viewer', { rootKey: 'deployer', limit: '1000' });
    expect(deployer.items.find((d) => d.subKey === 'retryCount')).toMatchObject({ dataType: 'number', defaultValue: '3' });
  });

  it('creates a definition for an unknown key, which a machine may then use; 409 for a known key', async () => {
    const res = await post('component', { rootKey: 'featureFlags', subKey: 'beta.maps', dataType: 'boolean' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rootKey: 'featureFlags', subKey: 'beta.maps', dataType: 'boolean', protected: false, siteSpecific: false, saasDefaultValue: null, version: null });
    const [activity] = await get<TUserActivity[]>('/user-activities', 'admin', { action: 'CreateComponentConfig', limit: '1' });
    expect(activity!.metadata.params).toMatchObject({ key: 'featureFlags.beta.maps', dataType: 'boolean' });

    const saved = await put('component', ids.siteMaster, { 'database.connectionString': 'Server=db1', 'featureFlags.beta.maps': null });
    expect(saved.statusCode, saved.body).toBe(200);

    const again = await post('component', { rootKey: 'featureFlags', subKey: 'beta.maps', dataType: 'number' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain('featureFlags.beta.maps');

    const deployer = await post('deployer', { rootKey: 'deployer', subKey: 'parallelism', dataType: null });
    expect(deployer.statusCode, deployer.body).toBe(200);
    expect(deployer.json()).toMatchObject({ rootKey: 'deployer', subKey: 'parallelism', dataType: null, defaultValue: null });
    expect((await post('deployer', { rootKey: 'deployer', subKey: 'retryCount', dataType: 'number' })).statusCode).toBe(409);
  });

  it('creates one definition when two creations of a key race', async () => {
    const results = await Promise.all([1, 2, 3].map(() => post('deployer', { rootKey: 'race', subKey: 'once', dataType: 'json' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect((await get<TListDeployerConfigDefinitionsResponse>('/deployer-configs', 'viewer', { rootKey: 'race' })).totalItems).toBe(1);
  });

  it('answers 400 naming the field for a malformed key or type, 403 to a viewer', async () => {
    for (const [body, field] of [
      [{ rootKey: '1abc', subKey: 'x', dataType: null }, 'rootKey'],
      [{ rootKey: 'abc', subKey: 'a b', dataType: null }, 'subKey'],
      [{ rootKey: 'abc', subKey: 'x', dataType: 'text' }, 'dataType'],
      [{ rootKey: 'abc', subKey: 'x' }, 'dataType'],
    ] as const) {
      const res = await post('component', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(field);
    }
    expect((await post('component', { rootKey: 'viewerKey', subKey: 'x', dataType: null }, 'viewer')).statusCode).toBe(403);
    expect((await get<TListComponentConfigDefinitionsResponse>('/component-configs', 'viewer', { rootKey: 'viewerKey' })).totalItems).toBe(0);
  });
});
