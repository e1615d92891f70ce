/**
 * The config catalogues against the seeded catalogues (spec 3 §2.5, §5, §7
 * Component configs and Deployer configs): reading one definition, creating with
 * values, updating only the editable fields under the type and version rules,
 * deleting (409 while machines use the key), the audit, and machine defaults
 * following a change at once (DESIGN §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TComponentConfigDefinition, TDeployerConfigDefinition, TIrmnVersion, TListComponentConfigDefinitionsResponse, TUserActivity } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';

let t: TestApp;
let machineId = 0;
let machineName = '';
let hiddenMachineName = '';
const versions: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  const account = await insertAccount(t.database.db, { name: 'Catalogue Fixture', urlFriendlyName: 'catfix', classId: 2, vmImageName: 'irmn-8.1.3-win2022-use1' });
  const machine = await insertMachine(t.database.db, { accountId: account.id, classId: 2, isLauncher: true, componentConfig: { 'launcher.port': 443 }, deployerConfig: { 'deployer.retryCount': 3 } });
  machineId = machine.id;
  machineName = machine.name;
  const user = await insertMachine(t.database.db, { accountId: account.id, classId: 2, componentConfig: { 'catalogueTest.inUse': 'x' }, deployerConfig: { 'catalogueTest.inUse': 1 } });
  machineName = user.name;
  const production = await insertAccount(t.database.db, { name: 'Catalogue Production', classId: 5 });
  hiddenMachineName = (await insertMachine(t.database.db, { accountId: production.id, classId: 5, componentConfig: { 'catalogueTest.inUse': 'y' } })).name;
  for (const v of await get<TIrmnVersion[]>('/irmn-versions')) versions[v.name] = v.id;
});
afterAll(() => t.close());

async function get<T>(url: string, as = 'viewer', query?: Record<string, string>): Promise<T> {
  const res = await t.call({ method: 'GET', url, as, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, as = 'operator') => t.call({ method, url, as, body });
const componentByKey = async (key: string) =>
  (await get<TListComponentConfigDefinitionsResponse>('/component-configs', 'viewer', { search: key, limit: '1000' })).items.find((d) => `${d.rootKey}.${d.subKey}` === key)!;
const lastActivity = async (action: string) => (await get<TUserActivity[]>('/user-activities', 'admin', { action, limit: '1' }))[0]!;

/** The editable fields of a component definition, as the editor sends them. */
const editOf = (d: TComponentConfigDefinition) => ({
  protected: d.protected,
  siteSpecific: d.siteSpecific,
  saasDefaultValue: d.saasDefaultValue,
  onPremDefaultValue: d.onPremDefaultValue,
  linuxSpecificValue: d.linuxSpecificValue,
  versionId: d.version?.id ?? null,
  deprecatedAtVersionId: d.deprecatedAtVersion?.id ?? null,
});

describe('GET /component-configs/{id} and /deployer-configs/{id or key}', () => {
  it('answers one definition, 404 when unknown, 400 for a malformed key', async () => {
    const port = await componentByKey('launcher.port');
    expect(await get(`/component-configs/${port.id}`)).toEqual(port);
    expect((await t.call({ method: 'GET', url: '/component-configs/999999', as: 'viewer' })).statusCode).toBe(404);

    const retry = await get<TDeployerConfigDefinition>('/deployer-configs/deployer.retryCount');
    expect(retry).toMatchObject({ rootKey: 'deployer', subKey: 'retryCount', dataType: 'number', defaultValue: '3' });
    expect((await t.call({ method: 'GET', url: '/deployer-configs/deployer.nothing', as: 'viewer' })).statusCode).toBe(404);
    const bad = await t.call({ method: 'GET', url: '/deployer-configs/no-dot', as: 'viewer' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('id');
    expect(await get(`/deployer-configs/${retry.id}`)).toEqual(retry);
  });
});

describe('PUT /component-configs/{id} and /deployer-configs/{id}', () => {
  it('updates the editable fields, audited with a change per field', async () => {
    const level = await componentByKey('logging.level');
    const res = await call('PUT', `/component-configs/${level.id}`, {
      ...editOf(level),
      protected: true,
      saasDefaultValue: 'Debug',
      linuxSpecificValue: null,
      versionId: versions['8.0']!,
      deprecatedAtVersionId: versions['8.2']!,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      rootKey: 'logging',
      subKey: 'level',
      protected: true,
      saasDefaultValue: 'Debug',
      onPremDefaultValue: 'Warning',
      linuxSpecificValue: null,
      version: { name: '8.0' },
      deprecatedAtVersion: { name: '8.2' },
    });
    const activity = await lastActivity('UpdateComponentConfigDefinition');
    expect(activity.user).toBe('operator');
    expect(activity.metadata.params).toMatchObject({ id: level.id, key: 'logging.level' });
    expect(activity.metadata.changes).toEqual(
      expect.arrayContaining([
        { entityName: 'ComponentConfig', propertyName: 'protected', oldValue: false, newValue: true },
        { entityName: 'ComponentConfig', propertyName: 'saasDefaultValue', oldValue: 'Information', newValue: 'Debug' },
        { entityName: 'ComponentConfig', propertyName: 'linuxSpecificValue', oldValue: 'Warning', newValue: null },
        { entityName: 'ComponentConfig', propertyName: 'deprecatedAtVersionId', oldValue: null, newValue: versions['8.2'] },
      ]),
    );
    expect(activity.metadata.changes).toHaveLength(5);
  });

  it('refuses a body naming the key or data type (immutable), 400', async () => {
    const port = await componentByKey('launcher.port');
    for (const extra of [{ rootKey: 'other' }, { subKey: 'other' }, { dataType: null }]) {
      const res = await call('PUT', `/component-configs/${port.id}`, { ...editOf(port), ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
    }
    expect(await componentByKey('launcher.port')).toEqual(port);
  });

  it('refuses defaults not of the data type, naming each field; variables count as their values', async () => {
    const port = await componentByKey('launcher.port');
    const res = await call('PUT', `/component-configs/${port.id}`, { ...editOf(port), saasDefaultValue: 'abc', linuxSpecificValue: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { propertyName: string }) => e.propertyName)).toEqual(['saasDefaultValue', 'linuxSpecificValue']);
    expect(res.json().errors[0].errorMessage).toBe('Must be a number');
    expect((await call('PUT', `/component-configs/${port.id}`, { ...editOf(port), saasDefaultValue: '{site_port}' })).statusCode).toBe(200);
    expect((await call('PUT', `/component-configs/${port.id}`, { ...editOf(port), saasDefaultValue: '{account_name}' })).statusCode).toBe(400);

    const sso = await componentByKey('launcher.enableSso');
    const yes = await call('PUT', `/component-configs/${sso.id}`, { ...editOf(sso), saasDefaultValue: 'yes' });
    expect(yes.json().errors[0]).toMatchObject({ propertyName: 'saasDefaultValue', errorMessage: 'Must be true, false or null' });
    expect((await call('PUT', `/component-configs/${sso.id}`, { ...editOf(sso), saasDefaultValue: 'null' })).statusCode).toBe(200);

    const features = await componentByKey('client.features');
    const json = await call('PUT', `/component-configs/${features.id}`, { ...editOf(features), onPremDefaultValue: '{"mapView":' });
    expect(json.statusCode).toBe(400);
    expect(json.json().errors[0]).toMatchObject({ propertyName: 'onPremDefaultValue' });
    expect(json.json().errors[0].errorMessage).toMatch(/^Must be valid JSON/);
    const withVariable = await call('PUT', `/component-configs/${features.id}`, { ...editOf(features), onPremDefaultValue: '{"url":"{protocol}://{account_url_name}"}' });
    expect(withVariable.statusCode, withVariable.body).toBe(200);

    const retry = await get<TDeployerConfigDefinition>('/deployer-configs/deployer.retryCount');
    const deployer = await call('PUT', `/deployer-configs/${retry.id}`, { protected: false, defaultValue: 'many', versionId: null, deprecatedAtVersionId: null });
    expect(deployer.json().errors[0]).toMatchObject({ propertyName: 'defaultValue', errorMessage: 'Must be a number' });
  });

  it('refuses unknown versions and a deprecation not after the version', async () => {
    const pool = await componentByKey('database.poolSize');
    const unknown = await call('PUT', `/component-configs/${pool.id}`, { ...editOf(pool), versionId: 999999 });
    expect(unknown.json().errors[0]).toMatchObject({ propertyName: 'versionId', errorMessage: 'Unknown IRMN version' });
    const early = await call('PUT', `/component-configs/${pool.id}`, { ...editOf(pool), versionId: versions['8.1']!, deprecatedAtVersionId: versions['8.0']! });
    expect(early.statusCode).toBe(400);
    expect(early.json().errors[0]).toMatchObject({ propertyName: 'deprecatedAtVersionId', errorMessage: 'Must be a version after 8.1' });
    const same = await call('PUT', `/component-configs/${pool.id}`, { ...editOf(pool), versionId: versions['8.1']!, deprecatedAtVersionId: versions['8.1']! });
    expect(same.statusCode).toBe(400);
  });

  it('answers 404 for an unknown id, 403 to a viewer', async () => {
    const pool = await componentByKey('database.poolSize');
    expect((await call('PUT', '/component-configs/999999', editOf(pool))).statusCode).toBe(404);
    expect((await call('PUT', `/component-configs/${pool.id}`, { ...editOf(pool), saasDefaultValue: '1' }, 'viewer')).statusCode).toBe(403);
    expect((await componentByKey('database.poolSize')).saasDefaultValue).toBe('50');
  });

  it("is used at once by the machines' defaults", async () => {
    const port = await componentByKey('launcher.port');
    expect((await call('PUT', `/component-configs/${port.id}`, { ...editOf(port), saasDefaultValue: '9443' })).statusCode).toBe(200);
    const component = await get<{ componentConfig: Record<string, unknown> }>(`/machines/${machineId}/default-component-config`, 'operator');
    expect(component.componentConfig['launcher.port']).toBe(9443);

    const from = await componentByKey('smtp.from');
    expect((await call('PUT', `/component-configs/${from.id}`, { ...editOf(from), saasDefaultValue: 'ops@{account_url_name}.example.org' })).statusCode).toBe(200);
    expect((await get<{ componentConfig: Record<string, unknown> }>(`/machines/${machineId}/default-component-config`, 'operator')).componentConfig['smtp.from']).toBe(
      'ops@catfix.example.org',
    );

    const channel = await get<TDeployerConfigDefinition>('/deployer-configs/deployer.channel');
    const res = await call('PUT', `/deployer-configs/${channel.id}`, { protected: true, defaultValue: 'beta', versionId: null, deprecatedAtVersionId: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ protected: true, defaultValue: 'beta' });
    const deployer = await get<{ deployerConfig: Record<string, unknown> }>(`/machines/${machineId}/default-deployer-config`, 'operator');
    expect(deployer.deployerConfig['deployer.channel']).toBe('beta');
    const activity = await lastActivity('UpdateDeployerConfigDefinition');
    expect(activity.metadata.changes).toEqual([
      { entityName: 'DeployerConfig', propertyName: 'protected', oldValue: false, newValue: true },
      { entityName: 'DeployerConfig', propertyName: 'defaultValue', oldValue: 'stable', newValue: 'beta' },
    ]);
  });
});

describe('POST with values, DELETE /component-configs/{id} and /deployer-configs/{id}', () => {
  it('creates a definition with its defaults, audited, and deletes it, audited', async () => {
    const created = await call('POST', '/component-configs', {
      rootKey: 'catalogueTest',
      subKey: 'greeting',
      dataType: null,
      siteSpecific: true,
      saasDefaultValue: 'Hello {account_name}',
      onPremDefaultValue: 'Hi',
      linuxSpecificValue: null,
      versionId: versions['8.1']!,
    });
    expect(created.statusCode, created.body).toBe(200);
    const definition = created.json() as TComponentConfigDefinition;
    expect(definition).toMatchObject({ siteSpecific: true, protected: false, saasDefaultValue: 'Hello {account_name}', onPremDefaultValue: 'Hi', version: { name: '8.1' }, deprecatedAtVersion: null });
    const createdActivity = await lastActivity('CreateComponentConfig');
    expect(createdActivity.metadata.changes).toEqual(
      expect.arrayContaining([{ entityName: 'ComponentConfig', propertyName: 'saasDefaultValue', oldValue: null, newValue: 'Hello {account_name}' }]),
    );

    const bad = await call('POST', '/deployer-configs', { rootKey: 'catalogueTest', subKey: 'count', dataType: 'number', defaultValue: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('defaultValue');

    const removed = await call('DELETE', `/component-configs/${definition.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await t.call({ method: 'GET', url: `/component-configs/${definition.id}`, as: 'viewer' })).statusCode).toBe(404);
    const deleted = await lastActivity('DeleteComponentConfigDefinition');
    expect(deleted.metadata.params).toMatchObject({ id: definition.id, key: 'catalogueTest.greeting' });
    expect(deleted.metadata.changes).toEqual(expect.arrayContaining([{ entityName: 'ComponentConfig', propertyName: 'rootKey', oldValue: 'catalogueTest', newValue: null }]));
    expect((await call('DELETE', `/component-configs/${definition.id}`)).statusCode).toBe(404);
  });

  it('refuses to delete a definition whose key a machine still holds: 409 naming the machine', async () => {
    const component = (await call('POST', '/component-configs', { rootKey: 'catalogueTest', subKey: 'inUse', dataType: null })).json() as TComponentConfigDefinition;
    const res = await call('DELETE', `/component-configs/${component.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`Config catalogueTest.inUse is still used by 2 machine(s): ${machineName} and 1 more; remove it from their configuration first`);
    expect(await get(`/component-configs/${component.id}`)).toMatchObject({ id: component.id, rootKey: 'catalogueTest', subKey: 'inUse' });
    const admin = await call('DELETE', `/component-configs/${component.id}`, undefined, 'admin');
    expect(admin.json().detail).toContain(hiddenMachineName);

    const deployer = (await call('POST', '/deployer-configs', { rootKey: 'catalogueTest', subKey: 'inUse', dataType: 'number' })).json() as TDeployerConfigDefinition;
    const refused = await call('DELETE', `/deployer-configs/${deployer.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain(`by 1 machine(s): ${machineName};`);

    const unused = await get<TDeployerConfigDefinition>('/deployer-configs/smokeTest.suite');
    expect((await call('DELETE', `/deployer-configs/${unused.id}`, undefined, 'viewer')).statusCode).toBe(403);
    expect((await call('DELETE', `/deployer-configs/${unused.id}`)).statusCode).toBe(200);
    expect((await lastActivity('DeleteDeployerConfigDefinition')).metadata.params).toMatchObject({ key: 'smokeTest.suite' });
  });
});
