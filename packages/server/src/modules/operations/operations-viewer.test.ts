/**
 * The Operations viewer's filters and orders (issue 24 point 7) through the
 * real app on a real PostgreSQL: status with QUEUED and PENDING, class, the
 * queue time range, the orders by queue, start and finish time each way, and
 * the 400 answers naming every bad field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TOperationsPage, TQueuedOperationsResponse } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { operations } from '../../db/schema.js';

let t: TestApp;
let accountId = 0;
let cpAccountId = 0;
/** [0] SUCCESS on class 2, [1] FAILURE on class 1, [2] RUNNING on class 2, [3] PENDING on class 1, [4] QUEUED on class 2. */
const opIds: number[] = [];
const base = Date.parse('2026-01-10T12:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

const call = (query: Record<string, string>, as = 'operator') => t.call({ method: 'GET', url: '/operations', as, query });
const page = async (query: Record<string, string>, as = 'operator') => {
  const res = await call({ accountId: String(accountId), ...query }, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TOperationsPage;
};
const idx = (p: TOperationsPage) => p.items.map((o) => opIds.indexOf(o.id));

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  accountId = (await insertAccount(db, { name: 'Ops Viewer', classId: 2 })).id;
  cpAccountId = (await insertAccount(db, { name: 'Ops Viewer Production', classId: 5 })).id;
  const c2 = (await insertMachine(db, { accountId, classId: 2, name: 'viewer-c2' })).id;
  const c1 = (await insertMachine(db, { accountId, classId: 1, name: 'viewer-c1' })).id;
  const cp = (await insertMachine(db, { accountId: cpAccountId, classId: 5, name: 'viewer-cp' })).id;
  const queue = async (machineId: number, name: string) => {
    const res = await t.call({ method: 'POST', url: `/machines/${machineId}/queue-operations`, as: 'admin', body: { operations: [name] } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as TQueuedOperationsResponse).operations[0]!.id;
  };
  for (const [machineId, name] of [[c2, 'Backup'], [c1, 'SmokeTest'], [c2, 'SmokeTest'], [c1, 'ApplyConfig'], [c2, 'ApplyConfig']] as const) {
    opIds.push(await queue(machineId, name));
  }
  await queue(cp, 'SmokeTest');
  const set = (i: number, values: Partial<typeof operations.$inferInsert>) => db.update(operations).set(values).where(eq(operations.id, opIds[i]!));
  // Queued 10 minutes apart; started and finished out of queue order so that each order differs.
  for (let i = 0; i < 5; i++) await set(i, { queuedAt: at(i * 10) });
  await set(0, { status: 'SUCCESS', startedAt: at(30), finishedAt: at(45) });
  await set(1, { status: 'FAILURE', startedAt: at(12), finishedAt: at(50) });
  await set(2, { status: 'RUNNING', startedAt: at(21) });
  await set(3, { pending: true });
});
afterAll(() => t.close());

describe('GET /operations: the viewer filters', () => {
  it('filters by status, QUEUED and PENDING included', async () => {
    expect(idx(await page({ status: 'QUEUED' }))).toEqual([4]);
    expect(idx(await page({ status: 'PENDING' }))).toEqual([3]);
    expect(idx(await page({ status: 'QUEUED,PENDING,RUNNING' }))).toEqual([4, 3, 2]);
    expect(idx(await page({ status: 'SUCCESS,FAILURE' }))).toEqual([1, 0]);
    expect(await page({ status: 'QUEUED' })).toMatchObject({ totalItems: 1, totalCapped: false });
  });

  it('filters by class, type and the queue time range (inclusive)', async () => {
    expect(idx(await page({ classId: '1' }))).toEqual([3, 1]);
    expect(idx(await page({ classId: '2', type: 'SmokeTest' }))).toEqual([2]);
    expect(idx(await page({ from: at(10).toISOString(), to: at(30).toISOString() }))).toEqual([3, 2, 1]);
    expect(idx(await page({ from: '2026-01-10T13:10:00+01:00' }))).toEqual([4, 3, 2, 1]);
    expect(idx(await page({ to: at(5).toISOString() }))).toEqual([0]);
  });

  it('leaves out a hidden class as before: the operator finds nothing of Customer Production', async () => {
    const res = await call({ accountId: String(cpAccountId), classId: '5' });
    expect(res.json()).toEqual({ items: [], totalItems: 0, totalCapped: false });
    const admin = await t.call({ method: 'GET', url: '/operations', as: 'admin', query: { accountId: String(cpAccountId), classId: '5' } });
    expect((admin.json() as TOperationsPage).totalItems).toBe(1);
  });
});

describe('GET /operations: the orders', () => {
  it('orders by queue order, newest first by default, or oldest first', async () => {
    expect(idx(await page({}))).toEqual([4, 3, 2, 1, 0]);
    expect(idx(await page({ sort: 'queued', order: 'asc' }))).toEqual([0, 1, 2, 3, 4]);
  });

  it('orders by start time: not started first descending, last ascending', async () => {
    expect(idx(await page({ sort: 'started' }))).toEqual([4, 3, 0, 2, 1]);
    expect(idx(await page({ sort: 'started', order: 'asc' }))).toEqual([1, 2, 0, 3, 4]);
  });

  it('orders by finish time, and pages on in that order with the same total', async () => {
    expect(idx(await page({ sort: 'finished', order: 'asc' }))).toEqual([0, 1, 2, 3, 4]);
    expect(idx(await page({ sort: 'finished', order: 'desc', status: 'SUCCESS,FAILURE' }))).toEqual([1, 0]);
    const first = await page({ sort: 'started', order: 'asc', limit: '2' });
    const second = await page({ sort: 'started', order: 'asc', limit: '2', startIndex: '2' });
    expect([...idx(first), ...idx(second)]).toEqual([1, 2, 0, 3]);
    expect(second.totalItems).toBe(first.totalItems);
  });
});

describe('GET /operations: bad input and permissions', () => {
  it.each([
    [{ sort: 'name' }, ['sort']],
    [{ order: 'up' }, ['order']],
    [{ status: 'QUEUED,WAITING' }, ['status']],
    [{ classId: '0' }, ['classId']],
    [{ from: 'yesterday' }, ['from']],
    [{ from: '2026-01-10T12:00:00' }, ['from']],
    [{ from: '2026-01-10T12:00:00Z', to: '2026-01-09T12:00:00Z' }, ['to']],
    [{ sort: 'x', order: 'y', classId: 'z', to: 'w' }, ['sort', 'order', 'classId', 'to']],
  ])('answers 400 for %o naming every bad field', async (query, fields) => {
    const res = await call(query);
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual([...fields].sort());
  });

  it('answers 401 without a token, and the viewer role reads as before', async () => {
    expect((await t.call({ method: 'GET', url: '/operations', query: { sort: 'started' } })).statusCode).toBe(401);
    expect(idx(await page({ sort: 'started', classId: '1' }, 'viewer'))).toEqual([3, 1]);
  });
});
