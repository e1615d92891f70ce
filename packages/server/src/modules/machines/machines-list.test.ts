/**
 * The machine lists and lookups against a real PostgreSQL, without the task
 * engine (spec 2 §2.2, §3 Machine, §7 Machines; DESIGN §5): `GET /machines`
 * paged, by account and by id, by classes and name (the Updater's filter), each machine's fields, unfinished tasks and
 * operations, the demo fleet, Customer Production hidden without the group,
 * the machine lookup, validation of ids and queries, and the machines of a
 * deleted account. The fixture is `test/machine-fixtures.ts`; the calls that
 * change machines are in `machines.test.ts`, creating them in
 * `machines-create.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  CLASS_CUSTOMER_PRODUCTION,
  MACHINE_LOOKUP_DEFAULT_LIMIT,
  MACHINE_LOOKUP_IDS_MAX,
  MACHINE_LOOKUP_MAX_LIMIT,
  MACHINE_LOOKUP_SEARCH_MAX,
  MACHINE_UNFINISHED_OPERATIONS,
  MACHINE_UNFINISHED_TASKS,
  type TMachine,
  type TMachineLookup,
  type TTask,
} from '@fleet/contracts';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { call, cloudId, ids, machineRow, ok, t, useMachineFixture } from '../../../test/machine-fixtures.js';
import { accounts, machineTasks, operations, operationTypes } from '../../db/schema.js';

useMachineFixture();

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

  it('answers lists asked at once alike, and a list asked after a change with the change (their reads shared: lib/coalesce.ts, whose test holds a read in flight)', async () => {
    const list = () => ok<{ items: TMachine[] }>('GET', '/machines', 'operator', undefined, { accountId: String(ids.account) });
    const turbo = (page: { items: TMachine[] }) => page.items.find((m) => m.id === ids.stopped)!.turbo;
    const before = (await machineRow(ids.stopped)).turbo;
    const during = Array.from({ length: 10 }, list);
    const changed = await call('PATCH', `/accounts/${ids.account}/machines/${ids.stopped}`, 'operator', { turbo: !before });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await Promise.all(Array.from({ length: 5 }, list));
    expect(after.map(turbo)).toEqual(Array(5).fill(!before));
    const machineIds = (page: { items: TMachine[] }) => page.items.map((m) => m.id);
    for (const page of await Promise.all(during)) expect(machineIds(page)).toEqual(machineIds(after[0]!));
    expect((await call('PATCH', `/accounts/${ids.account}/machines/${ids.stopped}`, 'operator', { turbo: before })).statusCode).toBe(200);
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

  it("narrows by classIds and a name search as the Updater's machine filter does (GET /updater/machines), with an exact total", async () => {
    type Page = { items: TMachine[]; totalItems: number; totalCapped: boolean };
    const list = (query: Record<string, string>, as = 'admin') => ok<Page>('GET', '/machines', as, undefined, { limit: '500', ...query });
    const names = (page: Page) => page.items.map((m) => m.name).sort();
    expect(names(await list({ search: '  MF-' }))).toEqual(['mf-launcher', 'mf-moved-to-production', 'mf-panic', 'mf-site']);
    expect(names(await list({ search: 'mf-', classIds: '2' }))).toEqual(['mf-launcher', 'mf-panic', 'mf-site']);
    expect(names(await list({ search: 'mf-', classIds: '1,5' }))).toEqual(['mf-moved-to-production']);
    // Customer Production stays hidden without the group; `%` and `_` are literal.
    expect(names(await list({ search: 'mf-', classIds: '2,5' }, 'operator'))).toEqual(['mf-launcher', 'mf-panic', 'mf-site']);
    expect((await list({ search: 'mf%' })).items).toEqual([]);
    expect((await list({ search: 'm_-' })).items).toEqual([]);
    // The same matches and the same exact total as the Updater's list of the filter; a page of one still counts them all.
    const filters: Record<string, string>[] = [{ search: 'mf-', classIds: '2' }, { classIds: '1' }, { search: 'launcher' }];
    for (const query of filters) {
      const panel = await list(query);
      const updater = await ok<{ items: { id: number }[]; totalItems: number }>('GET', '/updater/machines', 'admin', undefined, { limit: '500', ...query });
      expect(panel.items.map((m) => m.id).sort()).toEqual(updater.items.map((m) => m.id).sort());
      expect(panel.totalItems).toBe(updater.totalItems);
      expect(panel.totalItems).toBeGreaterThan(0);
      expect(panel.totalItems).toBeLessThan(500);
      const one = await list({ ...query, limit: '1' });
      expect(one).toMatchObject({ totalItems: updater.totalItems, totalCapped: false });
    }
    expect((await call('GET', '/machines', 'viewer', undefined, { classIds: '2,x' })).statusCode).toBe(400);
    expect((await call('GET', '/machines', 'viewer', undefined, { search: 'x'.repeat(201) })).statusCode).toBe(400);
  });

  it('sorts by name either way (the Machines viewer, issue 24 point 7), pages the same order, and refuses an unknown sort or order', async () => {
    type Page = { items: TMachine[]; totalItems: number; totalCapped: boolean };
    const list = (query: Record<string, string>) => ok<Page>('GET', '/machines', 'operator', undefined, query);
    const byName = (a: TMachine, b: TMachine) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);
    const all = (await list({ limit: '500', sort: 'name' })).items;
    expect(all.length).toBeGreaterThan(3);
    expect(all).toEqual([...all].sort(byName));
    expect(all.some((m) => m.classId === CLASS_CUSTOMER_PRODUCTION)).toBe(false);
    const desc = (await list({ limit: '500', sort: 'name', order: 'desc' })).items;
    expect(desc.map((m) => m.id)).toEqual(all.map((m) => m.id).reverse());
    // A second page continues the first; a filter keeps the order.
    const second = await list({ limit: '2', startIndex: '2', sort: 'name' });
    expect(second.items.map((m) => m.id)).toEqual(all.slice(2, 4).map((m) => m.id));
    const ofClass = (await list({ limit: '500', sort: 'name', classId: '2' })).items;
    expect(ofClass.map((m) => m.id)).toEqual(all.filter((m) => m.classId === 2).map((m) => m.id));
    for (const query of [{ sort: 'class' }, { sort: 'name', order: 'up' }] as Record<string, string>[]) {
      const res = await call('GET', '/machines', 'operator', undefined, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.json())).toContain(Object.keys(query).at(-1));
    }
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
