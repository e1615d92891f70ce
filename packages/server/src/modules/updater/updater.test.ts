/**
 * API tests of the updater's batches, target lists and saved selections (spec 3
 * §2.8, §7 Updater and batch; DESIGN §15; the shared rules of contracts
 * `updater.ts`): per-target rules, dry runs that write nothing, atomicity,
 * hidden ids answering as unknown ones, 403 into Customer Production, bounds,
 * one audit activity per request, set-based SQL, lists and selections.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { eq, inArray, sql } from 'drizzle-orm';
import type { TBatchResult, TSavedSelection, TTargetIdsResponse, TUpdaterAccount, TUpdaterMachine, TUserActivity } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { detail, fieldErrors, propertiesBody } from '../../../test/account-fixtures.js';
import { accountMachineStatus, auditActivities, machines, machineTasks, users } from '../../db/schema.js';

let t: TestApp;
const ids = { account: 0, addOn: 0, production: 0, m1: 0, m2: 0, m3: 0, terminating: 0, hidden: 0, configMachine: 0, bulkAccount: 0 };
let bulk: number[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const account = await insertAccount(db, { name: 'Updater Fixture', classId: 2, contactName: 'Una Updater', contactEmail: 'una@fleet.example' });
  ids.account = account.id;
  ids.m1 = (await insertMachine(db, { accountId: account.id, classId: 2, name: 'zz-updater-alpha', managed: true })).id;
  ids.m2 = (await insertMachine(db, { accountId: account.id, classId: 2, name: 'zz-updater-beta', managed: false })).id;
  ids.m3 = (await insertMachine(db, { accountId: account.id, classId: 2, name: 'zz-updater-gamma', manualMaintenance: true })).id;
  ids.terminating = (await insertMachine(db, { accountId: account.id, classId: 2, name: 'zz-updater-doomed' })).id;
  await db.insert(machineTasks).values({ machineId: ids.terminating, accountId: account.id, type: 'TerminateMachine', description: 'Terminate' });
  ids.configMachine = (
    await insertMachine(db, {
      accountId: account.id,
      classId: 2,
      name: 'zz-updater-config',
      componentConfig: { 'logging.level': 'Information', 'database.connectionString': 'Server=db1' },
      deployerConfig: { 'deployer.retryCount': 3 },
    })
  ).id;
  ids.addOn = (await insertAccount(db, { name: 'Updater Add-on', classId: 200, managed: false })).id;
  const production = await insertAccount(db, { name: 'Updater Production', classId: 5 });
  ids.production = production.id;
  ids.hidden = (await insertMachine(db, { accountId: production.id, classId: 5, name: 'zz-updater-hidden' })).id;
  const bulkAccount = await insertAccount(db, { name: 'Updater Bulk', classId: 1 });
  ids.bulkAccount = bulkAccount.id;
  const rows = await db
    .insert(machines)
    .values(Array.from({ length: 3000 }, (_, i) => ({ accountId: bulkAccount.id, classId: 1, name: `zz-bulk-${String(i).padStart(4, '0')}` })))
    .returning({ id: machines.id });
  bulk = rows.map((r) => r.id);
  // Sign in first: a sign-in is audited too, and the tests count activities.
  for (const as of ['operator', 'admin', 'viewer']) await t.call({ method: 'GET', url: '/user/me', as });
});
afterAll(() => t.close());

const put = (url: string, body: unknown, as = 'operator') => t.call({ method: 'PUT', url, as, body });
const ok = async (res: { statusCode: number; body: string; json(): unknown }) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TBatchResult;
};
const auditCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(auditActivities))[0]!.n;
const machineRows = (list: number[]) =>
  t.database.db
    .select({ id: machines.id, managed: machines.managed, manualMaintenance: machines.manualMaintenance, classId: machines.classId, componentConfig: machines.componentConfig })
    .from(machines)
    .where(inArray(machines.id, list))
    .orderBy(machines.id);
const latest = async (action: string): Promise<TUserActivity> => {
  const res = await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query: { action, limit: '1', sortDirection: 'Descending' } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TUserActivity[])[0]!;
};
const errorsOf = (res: { json(): unknown }) => ((res.json() as { errors?: { propertyName: string; errorMessage: string }[] }).errors ?? []).map((e) => e.propertyName);

describe('PUT /machines/batch', () => {
  it("a dry run lists each target's changes (equal fields are none) and writes nothing", async () => {
    const before = { rows: await machineRows([ids.m1, ids.m2, ids.m3]), audit: await auditCount() };
    const result = await ok(await put('/machines/batch', { machineIds: [ids.m1, ids.m2, ids.m3], managed: true, classId: 2, dryRun: true }));
    expect(result).toMatchObject({ dryRun: true, changed: 1, refused: 0, activityId: null, rolloutId: null });
    expect(result.targets.find((x) => x.id === ids.m2)).toEqual({ id: ids.m2, name: 'zz-updater-beta', changes: [{ field: 'managed', oldValue: false, newValue: true }], refused: null });
    expect(result.targets.find((x) => x.id === ids.m1)!.changes).toEqual([]);
    expect(await machineRows([ids.m1, ids.m2, ids.m3])).toEqual(before.rows);
    expect(await auditCount()).toBe(before.audit);
  });

  it('changes every target in one audited request, naming each change', async () => {
    const result = await ok(await put('/machines/batch', { machineIds: [ids.m1, ids.m2, ids.m3], managed: true, manualMaintenance: false }));
    expect(result).toMatchObject({ dryRun: false, changed: 2, refused: 0, activityId: expect.any(Number) });
    expect((await machineRows([ids.m1, ids.m2, ids.m3])).map((r) => [r.managed, r.manualMaintenance])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
    const activity = await latest('BatchUpdateMachines');
    expect(activity.id).toBe(result.activityId);
    expect(activity.accounts).toEqual([{ id: ids.account, name: 'Updater Fixture' }]);
    expect(activity.metadata.changes).toEqual([
      { entityName: `Machine ${ids.m2}`, propertyName: 'managed', oldValue: false, newValue: true },
      { entityName: `Machine ${ids.m3}`, propertyName: 'manualMaintenance', oldValue: true, newValue: false },
    ]);
    expect(activity.metadata.params).toMatchObject({ machineIds: [ids.m2, ids.m3], managed: true, manualMaintenance: false });
    // Nothing left to change: no activity.
    expect(await ok(await put('/machines/batch', { machineIds: [ids.m1, ids.m2], managed: true }))).toMatchObject({ changed: 0, activityId: null });
  });

  it('is atomic: a machine being terminated refuses the whole request (422 naming it), a dry run shows why', async () => {
    const before = { rows: await machineRows([ids.m1, ids.terminating]), audit: await auditCount() };
    const res = await put('/machines/batch', { machineIds: [ids.m1, ids.terminating], classId: 3 });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual([
      { propertyName: 'machineIds[1]', errorMessage: expect.stringContaining('TerminateMachine'), attemptedValue: ids.terminating },
    ]);
    expect(await machineRows([ids.m1, ids.terminating])).toEqual(before.rows);
    expect(await auditCount()).toBe(before.audit);
    const dry = await ok(await put('/machines/batch', { machineIds: [ids.m1, ids.terminating], classId: 3, dryRun: true }));
    expect(dry).toMatchObject({ changed: 1, refused: 1 });
    expect(dry.targets.find((x) => x.id === ids.terminating)!.refused).toContain('terminated');
  });

  it('answers a hidden machine as an unknown one (404 naming each), dry run or not', async () => {
    for (const dryRun of [false, true]) {
      const hidden = await put('/machines/batch', { machineIds: [ids.m1, ids.hidden, 2_000_000_000], managed: false, dryRun });
      expect(hidden.statusCode, hidden.body).toBe(404);
      expect(errorsOf(hidden)).toEqual(['machineIds[1]', 'machineIds[2]']);
      expect(hidden.json().errors[0].errorMessage).toBe(`Machine ${ids.hidden} was not found`);
    }
    // The group sees it.
    expect(await ok(await put('/machines/batch', { machineIds: [ids.hidden], managed: false, dryRun: true }, 'admin'))).toMatchObject({ changed: 1 });
  });

  it('403 moving into Customer Production without the group; the group may', async () => {
    expect((await put('/machines/batch', { machineIds: [ids.m1], classId: 5, dryRun: true })).statusCode).toBe(403);
    expect(await ok(await put('/machines/batch', { machineIds: [ids.m1], classId: 5, dryRun: true }, 'admin'))).toMatchObject({ changed: 1 });
  });

  it('bounds its input: 10,001 ids, duplicates, no field, add-on class → 400; a viewer → 403', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => i + 1);
    expect(fieldErrors(await put('/machines/batch', { machineIds: many, managed: true }))).toEqual(['machineIds: At most 10000 machines per request']);
    expect(fieldErrors(await put('/machines/batch', { machineIds: [ids.m1, ids.m1], managed: true }))).toEqual(['machineIds: Each machine may be named once']);
    expect(fieldErrors(await put('/machines/batch', { machineIds: [ids.m1] }))).toEqual(['managed: Choose managed, manual maintenance or class']);
    expect(fieldErrors(await put('/machines/batch', { machineIds: [ids.m1], classId: 200 }))[0]).toMatch(/^classId:/);
    expect((await put('/machines/batch', { machineIds: [ids.m1], managed: true }, 'viewer')).statusCode).toBe(403);
  });

  it('runs set-based: 3,000 machines in a handful of statements, well under a second', async () => {
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    let result, elapsed, statements;
    try {
      const started = performance.now();
      result = await ok(await put('/machines/batch', { machineIds: bulk, managed: false, manualMaintenance: true }));
      elapsed = performance.now() - started;
      statements = spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
    expect(result.changed).toBe(3000);
    // The token's user, begin, the targets (one select), one update, the activity and its accounts, commit: 7, never one per target.
    expect(statements).toBeGreaterThanOrEqual(4);
    expect(statements).toBeLessThanOrEqual(8);
    expect(elapsed).toBeLessThan(3000);
    const [counts] = await t.database.db
      .select({ unmanaged: accountMachineStatus.unmanaged, manualMaintenance: accountMachineStatus.manualMaintenance })
      .from(accountMachineStatus)
      .where(eq(accountMachineStatus.accountId, ids.bulkAccount));
    expect(counts).toEqual({ unmanaged: 3000, manualMaintenance: 3000 });
  });
});

describe('PUT /accounts/batch', () => {
  it('sets managed, class and auto test, bumps the properties version (a stale push answers 409), keeps the status rows in step', async () => {
    const before = await detail(t, ids.account);
    const result = await ok(await put('/accounts/batch', { accountIds: [ids.account], managed: false, classId: 4, autoTest: true }));
    expect(result.targets[0]!.changes).toEqual([
      { field: 'managed', oldValue: true, newValue: false },
      { field: 'classId', oldValue: 2, newValue: 4 },
      { field: 'autoTest', oldValue: false, newValue: true },
    ]);
    const after = await detail(t, ids.account);
    expect(after).toMatchObject({ managed: false, classId: 4, autoTest: true, versions: { properties: before.versions.properties + 1 } });
    const [status] = await t.database.db.select({ classId: accountMachineStatus.classId }).from(accountMachineStatus).where(eq(accountMachineStatus.accountId, ids.account));
    expect(status!.classId).toBe(4);
    const stale = await t.call({ method: 'PUT', url: `/accounts/${ids.account}`, as: 'operator', body: propertiesBody(before) });
    expect(stale.statusCode, stale.body).toBe(409);
    const activity = await latest('BatchUpdateAccounts');
    expect(activity.accounts).toEqual([{ id: ids.account, name: 'Updater Fixture' }]);
    expect(activity.metadata.changes.map((c) => `${c.entityName}.${c.propertyName}`)).toEqual([
      `Account ${ids.account}.managed`,
      `Account ${ids.account}.classId`,
      `Account ${ids.account}.autoTest`,
    ]);
  });

  it('refuses add-on accounts managed or with auto test, and moves to or from the add-on class (422, nothing changed)', async () => {
    const before = await auditCount();
    for (const body of [{ managed: true }, { autoTest: true }, { classId: 1 }]) {
      const res = await put('/accounts/batch', { accountIds: [ids.account, ids.addOn], ...body });
      expect(res.statusCode, res.body).toBe(422);
      expect(errorsOf(res)).toEqual(['accountIds[1]']);
    }
    const toAddOn = await put('/accounts/batch', { accountIds: [ids.addOn, ids.account], classId: 200 });
    expect(toAddOn.statusCode).toBe(422);
    expect(errorsOf(toAddOn)).toEqual(['accountIds[1]']);
    expect(toAddOn.json().errors[0].errorMessage).toContain('add-on class');
    expect(await auditCount()).toBe(before);
    expect((await detail(t, ids.account)).classId).toBe(4);
    const dry = await ok(await put('/accounts/batch', { accountIds: [ids.account, ids.addOn], managed: true, dryRun: true }));
    expect(dry.targets.find((x) => x.id === ids.addOn)!.refused).toBe('Add-on accounts stay unmanaged');
  });

  it('hidden accounts answer as unknown ones; Customer Production needs the group (403)', async () => {
    const res = await put('/accounts/batch', { accountIds: [ids.production, ids.account], managed: true, dryRun: true });
    expect(res.statusCode).toBe(404);
    expect(errorsOf(res)).toEqual(['accountIds[0]']);
    expect((await put('/accounts/batch', { accountIds: [ids.account], classId: 5 })).statusCode).toBe(403);
    expect(await ok(await put('/accounts/batch', { accountIds: [ids.production], managed: false, dryRun: true }, 'admin'))).toMatchObject({ changed: 1 });
  });
});

describe('PUT /machines/batch/component-configs and deployer-configs', () => {
  it('a dry run lists the keys added, removed or changed; the write is audited per machine and key', async () => {
    const next = { 'database.connectionString': 'Server=db1', 'logging.level': 'Debug', 'client.features': { mapView: true } };
    const dry = await ok(await put('/machines/batch/component-configs', { componentConfigs: { [ids.configMachine]: next }, dryRun: true }));
    expect(dry.targets[0]!.changes).toEqual([
      { field: 'client.features', oldValue: null, newValue: { mapView: true } },
      { field: 'logging.level', oldValue: 'Information', newValue: 'Debug' },
    ]);
    expect((await machineRows([ids.configMachine]))[0]!.componentConfig).toEqual({ 'logging.level': 'Information', 'database.connectionString': 'Server=db1' });
    const result = await ok(await put('/machines/batch/component-configs', { componentConfigs: { [ids.configMachine]: next } }));
    expect(result.changed).toBe(1);
    expect((await machineRows([ids.configMachine]))[0]!.componentConfig).toEqual(next);
    const activity = await latest('BatchUpdateComponentConfigs');
    expect(activity.metadata.changes.map((c) => `${c.entityName} ${c.propertyName}`)).toEqual([
      `Machine ${ids.configMachine} client.features`,
      `Machine ${ids.configMachine} logging.level`,
    ]);
  });

  it('checks as the single call: 400 naming the key, protected keys refuse the machine (422), hidden machines 404', async () => {
    const bad = await put('/machines/batch/deployer-configs', { deployerConfigs: { [ids.configMachine]: { 'deployer.retryCount': '5' } } });
    expect(fieldErrors(bad)[0]).toMatch(new RegExp(`^deployerConfigs\\.${ids.configMachine}\\.deployer\\.retryCount:`));
    const before = await auditCount();
    const locked = await put('/machines/batch/component-configs', {
      componentConfigs: { [ids.m1]: {}, [ids.configMachine]: { 'database.connectionString': 'Server=elsewhere' } },
    });
    expect(locked.statusCode, locked.body).toBe(422);
    expect(errorsOf(locked)).toEqual([`componentConfigs.${ids.configMachine}`]);
    expect(await auditCount()).toBe(before);
    const hidden = await put('/machines/batch/deployer-configs', { deployerConfigs: { [ids.hidden]: {} }, dryRun: true });
    expect(hidden.statusCode).toBe(404);
    expect(errorsOf(hidden)).toEqual([`deployerConfigs.${ids.hidden}`]);
  });

  it('the batch defaults answer for 200 machines', async () => {
    const res = await t.call({ method: 'GET', url: '/machines/default-component-configs', as: 'operator', query: { ids: bulk.slice(0, 200).join(',') } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as unknown[]).length).toBe(200);
  });
});

describe('GET /updater/machines and /updater/accounts', () => {
  const get = async <T>(url: string, query: Record<string, string>, as = 'operator') => {
    const res = await t.call({ method: 'GET', url, as, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };

  it('lists machines by name then id, filtered by name, class and account; Customer Production hidden', async () => {
    const page = await get<{ items: TUpdaterMachine[]; totalItems: number }>('/updater/machines', { search: 'zz-updater', limit: '100' });
    expect(page.items.map((m) => m.name)).toEqual(['zz-updater-alpha', 'zz-updater-beta', 'zz-updater-config', 'zz-updater-doomed', 'zz-updater-gamma']);
    expect(page.totalItems).toBe(5);
    expect(page.items[0]).toMatchObject({ accountId: ids.account, accountName: 'Updater Fixture', obsolete: false });
    const admin = await get<{ items: TUpdaterMachine[] }>('/updater/machines', { search: 'zz-updater', limit: '100' }, 'admin');
    expect(admin.items.map((m) => m.name)).toContain('zz-updater-hidden');
    const byAccount = await get<TTargetIdsResponse>('/updater/machines/ids', { accountIds: String(ids.bulkAccount), classIds: '1' });
    expect(byAccount).toEqual({ ids: bulk, totalItems: 3000 });
    expect((await get<TTargetIdsResponse>('/updater/machines/ids', { search: '100%_' })).totalItems).toBe(0);
    expect((await t.call({ method: 'GET', url: '/updater/machines', as: 'viewer' })).statusCode).toBe(403);
  });

  it('lists accounts with the accounts list filters', async () => {
    const page = await get<{ items: TUpdaterAccount[]; totalItems: number }>('/updater/accounts', { search: 'updater', limit: '100' });
    expect(page.items.map((a) => a.name)).toEqual(['Updater Add-on', 'Updater Bulk', 'Updater Fixture']);
    expect(page.items.find((a) => a.id === ids.bulkAccount)).toMatchObject({ machines: 3000, classId: 1, class: 'Experimental' });
    const all = await get<TTargetIdsResponse>('/updater/accounts/ids', { classIds: '200' });
    expect(all.ids).toContain(ids.addOn);
    expect(all.totalItems).toBe(all.ids.length);
    expect(fieldErrors(await t.call({ method: 'GET', url: '/updater/accounts', as: 'operator', query: { machineStatusInclude: 'sleepy' } }))[0]).toMatch(/^machineStatusInclude:/);
    expect((await t.call({ method: 'GET', url: '/updater/accounts/ids', as: 'viewer' })).statusCode).toBe(403);
  });
});

describe('/updater/selections', () => {
  const save = (body: unknown, as = 'operator') => t.call({ method: 'POST', url: '/updater/selections', as, body });

  it('saves a query or ids, lists them newest first, and audits', async () => {
    const query = await save({ name: 'North staging', kind: 'accounts', query: 'search=north&classIds=1,2' });
    expect(query.statusCode, query.body).toBe(200);
    const ids1 = await save({ name: 'Three machines', kind: 'machines', ids: [ids.m1, ids.m2, ids.m3] }, 'admin');
    expect(ids1.statusCode, ids1.body).toBe(200);
    const list = await t.call({ method: 'GET', url: '/updater/selections', as: 'operator' });
    const names = (list.json() as TSavedSelection[]).map((s) => `${s.name}/${s.owner}`);
    expect(names.slice(0, 2)).toEqual(['Three machines/admin', 'North staging/operator']);
    expect((await latest('SaveSelection')).metadata.params).toMatchObject({ name: 'Three machines', kind: 'machines', ids: [ids.m1, ids.m2, ids.m3] });
  });

  it("400 naming query when it is not an accounts list query; 404 naming hidden ids", async () => {
    expect(fieldErrors(await save({ name: 'Bad', kind: 'accounts', query: 'classIds=banana' }))[0]).toMatch(/^query: Not an accounts list query/);
    expect(fieldErrors(await save({ name: 'Bad', kind: 'accounts', query: 'colour=red' }))[0]).toMatch(/^query:/);
    expect(fieldErrors(await save({ name: 'Bad', kind: 'machines', query: 'search=x' }))[0]).toMatch(/^query:/);
    const hidden = await save({ name: 'Hidden', kind: 'machines', ids: [ids.m1, ids.hidden] });
    expect(hidden.statusCode).toBe(404);
    expect(errorsOf(hidden)).toEqual(['ids[1]']);
  });

  it('is deleted by its owner or an admin only (403 otherwise), audited', async () => {
    const mine = (await save({ name: 'Admin only', kind: 'accounts', ids: [ids.account] }, 'admin')).json() as TSavedSelection;
    const del = (as: string) => t.call({ method: 'DELETE', url: `/updater/selections/${mine.id}`, as });
    expect((await del('operator')).statusCode).toBe(403);
    expect((await del('viewer')).statusCode).toBe(403);
    await t.database.db.update(users).set({ permissions: ['write', 'admin'] }).where(eq(users.username, 'operator'));
    expect((await del('operator')).statusCode).toBe(200);
    await t.database.db.update(users).set({ permissions: ['write'] }).where(eq(users.username, 'operator'));
    expect((await del('admin')).statusCode).toBe(404);
    expect((await latest('DeleteSelection')).metadata.params).toMatchObject({ selectionId: mine.id, owner: 'admin' });
    const own = (await save({ name: 'Mine', kind: 'accounts', ids: [ids.account] })).json() as TSavedSelection;
    expect((await t.call({ method: 'DELETE', url: `/updater/selections/${own.id}`, as: 'operator' })).statusCode).toBe(200);
  });
});
