/**
 * Component and deployer configurations against the seeded catalogues: saving
 * under the rules of spec 2 §5, and defaults with their variables substituted
 * per machine (DESIGN §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMachine, TUserActivity } from '@fleet/contracts';
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
