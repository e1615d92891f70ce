/**
 * The read calls of operations through the real app on a real PostgreSQL: a
 * machine's operations, the Operations viewer's list (filters, paging, newest
 * first, the capped total, Customer Production hidden), the logs, the types
 * Queue Operations offers and the simulated site server status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { TOperation, TOperationsPage, TOperationType, TQueuedOperationsResponse, TSiteServerStatus } from '@fleet/contracts';
import { OPERATIONS_COUNT_AHEAD } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { machines, operations } from '../../db/schema.js';
import { createSimulatedCloud } from '../../engine/cloud/simulated.js';
import { siteServerStatus } from './site-server-status.js';

let t: TestApp;
const ids = { account: 0, other: 0, cpAccount: 0, a: 0, b: 0, cp: 0, onPrem: 0, running: 0, many: 0 };
/** Operations queued on a, b and cp in this order: [a Backup, a SmokeTest, b ApplyConfig, cp SmokeTest]. */
const queuedIds: number[] = [];

const call = (url: string, as = 'operator', query?: Record<string, string>) => t.call({ method: 'GET', url, as, query });
const ok = async <T>(url: string, as = 'operator', query?: Record<string, string>) => {
  const res = await call(url, as, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const queue = async (machineId: number, names: string[], as = 'operator') => {
  const res = await t.call({ method: 'POST', url: `/machines/${machineId}/queue-operations`, as, body: { operations: names } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TQueuedOperationsResponse).operations;
};

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  ids.account = (await insertAccount(db, { name: 'Ops Read', classId: 2 })).id;
  ids.other = (await insertAccount(db, { name: 'Ops Read Other', classId: 1 })).id;
  ids.cpAccount = (await insertAccount(db, { name: 'Ops Read Production', classId: 5 })).id;
  ids.a = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'read-a' })).id;
  ids.b = (await insertMachine(db, { accountId: ids.other, classId: 1, name: 'read-b' })).id;
  ids.cp = (await insertMachine(db, { accountId: ids.cpAccount, classId: 5, name: 'read-cp' })).id;
  ids.onPrem = (await insertMachine(db, { accountId: ids.account, classId: 6, name: 'read-onprem' })).id;
  ids.running = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'read-running' })).id;
  ids.many = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'read-many' })).id;
  queuedIds.push(...(await queue(ids.a, ['Backup', 'SmokeTest'])).map((o) => o.id));
  queuedIds.push(...(await queue(ids.b, ['ApplyConfig'])).map((o) => o.id));
  queuedIds.push(...(await queue(ids.cp, ['SmokeTest'], 'admin')).map((o) => o.id));
  await db.update(operations).set({ status: 'SUCCESS', startedAt: new Date(Date.now() - 5000), finishedAt: new Date(), output: 'line 1\nline 2\n', deployerLog: 'deploy\n' }).where(eq(operations.id, queuedIds[0]!));
  await db.update(operations).set({ status: 'RUNNING', startedAt: new Date() }).where(eq(operations.id, queuedIds[1]!));
  await db.update(operations).set({ pending: true }).where(eq(operations.id, queuedIds[2]!));
  const cloud = createSimulatedCloud({ db, delayMs: 0 });
  await cloud.describe((await cloud.launch({ machineId: ids.running, region: 'eu-west-1', instanceTypeId: 2, clientToken: 'ops-read-running' })).cloudId);
});
afterAll(() => t.close());

const page = (query: Record<string, string>, as = 'operator') => ok<TOperationsPage>('/operations', as, query);
const ours = (p: TOperationsPage) => p.items.map((o) => o.id).filter((id) => queuedIds.includes(id));

describe('GET /machines/{id}/operations', () => {
  it('answers the machine operations newest first, paged, with the total', async () => {
    const all = await ok<{ items: TOperation[]; totalItems: number }>(`/machines/${ids.a}/operations`);
    expect(all.totalItems).toBe(2);
    expect(all.items.map((o) => o.id)).toEqual([queuedIds[1], queuedIds[0]]);
    expect(all.items[1]).toMatchObject({ status: 'SUCCESS', machineName: 'read-a', machineClassName: 'Internal Testing', type: { name: 'Backup' } });
    expect(all.items[1]!.runningTime).toBeGreaterThan(4);
    const second = await ok<{ items: TOperation[]; totalItems: number }>(`/machines/${ids.a}/operations`, 'viewer', { startIndex: '1', limit: '1' });
    expect(second).toMatchObject({ totalItems: 2, items: [{ id: queuedIds[0] }] });
  });

  it('answers 404 for a hidden or unknown machine and 400 for a bad page', async () => {
    expect((await call(`/machines/${ids.cp}/operations`)).statusCode).toBe(404);
    expect((await call(`/machines/2000000000/operations`)).statusCode).toBe(404);
    expect((await call(`/machines/${ids.a}/operations`, 'operator', { limit: '0' })).json().errors[0].propertyName).toBe('limit');
  });
});

describe('GET /operations', () => {
  it('answers visible operations newest first; Customer Production only with the group', async () => {
    const operator = await page({ limit: '300' });
    expect(ours(operator)).toEqual([queuedIds[2], queuedIds[1], queuedIds[0]]);
    expect(operator.totalCapped).toBe(false);
    expect(operator.totalItems).toBe(operator.items.length);
    expect(ours(await page({ limit: '300' }, 'admin'))).toEqual([queuedIds[3], queuedIds[2], queuedIds[1], queuedIds[0]]);
    const newestFirst = operator.items.map((o) => o.id);
    expect(newestFirst).toEqual([...newestFirst].sort((x, y) => y - x));
  });

  it('filters by machine, account, status, type and pending', async () => {
    expect(ours(await page({ machineId: String(ids.a) }))).toEqual([queuedIds[1], queuedIds[0]]);
    expect((await page({ accountId: String(ids.other) })).items.map((o) => o.id)).toEqual([queuedIds[2]]);
    expect(ours(await page({ status: 'RUNNING,SUCCESS', machineId: String(ids.a) }))).toEqual([queuedIds[1], queuedIds[0]]);
    expect((await page({ status: 'SUCCESS', accountId: String(ids.account) })).items.map((o) => o.id)).toEqual([queuedIds[0]]);
    expect(ours(await page({ type: 'SmokeTest' }, 'admin'))).toEqual([queuedIds[3], queuedIds[1]]);
    expect(ours(await page({ pending: 'true' }))).toEqual([queuedIds[2]]);
    expect(ours(await page({ pending: 'false', machineId: String(ids.a) }))).toEqual([queuedIds[1], queuedIds[0]]);
  });

  it('finds nothing for a hidden machine or account, as for an unknown one', async () => {
    for (const q of [{ machineId: String(ids.cp) }, { accountId: String(ids.cpAccount) }, { machineId: '2000000000' }] as Record<string, string>[]) {
      expect(await page(q)).toEqual({ items: [], totalItems: 0, totalCapped: false });
    }
    expect((await page({ machineId: String(ids.cp) }, 'admin')).totalItems).toBe(1);
  });

  it('pages, counting at most OPERATIONS_COUNT_AHEAD rows past the page (totalCapped)', async () => {
    const [type] = await t.database.db.execute<{ id: number }>(sql`select id from operation_types where machine_class_id = 2 and name = 'SmokeTest'`).then((r) => r.rows);
    const n = OPERATIONS_COUNT_AHEAD + 30;
    await t.database.db.execute(sql`
      insert into operations (machine_id, account_id, class_id, type_id, type_name, user_name, timeout_seconds, operation_mode, status, finished_at)
      select ${ids.many}, ${ids.account}, 2, ${type!.id}, 'SmokeTest', 'fixture', 600, 1, 'SUCCESS', now() from generate_series(1, ${n})`);
    const first = await page({ machineId: String(ids.many), limit: '10' });
    expect(first).toMatchObject({ totalItems: OPERATIONS_COUNT_AHEAD + 10, totalCapped: true });
    // The capped total stays while paging through the first OPERATIONS_COUNT_AHEAD rows, then moves on.
    const next = await page({ machineId: String(ids.many), limit: '10', startIndex: '30' });
    expect(next).toMatchObject({ totalItems: OPERATIONS_COUNT_AHEAD + 10, totalCapped: true });
    expect(next.items).toHaveLength(10);
    expect(next.items[0]!.id).toBe(first.items[0]!.id - 30);
    const near = await page({ machineId: String(ids.many), limit: '10', startIndex: String(OPERATIONS_COUNT_AHEAD) });
    expect(near).toMatchObject({ totalItems: n, totalCapped: false });
    const machine = await ok<{ totalItems: number }>(`/machines/${ids.many}/operations`);
    expect(machine.totalItems).toBe(n);
  });

  it.each([
    [{ limit: '301' }, 'limit'],
    [{ status: 'DONE' }, 'status'],
    [{ type: 'Explode' }, 'type'],
    [{ pending: 'yes' }, 'pending'],
    [{ machineId: '0' }, 'machineId'],
  ])('answers 400 for %o', async (query, field) => {
    const res = await call('/operations', 'operator', query);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });
});

describe('GET /operations/{id}/output and /deployer-log', () => {
  it('answers the logs so far, empty when none', async () => {
    expect(await ok(`/operations/${queuedIds[0]}/output`, 'viewer')).toEqual({ operationId: queuedIds[0], content: 'line 1\nline 2\n' });
    expect(await ok(`/operations/${queuedIds[0]}/deployer-log`)).toEqual({ operationId: queuedIds[0], content: 'deploy\n' });
    expect(await ok(`/operations/${queuedIds[2]}/output`)).toEqual({ operationId: queuedIds[2], content: '' });
  });

  it('answers 404 for an operation of a hidden machine or an unknown one', async () => {
    expect((await call(`/operations/${queuedIds[3]}/output`)).statusCode).toBe(404);
    expect((await call(`/operations/${queuedIds[3]}/deployer-log`)).statusCode).toBe(404);
    expect((await call(`/operations/${queuedIds[3]}/output`, 'admin')).statusCode).toBe(200);
    expect((await call('/operations/2000000000/output')).statusCode).toBe(404);
  });
});

describe('GET /machines/{id}/operation-types', () => {
  it("answers the class's types that can be manual, by name", async () => {
    const types = await ok<TOperationType[]>(`/machines/${ids.a}/operation-types`, 'viewer');
    expect(types.map((x) => x.name)).toEqual(['ApplyConfig', 'Backup', 'SmokeTest', 'UpdateSoftware']);
    expect(types.every((x) => x.canBeManual && x.machineClassId === 2 && x.timeout > 0)).toBe(true);
    expect((await ok<TOperationType[]>(`/machines/${ids.onPrem}/operation-types`)).map((x) => x.name)).toEqual(['Backup', 'SmokeTest']);
  });

  it('answers 404 for a hidden or unknown machine', async () => {
    expect((await call(`/machines/${ids.cp}/operation-types`)).statusCode).toBe(404);
    expect((await call(`/machines/2000000000/operation-types`)).statusCode).toBe(404);
  });
});

describe('site server status', () => {
  const all = (ok: boolean) => ({ diskSpaceOk: ok, interServerCommOk: ok, libraryImportOk: ok, mongoOk: ok, rabbitMqOk: ok });

  it('is Stopped with every flag false without a running instance, Running with every flag true otherwise', async () => {
    expect(await ok(`/machines/${ids.a}/site-server-status`, 'viewer')).toEqual({ status: 'Stopped', operational: false, ...all(false) });
    expect(await ok(`/machines/${ids.running}/site-server-status`)).toEqual({ status: 'Running', operational: true, ...all(true) });
  });

  it('is Degraded with the machine id mod 5 check false after a failed operation, and not operational in Panic', async () => {
    const [op] = await queue(ids.running, ['SmokeTest']);
    await t.database.db.update(operations).set({ status: 'FAILURE', finishedAt: new Date() }).where(eq(operations.id, op!.id));
    const degraded = await ok<TSiteServerStatus>(`/machines/${ids.running}/site-server-status`);
    expect(degraded).toEqual(siteServerStatus({ machineId: ids.running, needsAdmin: false, instanceStatus: 'running', lastFinishedStatus: 'FAILURE' }));
    expect(degraded.status).toBe('Degraded');
    expect(degraded.operational).toBe(true);
    expect(Object.entries(degraded).filter(([k, v]) => k.endsWith('Ok') && !v)).toHaveLength(1);
    await t.database.db.update(machines).set({ needsAdmin: true }).where(eq(machines.id, ids.running));
    expect(await ok(`/machines/${ids.running}/site-server-status`)).toMatchObject({ status: 'Degraded', operational: false });
    expect(await ok(`/machines/${ids.running}/site-server-status`)).toEqual(await ok(`/machines/${ids.running}/site-server-status`));
  });

  it('picks the failing check by machine id', () => {
    const failing = [0, 1, 2, 3, 4].map((machineId) => {
      const s = siteServerStatus({ machineId, needsAdmin: false, instanceStatus: 'running', lastFinishedStatus: 'FAILURE' });
      return Object.entries(s).filter(([, v]) => v === false).map(([k]) => k);
    });
    expect(failing).toEqual([['diskSpaceOk'], ['interServerCommOk'], ['libraryImportOk'], ['mongoOk'], ['rabbitMqOk']]);
  });

  it('answers 404 for a hidden or unknown machine', async () => {
    expect((await call(`/machines/${ids.cp}/site-server-status`)).statusCode).toBe(404);
    expect((await call(`/machines/2000000000/site-server-status`)).statusCode).toBe(404);
  });
});
