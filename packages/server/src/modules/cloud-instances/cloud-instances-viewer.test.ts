/**
 * The Cloud Instances viewer's filters and order (issue 24 point 7) through the
 * real app on the demo-seeded PostgreSQL: class, state now and active, the
 * launch order both ways, Customer Production still hidden from the operator,
 * and the 400 answers naming every bad field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_INTERNAL_TESTING, className, type TCloudInstancesPage } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const call = (query: Record<string, string>, as = 'operator') => t.call({ method: 'GET', url: '/cloud-instance', as, query });
const page = async (query: Record<string, string>, as = 'operator') => {
  const res = await call({ limit: '100', ...query }, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TCloudInstancesPage;
};
const ids = (p: TCloudInstancesPage) => p.items.map((c) => c.id);

describe('GET /cloud-instance: filters and order', () => {
  it('lists newest first by default and oldest first with order=asc', async () => {
    const desc = ids(await page({}));
    const asc = ids(await page({ order: 'asc' }));
    expect(desc.length).toBeGreaterThan(10);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc[0]).toBeLessThan(desc[0]!);
  });

  it('sorts by launch time either way with sort=timestamp, paging on in that order', async () => {
    const times = (p: TCloudInstancesPage) => p.items.map((c) => c.timestamp);
    const newest = await page({ sort: 'timestamp' });
    expect(times(newest)).toEqual([...times(newest)].sort().reverse());
    const oldest = await page({ sort: 'timestamp', order: 'asc', limit: '10' });
    expect(times(oldest)).toEqual([...times(oldest)].sort());
    const next = await page({ sort: 'timestamp', order: 'asc', limit: '10', startIndex: '10' });
    expect(next.items[0]!.timestamp >= oldest.items[9]!.timestamp).toBe(true);
    expect(next.totalItems).toBe(oldest.totalItems);
  });

  it('filters by class, state now and active, alone and together', async () => {
    const byClass = await page({ classId: String(CLASS_INTERNAL_TESTING) });
    expect(byClass.items.length).toBeGreaterThan(0);
    expect(new Set(byClass.items.map((c) => c.machineClassName))).toEqual(new Set([className(CLASS_INTERNAL_TESTING)]));
    const running = await page({ status: 'running' });
    expect(running.items.length).toBeGreaterThan(0);
    expect(running.items.every((c) => c.status === 'running')).toBe(true);
    const inactive = await page({ active: 'false' });
    expect(inactive.items.length).toBeGreaterThan(0);
    expect(inactive.items.every((c) => !c.active)).toBe(true);
    expect((await page({ active: 'true' })).items.every((c) => c.active)).toBe(true);
    const both = await page({ classId: String(CLASS_INTERNAL_TESTING), active: 'true', order: 'asc' });
    expect(both.items.every((c) => c.active && c.machineClassName === className(CLASS_INTERNAL_TESTING))).toBe(true);
    expect(ids(both)).toEqual([...ids(both)].sort((a, b) => a - b));
  });

  it('keeps Customer Production from the operator, as before', async () => {
    expect(await page({ classId: String(CLASS_CUSTOMER_PRODUCTION) })).toEqual({ items: [], totalItems: 0, totalCapped: false });
    expect((await page({ classId: String(CLASS_CUSTOMER_PRODUCTION) }, 'admin')).items.length).toBeGreaterThan(0);
  });
});

describe('GET /cloud-instance: bad input and permissions', () => {
  it.each([
    [{ order: 'up' }, ['order']],
    [{ sort: 'name' }, ['sort']],
    [{ status: 'flying' }, ['status']],
    [{ active: 'yes' }, ['active']],
    [{ classId: '0' }, ['classId']],
    [{ order: 'x', status: 'y', active: 'z', limit: '301' }, ['order', 'status', 'active', 'limit']],
  ])('answers 400 for %o naming every bad field', async (query, fields) => {
    const res = await call(query);
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual([...fields].sort());
  });

  it('answers 401 without a token', async () => {
    expect((await t.call({ method: 'GET', url: '/cloud-instance', query: { order: 'asc' } })).statusCode).toBe(401);
  });
});
