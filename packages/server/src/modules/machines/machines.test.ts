/**
 * Machine calls against a real PostgreSQL, without the task engine: lists and
 * visibility, the flags each action sets and the task it queues, validation,
 * updates, creatable and new machines, tasks and their cancelling, the lookup.
 * (`machines-lifecycle.test.ts` runs the same calls with the engine.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  MACHINE_LOOKUP_DEFAULT_LIMIT,
  MACHINE_LOOKUP_IDS_MAX,
  MACHINE_LOOKUP_MAX_LIMIT,
  MACHINE_LOOKUP_SEARCH_MAX,
  MACHINE_UNFINISHED_OPERATIONS,
  MACHINE_UNFINISHED_TASKS,
  type TMachine,
  type TMachineLookup,
  type TTask,
  type TUserActivity,
} from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { accounts, machines, machineTasks, operations, operationTypes, sites } from '../../db/schema.js';
import { createSimulatedCloud } from '../../engine/cloud/simulated.js';
import { upsertCredential } from '../../engine/tasks/machine-state.repository.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';
import type { TaskEvent } from '../../engine/push/events.js';

let t: TestApp;
const ids = { account: 0, cpAccount: 0, plain: 0, stopped: 0, panicked: 0, cp: 0, cpOfAccount: 0, policy: 0, addOn: 0, siteA: 0, siteB: 0 };
let cloudId = '';
const events: TaskEvent[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  t.app.deps.events.subscribe((e) => {
    if ('task' in e) events.push(e);
  });
  const cloud = createSimulatedCloud({ db, delayMs: 0 });
  ids.account = (await insertAccount(db, { name: 'Machines Fixture', classId: 2 })).id;
  ids.cpAccount = (await insertAccount(db, { name: 'Machines Production', classId: 5 })).id;
  ids.plain = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'mf-launcher', isLauncher: true, instanceTypeId: 2, idle: true })).id;
  ids.stopped = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'mf-site', isSiteMaster: true, stop: true, instanceTypeId: 3 })).id;
  ids.panicked = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'mf-panic', needsAdmin: true, failCounter: 4 })).id;
  ids.cp = (await insertMachine(db, { accountId: ids.account, classId: 5, name: 'mf-moved-to-production' })).id;
  ids.cpOfAccount = (await insertMachine(db, { accountId: ids.cpAccount, classId: 5, name: 'mp-launcher' })).id;
  cloudId = (await cloud.launch({ machineId: ids.plain, region: 'eu-west-1', instanceTypeId: 2, clientToken: 'fixture-plain' })).cloudId;
  await cloud.describe(cloudId);

  ids.policy = (await insertAccount(db, { name: 'Policy Fixture', classId: 1, instancePolicy: 'InstancePerSiteMaster', urlFriendlyName: 'policyfix' })).id;
  const [a, b] = await db
    .insert(sites)
    .values([
      { accountId: ids.policy, name: 'Site A', urlFriendlyName: 'site-a', domainName: 'site-a-policyfix.fleet.example.net' },
      { accountId: ids.policy, name: 'Site B', urlFriendlyName: 'site-b', domainName: 'site-b-policyfix.fleet.example.net', port: 8443 },
    ])
    .returning();
  ids.siteA = a!.id;
  ids.siteB = b!.id;
  ids.addOn = (await insertAccount(db, { name: 'Addon Fixture', classId: 200 })).id;
});
afterAll(() => t.close());

const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, as = 'operator', body?: unknown, query?: Record<string, string>) =>
  t.call({ method, url, as, body, query });
const ok = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, as = 'operator', body?: unknown, query?: Record<string, string>) => {
  const res = await call(method, url, as, body, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const machineRow = async (id: number) => (await t.database.db.select().from(machines).where(eq(machines.id, id)))[0]!;
const lastActivity = async (action: string) =>
  (await ok<TUserActivity[]>('GET', '/user-activities', 'admin', undefined, { action, limit: '1' }))[0]!;

describe('GET /machines and /machines/{id}', () => {
  it('pages visible machines, 20 by default, with the total', async () => {
    const page = await ok<{ items: TMachine[]; totalItems: number }>('GET', '/machines');
    expect(page.items).toHaveLength(20);
    expect(page.totalItems).toBeGreaterThan(100);
    const next = await ok<{ items: TMachine[] }>('GET', '/machines', 'operator', undefined, { startIndex: '20' });
    expect(next.items.map((m) => m.id)).not.toContain(page.items[0]!.id);
  });

  it('filters by account: launcher first, with instance, type, site and recent tasks', async () => {
    const { items, totalItems } = await ok<{ items: TMachine[]; totalItems: number }>('GET', '/machines', 'admin', undefined, { accountId: String(ids.account) });
    expect(totalItems).toBe(4);
    expect(items[0]).toMatchObject({
      id: ids.plain,
      name: 'mf-launcher',
      class: { id: 2, name: 'Internal Testing' },
      classId: 2,
      className: 'Internal Testing',
      account: { id: ids.account, name: 'Machines Fixture' },
      isLauncher: true,
      idle: true,
      instance: { status: 'running', cloudId },
      cloudInstanceType: { id: 2, name: 't2.medium', storageSize: 80 },
      tasks: [],
      config: { componentConfig: {}, deployerConfig: {} },
    });
    expect(items.find((m) => m.id === ids.panicked)).toMatchObject({ instance: null, cloudInstanceType: null, needsAdmin: true });
  });

  it('answers each boolean field of a machine from its own column', async () => {
    const db = t.database.db;
    const account = (await insertAccount(db, { name: 'Flags Fixture', classId: 2 })).id;
    const fields = ['needsAdmin', 'manualMaintenance', 'turbo', 'runSmokeTest', 'overseeTermination', 'stop', 'idle', 'terminate', 'isLauncher', 'isSiteMaster'] as const;
    // One machine per field with only that field set (managed is true by default, so its machine clears it),
    // and one with every field set.
    const only = new Map<number, string>();
    for (const field of fields) only.set((await insertMachine(db, { accountId: account, classId: 2, name: `flag-${field}`, [field]: true, managed: false })).id, field);
    const unmanaged = (await insertMachine(db, { accountId: account, classId: 2, name: 'flag-none', managed: false })).id;
    const all = (await insertMachine(db, { accountId: account, classId: 2, name: 'flag-all', ...Object.fromEntries(fields.map((f) => [f, true])), managed: true })).id;
    const { items } = await ok<{ items: TMachine[] }>('GET', '/machines', 'admin', undefined, { accountId: String(account) });
    expect(items).toHaveLength(fields.length + 2);
    for (const machine of items) {
      const set = [...fields, 'managed' as const].filter((f) => machine[f]);
      if (machine.id === all) expect(set).toEqual([...fields, 'managed']);
      else if (machine.id === unmanaged) expect(set).toEqual([]);
      else expect(set).toEqual([only.get(machine.id)]);
    }
  });

  it('lists each machine with its unfinished tasks as GET /machines/{id}/tasks answers them: newest first, at most 10', async () => {
    const db = t.database.db;
    const account = (await insertAccount(db, { name: 'Recent Tasks Fixture', classId: 2 })).id;
    const busy = (await insertMachine(db, { accountId: account, classId: 2, name: 'rt-busy' })).id;
    const quiet = (await insertMachine(db, { accountId: account, classId: 2, name: 'rt-quiet' })).id;
    // 13 tasks, statuses mixed so that the unfinished ones are not the newest; times
    // with microseconds (the list formats them in SQL, the task list in JavaScript).
    const statuses = ['Completed', 'New', 'Failed', 'Completed', 'Running', 'Cancelled', 'Completed', 'Failed', 'Completed', 'New', 'Completed', 'Completed', 'Failed'];
    for (const [i, status] of statuses.entries()) {
      await db.insert(machineTasks).values({
        machineId: busy,
        accountId: account,
        type: 'StartMachine',
        status,
        description: `task ${i}`,
        progress: status === 'Completed' ? 100 : i,
        queuedAt: sql`timestamptz '2026-03-04 05:06:07.123456+00' + ${`${i} minutes 0.${String(i).padStart(3, '0')}987 seconds`}::interval`,
        startedAt: status === 'New' ? null : sql`timestamptz '2026-03-04 06:00:00.999999+02'`,
        completedAt: ['New', 'Running'].includes(status) ? null : sql`now()`,
        error: status === 'Failed' ? `failure ${i}` : null,
      });
    }
    const all = (await ok<{ items: TTask[] }>('GET', `/machines/${busy}/tasks`, 'viewer', undefined, { limit: '100' })).items;
    const unfinished = (task: TTask) => task.status === 'New' || task.status === 'Running';
    const expected = all.filter(unfinished).slice(0, MACHINE_UNFINISHED_TASKS);

    const { items, totalItems } = await ok<{ items: TMachine[]; totalItems: number }>('GET', '/machines', 'viewer', undefined, { accountId: String(account) });
    expect(totalItems).toBe(2);
    expect(items.map((m) => m.name)).toEqual(['rt-busy', 'rt-quiet']);
    expect(items[0]!.tasks).toEqual(expected);
    expect(items[0]!.tasks.map((task) => task.status)).toEqual(['New', 'Running', 'New']);
    expect(items[1]!.tasks).toEqual([]);
    expect((await ok<TMachine>('GET', `/machines/${busy}`, 'viewer')).tasks).toEqual(expected);
    expect((await ok<TMachine>('GET', `/machines/${quiet}`, 'viewer')).tasks).toEqual([]);
    // Past the end: no rows, the total still counted.
    const past = await ok<{ items: TMachine[]; totalItems: number }>('GET', '/machines', 'viewer', undefined, { accountId: String(account), startIndex: '5' });
    expect(past).toEqual({ items: [], totalItems: 2, totalCapped: false });
  });

  it('carries at most MACHINE_UNFINISHED_TASKS unfinished tasks and MACHINE_UNFINISHED_OPERATIONS unfinished operations, newest first', async () => {
    const db = t.database.db;
    const account = (await insertAccount(db, { name: 'Unfinished Fixture', classId: 2 })).id;
    const many = (await insertMachine(db, { accountId: account, classId: 2, name: 'uf-many', failCounter: 2 })).id;
    await db.insert(machineTasks).values(
      Array.from({ length: MACHINE_UNFINISHED_TASKS + 2 }, (_, i) => ({ machineId: many, accountId: account, type: 'StartMachine', status: 'New', description: `new ${i}` })),
    );
    const [type] = await db.select().from(operationTypes).where(eq(operationTypes.machineClassId, 2)).limit(1);
    const operation = (i: number, finished: boolean) => ({
      machineId: many, accountId: account, classId: 2, typeId: type!.id, typeName: type!.name, userName: 'operator',
      timeoutSeconds: 60, operationMode: 0, failCounter: 0, pending: i === 3,
      ...(finished ? { status: 'SUCCESS', startedAt: sql`now()`, finishedAt: sql`now()` } : {}),
    });
    // Seven unfinished operations between finished ones: the five newest unfinished are carried.
    const inserted = await db
      .insert(operations)
      .values([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => operation(i, i === 0 || i === 8)))
      .returning({ id: operations.id });
    const unfinishedIds = inserted.slice(1, 8).map((r) => r.id).reverse().slice(0, MACHINE_UNFINISHED_OPERATIONS);
    // A machine whose operations and tasks have all finished carries none.
    const done = (await insertMachine(db, { accountId: account, classId: 2, name: 'uf-done' })).id;
    await db.insert(operations).values({ ...operation(0, true), machineId: done });
    await db.insert(machineTasks).values({ machineId: done, accountId: account, type: 'StopMachine', status: 'Completed', description: 'done' });

    const [finished, machine] = (await ok<{ items: TMachine[] }>('GET', '/machines', 'viewer', undefined, { accountId: String(account) })).items;
    expect(finished).toMatchObject({ name: 'uf-done', tasks: [], operations: [] });
    expect(machine!.tasks.map((task) => task.description)).toEqual(
      Array.from({ length: MACHINE_UNFINISHED_TASKS }, (_, i) => `new ${MACHINE_UNFINISHED_TASKS + 1 - i}`),
    );
    expect(machine!.operations.map((op) => op.id)).toEqual(unfinishedIds);
    // An unfinished operation shows the machine's counter now; the pending one is there for the warning row.
    expect(machine!.operations.every((op) => op.failCounter === 2 && op.machineName === 'uf-many' && op.finishTime === null)).toBe(true);
    expect(machine!.operations.some((op) => op.pending)).toBe(true);
    expect((await ok<TMachine>('GET', `/machines/${many}`, 'viewer')).operations.map((op) => op.id)).toEqual(unfinishedIds);
  });

  it('shows the demo fleet machines with their instances and site names', async () => {
    const { items } = await ok<{ items: TMachine[] }>('GET', '/machines', 'admin', undefined, { limit: '200' });
    const withInstance = items.filter((m) => m.instance !== null);
    expect(withInstance.length).toBeGreaterThan(150);
    expect(withInstance[0]!.instance!.cloudId).toMatch(/^i-[0-9a-f]{17}$/);
    expect(items.some((m) => m.isSiteMaster && m.siteName && m.siteMasterUrl)).toBe(true);
    expect(items.some((m) => m.isLauncher && m.launcherUrl?.startsWith('http'))).toBe(true);
  });

  it('hides Customer Production machines and accounts from users without the group: lists, by id, lookup', async () => {
    const operator = await ok<{ items: TMachine[]; totalItems: number }>('GET', '/machines', 'operator', undefined, { limit: '1000' });
    const admin = await ok<{ items: TMachine[]; totalItems: number }>('GET', '/machines', 'admin', undefined, { limit: '1000' });
    expect(operator.items.some((m) => m.classId === 5)).toBe(false);
    expect(admin.items.some((m) => m.classId === 5)).toBe(true);
    expect(operator.totalItems).toBeLessThan(admin.totalItems);
    for (const id of [ids.cp, ids.cpOfAccount]) {
      expect((await call('GET', `/machines/${id}`, 'operator')).statusCode).toBe(404);
      expect((await call('POST', `/machines/${id}/start`, 'operator')).statusCode).toBe(404);
      expect((await call('GET', `/machines/${id}/tasks`, 'operator')).statusCode).toBe(404);
      expect((await call('GET', `/machines/${id}`, 'admin')).statusCode).toBe(200);
    }
    expect((await call('GET', `/accounts/${ids.cpAccount}/machines`, 'operator')).statusCode).toBe(404);
    const mf = { search: 'mf-', limit: '500' };
    const lookup = await ok<TMachineLookup[]>('GET', '/lookup/machines', 'operator', undefined, mf);
    expect(lookup.map((m) => m.id)).not.toContain(ids.cp);
    expect(lookup.find((m) => m.id === ids.plain)).toEqual({ id: ids.plain, name: 'mf-launcher', className: 'Internal Testing' });
    expect((await ok<TMachineLookup[]>('GET', '/lookup/machines', 'admin', undefined, mf)).map((m) => m.id)).toContain(ids.cp);
    // Nor by id: the selector's label lookup answers nothing for a hidden machine.
    expect(await ok<TMachineLookup[]>('GET', '/lookup/machines', 'operator', undefined, { ids: `${ids.cp},${ids.cpOfAccount}` })).toEqual([]);
    expect((await ok<TMachineLookup[]>('GET', '/lookup/machines', 'admin', undefined, { ids: String(ids.cp) })).map((m) => m.id)).toEqual([ids.cp]);
  });

  it('looks machines up by name (substring, any case, wildcards literal), by ids, at most limit, by name then id', async () => {
    const lookup = (query: Record<string, string>, as = 'admin') => ok<TMachineLookup[]>('GET', '/lookup/machines', as, undefined, query);
    const names = (rows: TMachineLookup[]) => rows.map((m) => m.name);
    expect(names(await lookup({ search: '  MF-P ' }))).toEqual(['mf-panic']);
    expect(names(await lookup({ search: 'F-L' }))).toEqual(['mf-launcher']);
    expect(names(await lookup({ search: 'mf-', limit: '500' }))).toEqual(['mf-launcher', 'mf-moved-to-production', 'mf-panic', 'mf-site']);
    // `%` and `_` are literal characters, not LIKE wildcards.
    expect(await lookup({ search: 'mf%' })).toEqual([]);
    expect(await lookup({ search: 'm_-' })).toEqual([]);
    expect(names(await lookup({ search: 'mf-', limit: '2' }))).toEqual(['mf-launcher', 'mf-moved-to-production']);
    // A blank search is none: the first page of the whole fleet, by name then id, 50 by default.
    const first = await lookup({ search: '   ' });
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThanOrEqual(MACHINE_LOOKUP_DEFAULT_LIMIT);
    expect(new Set(first.map((m) => m.id)).size).toBe(first.length);
    expect((await lookup({})).length).toBe(first.length);
    expect(await lookup({ limit: '1' })).toEqual(first.slice(0, 1));
    const byIds = await lookup({ ids: `${ids.panicked}, ${ids.plain},99999999` });
    expect(byIds).toEqual([
      { id: ids.plain, name: 'mf-launcher', className: 'Internal Testing' },
      { id: ids.panicked, name: 'mf-panic', className: 'Internal Testing' },
    ]);
    expect(names(await lookup({ ids: `${ids.panicked},${ids.plain}`, search: 'panic' }))).toEqual(['mf-panic']);
  });

  it('answers 400 for a malformed machine lookup query', async () => {
    const malformed: Record<string, string>[] = [
      { limit: '0' },
      { limit: String(MACHINE_LOOKUP_MAX_LIMIT + 1) },
      { limit: 'many' },
      { ids: 'a,b' },
      { ids: '0' },
      { ids: Array.from({ length: MACHINE_LOOKUP_IDS_MAX + 1 }, (_, i) => i + 1).join(',') },
      { search: 'x'.repeat(MACHINE_LOOKUP_SEARCH_MAX + 1) },
    ];
    for (const query of malformed) {
      const res = await call('GET', '/lookup/machines', 'operator', undefined, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });

  it('answers 404 for an unknown machine and 400 naming a malformed id or query', async () => {
    expect((await call('GET', '/machines/99999999', 'viewer')).statusCode).toBe(404);
    const bad = await call('GET', '/machines/abc', 'viewer');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('id');
    const badQuery = await call('GET', '/machines', 'viewer', undefined, { accountId: 'x' });
    expect(badQuery.json().errors[0].propertyName).toBe('accountId');
    expect((await call('GET', '/machines/stats', 'viewer')).statusCode).toBe(200);
  });

  it('lists the machines of one account', async () => {
    const { items } = await ok<{ items: TMachine[]; totalItems: number }>('GET', `/accounts/${ids.account}/machines`, 'operator');
    expect(items.map((m) => m.id)).toEqual([ids.plain, ids.panicked, ids.stopped]);
  });
});

describe('lifecycle actions queue a task and set the flags of spec 2 §4', () => {
  it('start clears stop and idle, queues StartMachine New, audits it, announces it', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.stopped}/start`);
    expect(task).toMatchObject({ machineId: ids.stopped, accountId: ids.account, type: 'StartMachine', status: 'New', progress: 0, description: 'Start machine mf-site', startedAt: null, completedAt: null, error: null });
    expect(await machineRow(ids.stopped)).toMatchObject({ stop: false, idle: false });
    const activity = await lastActivity('StartMachine');
    expect(activity).toMatchObject({
      user: 'operator',
      accounts: [{ id: ids.account, name: 'Machines Fixture' }],
      metadata: { params: { machineId: ids.stopped, taskId: task.id }, changes: [{ entityName: 'Machine', propertyName: 'stop', oldValue: true, newValue: false }] },
    });
    expect(events.find((e) => e.task.id === task.id)).toMatchObject({ name: 'TaskQueued', classIds: [2, 2] });
    const machine = await ok<TMachine>('GET', `/machines/${ids.stopped}`);
    expect(machine.tasks[0]).toMatchObject({ id: task.id, status: 'New' });
  });

  it('stop sets stop; start of an idle machine clears idle', async () => {
    await ok('POST', `/machines/${ids.plain}/stop`);
    expect((await machineRow(ids.plain)).stop).toBe(true);
    await ok('POST', `/machines/${ids.plain}/start`);
    expect(await machineRow(ids.plain)).toMatchObject({ stop: false, idle: false });
    expect((await lastActivity('StartMachine')).metadata.changes.map((c) => c.propertyName)).toEqual(['stop', 'idle']);
  });

  it('recreate and terminate set the terminate marker; a terminating machine takes no new task (409)', async () => {
    const recreate = await ok<TTask>('POST', `/machines/${ids.panicked}/recreate`);
    expect(recreate.type).toBe('RecreateMachine');
    expect((await machineRow(ids.panicked)).terminate).toBe(true);
    const terminate = await ok<TTask>('POST', `/machines/${ids.panicked}/terminate`);
    expect(terminate).toMatchObject({ type: 'TerminateMachine', status: 'New' });
    expect((await lastActivity('TerminateMachine')).metadata.params).toMatchObject({ machineId: ids.panicked, taskId: terminate.id });
    for (const action of ['start', 'stop', 'terminate', 'recreate']) {
      const res = await call('POST', `/machines/${ids.panicked}/${action}`);
      expect(res.statusCode, action).toBe(409);
      expect(res.json().detail).toBe('Machine mf-panic is being terminated');
    }
    expect((await call('POST', `/machines/${ids.panicked}/change-instance-type`, 'operator', { instanceTypeId: 4 })).statusCode).toBe(409);
  });

  it('reset failure state clears needsAdmin and sets failCounter 0, audited', async () => {
    const machine = await ok<TMachine>('POST', `/machines/${ids.panicked}/reset-failure-state`);
    expect(machine).toMatchObject({ needsAdmin: false, failCounter: 0 });
    expect((await lastActivity('ResetFailureState')).metadata.changes).toEqual([
      { entityName: 'Machine', propertyName: 'needsAdmin', oldValue: true, newValue: false },
      { entityName: 'Machine', propertyName: 'failCounter', oldValue: 4, newValue: 0 },
    ]);
  });
});

describe('POST /machines/{id}/change-instance-type', () => {
  it('queues ChangeInstanceType with the type in its description, audited', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.stopped}/change-instance-type`, 'operator', { instanceTypeId: 5 });
    expect(task).toMatchObject({ type: 'ChangeInstanceType', status: 'New', description: 'Change instance type of mf-site to m5.xlarge' });
    expect((await lastActivity('ChangeInstanceType')).metadata.changes).toEqual([
      { entityName: 'Machine', propertyName: 'instanceTypeId', oldValue: 3, newValue: 5 },
    ]);
  });

  it.each([
    [{}, 'instanceTypeId', 400],
    [{ instanceTypeId: 'big' }, 'instanceTypeId', 400],
    [{ instanceTypeId: 999 }, 'instanceTypeId', 400],
    [{ instanceTypeId: 20 }, 'instanceTypeId', 400],
  ])('answers 400 naming the field for %o', async (body, field, status) => {
    const res = await call('POST', `/machines/${ids.stopped}/change-instance-type`, 'operator', body);
    expect(res.statusCode).toBe(status);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('answers 422 when the type is unchanged', async () => {
    const res = await call('POST', `/machines/${ids.stopped}/change-instance-type`, 'operator', { instanceTypeId: 3 });
    expect(res.statusCode).toBe(422);
  });
});

describe('PATCH /accounts/{id}/machines/{machineId}', () => {
  const patch = (body: unknown, as = 'operator', accountId = ids.account, machineId = ids.stopped) =>
    call('PATCH', `/accounts/${accountId}/machines/${machineId}`, as, body);

  it.each(['managed', 'manualMaintenance', 'turbo', 'runSmokeTest', 'overseeTermination'] as const)('toggles %s with a field-level audit', async (flag) => {
    const before = (await machineRow(ids.stopped))[flag];
    const res = await patch({ [flag]: !before });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TMachine)[flag]).toBe(!before);
    const activity = await lastActivity('UpdateMachine');
    expect(activity.metadata.changes).toEqual([{ entityName: 'Machine', propertyName: flag, oldValue: before, newValue: !before }]);
    expect((await patch({ [flag]: before })).statusCode).toBe(200);
  });

  it('switches class and sample data', async () => {
    const res = await patch({ classId: 3, sampleData: 'Select', sampleDataFile: 'campus-demo.zip' });
    expect(res.json()).toMatchObject({ classId: 3, className: 'Internal Production', sampleData: 'Select', sampleDataFile: 'campus-demo.zip' });
    const none = await patch({ sampleData: 'None' });
    expect(none.json()).toMatchObject({ sampleData: 'None', sampleDataFile: null });
    await patch({ classId: 2 });
  });

  it('refuses to move a machine into Customer Production without the group (403); admin may', async () => {
    expect((await patch({ classId: 5 })).statusCode).toBe(403);
    expect((await patch({ classId: 5 }, 'admin')).statusCode).toBe(200);
    expect((await patch({ classId: 2 }, 'admin')).statusCode).toBe(200);
  });

  it.each([
    [{}, 'body'],
    [{ managed: 'yes' }, 'managed'],
    [{ classId: 200 }, 'classId'],
    [{ classId: 42 }, 'classId'],
    [{ sampleData: 'Everything' }, 'sampleData'],
    [{ sampleData: 'Select', sampleDataFile: null }, 'sampleDataFile'],
  ])('answers 400 naming the field for %o', async (body, field) => {
    const res = await patch(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('answers 404 for a machine of another account, or hidden', async () => {
    expect((await patch({ turbo: true }, 'operator', ids.policy)).statusCode).toBe(404);
    expect((await patch({ turbo: true }, 'operator', ids.account, ids.cp)).statusCode).toBe(404);
  });
});

describe('creatable and new machines', () => {
  it('lists the launcher and one site master per site of an InstancePerSiteMaster account', async () => {
    const list = await ok<unknown[]>('GET', `/accounts/${ids.policy}/creatable-machines`);
    expect(list).toEqual([
      { name: 'policyfix-launcher', isLauncher: true, isSiteMaster: false, siteId: null, siteName: null },
      { name: 'policyfix-site-a', isLauncher: false, isSiteMaster: true, siteId: ids.siteA, siteName: 'Site A' },
      { name: 'policyfix-site-b', isLauncher: false, isSiteMaster: true, siteId: ids.siteB, siteName: 'Site B' },
    ]);
    expect(await ok('GET', `/accounts/${ids.addOn}/creatable-machines`)).toEqual([]);
  });

  it('creates a site master with its config and queues CreateMachine; it is no longer creatable (409)', async () => {
    const body = { isLauncher: false, siteId: ids.siteB, accountId: ids.policy };
    const { machine, task } = await ok<{ machine: TMachine; task: TTask }>('POST', `/accounts/${ids.policy}/machines`, 'operator', body);
    expect(machine).toMatchObject({ name: 'policyfix-site-b', classId: 1, isSiteMaster: true, isLauncher: false, siteId: ids.siteB, siteName: 'Site B', instance: null, siteMasterUrl: 'http://site-b-policyfix.fleet.example.net:8443' });
    expect(machine.cloudInstanceType).toMatchObject({ id: 2 });
    // Its component configuration is the catalogue's defaults for it.
    expect(machine.config.componentConfig).toMatchObject({ 'siteMaster.siteName': 'Site B', 'siteMaster.port': 8443, 'rabbitMq.virtualHost': 'policyfix' });
    expect(Object.keys(machine.config.componentConfig).some((k) => k.startsWith('launcher.'))).toBe(false);
    expect(task).toMatchObject({ type: 'CreateMachine', status: 'New', machineId: machine.id, description: 'Create machine policyfix-site-b' });
    expect((await lastActivity('CreateMachine')).metadata.params).toMatchObject({ machineId: machine.id, siteId: ids.siteB });
    const again = await call('POST', `/accounts/${ids.policy}/machines`, 'operator', body);
    expect(again.statusCode).toBe(409);
    const list = await ok<{ name: string }[]>('GET', `/accounts/${ids.policy}/creatable-machines`);
    expect(list.map((c) => c.name)).toEqual(['policyfix-launcher', 'policyfix-site-a']);
  });

  it.each([
    [{ isLauncher: true, siteId: null, accountId: 1 }, 'accountId'],
    [{ isLauncher: 'no', siteId: null }, 'isLauncher'],
    [{ isLauncher: false, siteId: 999999 }, 'siteId'],
  ])('answers 400 naming the field for %o', async (body, field) => {
    const res = await call('POST', `/accounts/${ids.policy}/machines`, 'operator', { accountId: ids.policy, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('creates nothing for an add-on account (409)', async () => {
    const res = await call('POST', `/accounts/${ids.addOn}/machines`, 'operator', { isLauncher: true, siteId: null, accountId: ids.addOn });
    expect(res.statusCode).toBe(409);
  });
});

describe('tasks and cancelling', () => {
  it('lists a machine tasks newest first, paged', async () => {
    const page = await ok<{ items: TTask[]; totalItems: number }>('GET', `/machines/${ids.plain}/tasks`, 'viewer');
    expect(page.totalItems).toBe(2);
    expect(page.items.map((x) => x.type)).toEqual(['StartMachine', 'StopMachine']);
  });

  it('cancels a New task, audited and announced; any other status is 409', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.plain}/stop`);
    const cancelled = await ok<TTask>('POST', `/machines/${ids.plain}/tasks/${task.id}/cancel`);
    expect(cancelled).toMatchObject({ id: task.id, status: 'Cancelled' });
    expect(cancelled.completedAt).not.toBeNull();
    expect((await lastActivity('CancelTask')).metadata.params).toMatchObject({ taskId: task.id, type: 'StopMachine' });
    expect(events.find((e) => e.task.id === task.id && e.name === 'TaskFinished')?.task.status).toBe('Cancelled');
    const again = await call('POST', `/machines/${ids.plain}/tasks/${task.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`Task ${task.id} is Cancelled; only a New task can be cancelled`);

    for (const status of ['Running', 'Completed', 'Failed']) {
      const other = await ok<TTask>('POST', `/machines/${ids.plain}/start`);
      await t.database.db.update(machineTasks).set({ status }).where(eq(machineTasks.id, other.id));
      expect((await call('POST', `/machines/${ids.plain}/tasks/${other.id}/cancel`)).statusCode, status).toBe(409);
      await t.database.db.update(machineTasks).set({ status: 'Failed' }).where(eq(machineTasks.id, other.id));
    }
  });

  it('answers 404 for a task of another machine or an unknown one', async () => {
    const [foreign] = await t.database.db.select().from(machineTasks).where(eq(machineTasks.machineId, ids.stopped)).limit(1);
    expect((await call('POST', `/machines/${ids.plain}/tasks/${foreign!.id}/cancel`)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/tasks/99999999/cancel`)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/tasks/x/cancel`)).json().errors[0].propertyName).toBe('taskId');
  });
});

describe('notifications', () => {
  it('queues one pending message per target machine and audits it', async () => {
    const res = await ok<{ queued: number }>('POST', '/notification/send', 'operator', {
      machines: [ids.plain],
      accounts: [ids.account],
      title: 'Maintenance tonight',
      body: 'The site will restart at 22:00 UTC.',
    });
    expect(res.queued).toBe(3);
    const page = await ok<{ items: { machine: { id: number }; title: string; priority: string }[]; totalItems: number }>('GET', '/notification/messages', 'viewer');
    expect(page.totalItems).toBe(3);
    expect(page.items[0]).toMatchObject({ title: 'Maintenance tonight', priority: 'Medium' });
    expect(page.items.map((m) => m.machine.id).sort()).toEqual([ids.plain, ids.stopped, ids.panicked].sort());
    expect((await lastActivity('SendNotification')).metadata.params).toMatchObject({ title: 'Maintenance tonight', priority: 'Medium' });
    // The Customer Production machine of the account was not targeted for the operator.
    expect(page.items.map((m) => m.machine.id)).not.toContain(ids.cp);
  });

  it.each([
    [{ title: 'x', body: 'y' }, 'machines'],
    [{ machines: [1], title: ' ', body: 'y' }, 'title'],
    [{ machines: [1], title: 'x', body: '' }, 'body'],
    [{ machines: [1], title: 'x', body: 'y', priority: 'Urgent' }, 'priority'],
  ])('answers 400 naming the field for %o', async (body, field) => {
    const res = await call('POST', '/notification/send', 'operator', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('refuses targets the user may not see (400 naming machines)', async () => {
    const res = await call('POST', '/notification/send', 'operator', { machines: [ids.cp], title: 'x', body: 'y' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ propertyName: 'machines', attemptedValue: [ids.cp] });
  });
});

describe('GET /machines/{id}/credential', () => {
  it('answers the decrypted credential to a writer and audits each read', async () => {
    const box = createSecretBox(TEST_DATA_KEY);
    await upsertCredential(t.database.db, ids.plain, { rdpPasswordEnc: box.seal('Rdp-Secret-1'), sshPrivateKeyEnc: box.seal('-----BEGIN RSA PRIVATE KEY-----\nabc') });
    const credential = await ok<{ rdpPassword: string; sshPrivateKey: string }>('GET', `/machines/${ids.plain}/credential`);
    expect(credential).toEqual({ rdpPassword: 'Rdp-Secret-1', sshPrivateKey: '-----BEGIN RSA PRIVATE KEY-----\nabc' });
    expect(await lastActivity('ViewCredential')).toMatchObject({ user: 'operator', metadata: { params: { machineId: ids.plain } } });
  });

  it('answers 404 Credentials not found without one, 404 when hidden, 403 to a viewer', async () => {
    const none = await call('GET', `/machines/${ids.stopped}/credential`);
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe('Credentials not found for machine mf-site');
    expect((await call('GET', `/machines/${ids.cp}/credential`)).statusCode).toBe(404);
    expect((await call('GET', `/machines/${ids.plain}/credential`, 'viewer')).statusCode).toBe(403);
  });
});

describe('viewer', () => {
  it('gets 403 on every machine mutation and changes nothing', async () => {
    const before = await t.database.db.select().from(machineTasks);
    const calls: [string, string, unknown][] = [
      ['POST', `/machines/${ids.plain}/start`, undefined],
      ['POST', `/machines/${ids.plain}/stop`, undefined],
      ['POST', `/machines/${ids.plain}/terminate`, undefined],
      ['POST', `/machines/${ids.plain}/recreate`, undefined],
      ['POST', `/machines/${ids.plain}/reset-failure-state`, undefined],
      ['POST', `/machines/${ids.plain}/change-instance-type`, { instanceTypeId: 4 }],
      ['POST', `/machines/${ids.plain}/tasks/${before[0]!.id}/cancel`, undefined],
      ['POST', `/accounts/${ids.policy}/machines`, { isLauncher: true, siteId: null, accountId: ids.policy }],
      ['PATCH', `/accounts/${ids.account}/machines/${ids.plain}`, { turbo: true }],
      ['POST', '/notification/send', { machines: [ids.plain], title: 'x', body: 'y' }],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(method as 'POST', url, 'viewer', body)).statusCode, url).toBe(403);
    }
    expect(await t.database.db.select().from(machineTasks)).toEqual(before);
    expect((await machineRow(ids.plain)).turbo).toBe(false);
  });
});

describe('deleted accounts', () => {
  it('their machines leave the lists once the account is deleted', async () => {
    const gone = await insertAccount(t.database.db, { name: 'Soon Gone', classId: 1 });
    const m = await insertMachine(t.database.db, { accountId: gone.id });
    expect((await t.call({ method: 'DELETE', url: `/accounts/${gone.id}`, as: 'admin' })).statusCode).toBe(200);
    expect((await call('GET', `/machines/${m.id}`, 'admin')).statusCode).toBe(404);
    const [task] = await t.database.db
      .select()
      .from(machineTasks)
      .where(and(eq(machineTasks.machineId, m.id), eq(machineTasks.type, 'TerminateMachine')));
    expect(task!.status).toBe('New');
    expect((await t.database.db.select().from(accounts).where(eq(accounts.id, gone.id)))[0]!.deletedAt).not.toBeNull();
  });
});
