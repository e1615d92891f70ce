/**
 * The one implementation of config defaults (`config-rules.ts`; spec 2 §5, §9;
 * spec 1 §2 Create account preview; spec 3 §2.5): a machine created from a draft
 * has exactly the component and deployer configs that `GET
 * /machines/{id}/default-component-config` and `default-deployer-config` answer
 * for it, and the draft planned them; plus the rules that decide them (which
 * value wins, missing defaults, typing, version order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCreateAccountRequest, TDraftAccount, TListMachinesResponse, TMachine } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { creationPayload } from '../../../test/account-fixtures.js';
import { availableAt, compareVersions, defaultsFor, typed, type ConfigDefinition, type MachineFacts } from './config-rules.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>): Promise<T> {
  const res = await t.call({ method, url, as: 'admin', body, query });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json() as T;
}

/**
 * Creates the account through the API (draft, then create-from-draft without
 * adjustments) and answers, per machine, its stored configs, its defaults as
 * `GET` answers them, and what the draft planned.
 */
async function createAndRead(body: TCreateAccountRequest) {
  const { draftAccountId } = await call<{ draftAccountId: number }>('POST', '/accounts', body);
  const draft = await call<TDraftAccount>('GET', `/draft-accounts/${draftAccountId}`);
  const { accountId } = await call<{ accountId: number }>('POST', '/accounts/create-from-draft', { draftAccountId });
  const { items } = await call<TListMachinesResponse>('GET', '/machines', undefined, { accountId: String(accountId), limit: '100' });
  expect(items.map((m) => m.name).sort()).toEqual(draft.machines.map((m) => m.name).sort());
  return Promise.all(
    items.map(async (listed) => {
      const machine = await call<TMachine>('GET', `/machines/${listed.id}`);
      const component = await call<{ componentConfig: Record<string, unknown> }>('GET', `/machines/${listed.id}/default-component-config`);
      const deployer = await call<{ deployerConfig: Record<string, unknown> }>('GET', `/machines/${listed.id}/default-deployer-config`);
      return {
        name: machine.name,
        stored: machine.config,
        defaults: { componentConfig: component.componentConfig, deployerConfig: deployer.deployerConfig },
        planned: draft.machines.find((m) => m.name === machine.name)!.componentConfig,
      };
    }),
  );
}

describe('a machine created from a draft has exactly its default configs', () => {
  it.each<[string, Partial<TCreateAccountRequest>]>([
    ['AllInOne, Windows 8.1, SSL', { siteMasterPort: 8081 }],
    [
      'InstancePerSiteMaster with three sites, Windows 8.2, no SSL',
      {
        licenseConfig: { instancePolicy: 'InstancePerSiteMaster', cloudInstanceType: 4 },
        machineConfig: { vmImageName: 'irmn-8.2.0-win2022-use1', enableSsl: false },
        sites: [{ name: 'Head Office' }, { name: 'Plant', urlFriendlyName: 'plant7', port: 9090 }, { name: 'Lab' }],
      },
    ],
    ['On Premise, Linux 8.1', { classId: 6, machineConfig: { vmImageName: 'irmn-8.1.3-ubuntu2204-use1' } }],
    ['Windows 8.0 (configs since 8.1 left out, deprecated at 8.2 kept)', { classId: 2, machineConfig: { vmImageName: 'irmn-8.0.7-win2019-use1' } }],
  ])('%s', async (_, extra) => {
    const machines = await createAndRead(creationPayload(extra));
    expect(machines.length).toBeGreaterThan(0);
    for (const m of machines) {
      expect(m.stored.componentConfig, m.name).toEqual(m.defaults.componentConfig);
      expect(m.stored.deployerConfig, m.name).toEqual(m.defaults.deployerConfig);
      expect(m.planned, m.name).toEqual(m.defaults.componentConfig);
    }
  });

  it('On Premise on Linux: the Linux value when set, else the on-prem one, else the default of the type', async () => {
    const [m] = await createAndRead(creationPayload({ name: 'Defaults OnPrem Linux', classId: 6, machineConfig: { vmImageName: 'irmn-8.1.3-ubuntu2204-use1' } }));
    expect(m!.stored.componentConfig).toMatchObject({
      // Linux value over the on-prem one.
      'siteMaster.dataPath': '/var/lib/irmn/data',
      'launcher.port': 8443,
      'database.connectionString': 'Host=localhost;Database=defaultsonpremlinux_site1',
      // No Linux value: the on-prem one.
      'launcher.sessionTimeoutMinutes': 60,
      'launcher.publicUrl': 'https://Defaults OnPrem Linux',
      // No on-prem value: the default of the type, not the SaaS value.
      'linkware.apiUrl': '',
      'smtp.host': '',
    });
  });
});

describe('config rules', () => {
  const def = (values: Partial<ConfigDefinition>): ConfigDefinition => ({
    rootKey: 'sample',
    subKey: 'key',
    dataType: null,
    protected: false,
    siteSpecific: false,
    sinceVersion: null,
    deprecatedAtVersion: null,
    saas: null,
    onPrem: null,
    linux: null,
    ...values,
  });
  const facts: MachineFacts = {
    isLauncher: true,
    isSiteMaster: false,
    accountClassId: 1,
    accountName: 'Acme',
    accountUrlName: 'acme',
    machineConfig: { enableSsl: true },
    siteName: null,
    siteUrlName: null,
    sitePort: null,
    osType: 'Windows',
    irmnVersion: '8.1',
  };

  it('gives a definition without defaults (as POST /component-configs creates it) the default of its type', () => {
    const defs = [def({ subKey: 's' }), def({ subKey: 'n', dataType: 'number' }), def({ subKey: 'b', dataType: 'boolean' }), def({ subKey: 'j', dataType: 'json' })];
    expect(defaultsFor(defs, facts)).toEqual({ 'sample.s': '', 'sample.n': 0, 'sample.b': false, 'sample.j': {} });
  });

  it('types catalogue text, falling back to the default of the type', () => {
    expect(typed('12', 'number')).toBe(12);
    expect(typed('abc', 'number')).toBe(0);
    expect(typed(' ', 'number')).toBe(0);
    expect(typed('{not json', 'json')).toEqual({});
    expect(typed('null', 'boolean')).toBeNull();
    expect(typed('true', 'boolean')).toBe(true);
    expect(typed('{site_port}', null)).toBe('{site_port}');
  });

  it('keeps variables without a value as written and substitutes the others', () => {
    const defs = [def({ saas: '{protocol}://{site_url_name}-{account_url_name}:{unknown}' })];
    expect(defaultsFor(defs, facts)).toEqual({ 'sample.key': 'https://{site_url_name}-acme:{unknown}' });
  });

  it('orders version names totally, never NaN', () => {
    expect(compareVersions('8.10', '8.2')).toBe(1);
    expect(compareVersions('8.1', '8.1.0')).toBe(0);
    expect(compareVersions('8.1.3', '8.1')).toBe(1);
    for (const [a, b] of [
      ['8.2-rc1', '8.2'],
      ['8.2-rc1', '8.2-rc2'],
      ['8.x', '8.1'],
      ['', '8.0'],
    ] as const) {
      const ab = compareVersions(a, b);
      expect(Number.isNaN(ab), `${a} vs ${b}`).toBe(false);
      expect(ab, `${a} vs ${b}`).not.toBe(0);
      expect(compareVersions(b, a), `${b} vs ${a}`).toBe(-ab);
    }
    expect(compareVersions('8.2-rc1', '8.2-rc2')).toBe(-1);
  });

  it('applies a definition from its version up to its deprecation; with no version only if never deprecated', () => {
    const window = { sinceVersion: '8.1', deprecatedAtVersion: '8.10' };
    expect(['8.0', '8.1', '8.2', '8.9.9', '8.10', '9'].map((v) => availableAt(window, v))).toEqual([false, true, true, true, false, false]);
    expect(availableAt(window, null)).toBe(false);
    expect(availableAt({ sinceVersion: '8.1', deprecatedAtVersion: null }, null)).toBe(true);
  });
});
