/**
 * The States viewer's filters and order (`GET /version-states`, spec 2 §2.8;
 * issue 24 point 7) through the real app on the demo-seeded PostgreSQL: the
 * time order both ways, the time range, the machine's class, a component
 * installed and of a branch (stored and desired states), Customer Production
 * still hidden from the operator, and the 400 answers naming every bad field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_INTERNAL_TESTING, className, type TVersionStatesViewerPage } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const call = (query: Record<string, string>, as = 'operator') => t.call({ method: 'GET', url: '/version-states', as, query });
const page = async (query: Record<string, string>, as = 'operator') => {
  const res = await call({ limit: '300', ...query }, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TVersionStatesViewerPage;
};
const times = (p: TVersionStatesViewerPage) => p.items.map((s) => s.timestamp);

describe('GET /version-states: order and time range', () => {
  it('lists newest first by default and oldest first with order=asc, paging on in that order with the same total', async () => {
    for (const state of ['Current', 'Historical']) {
      const newest = await page({ state });
      expect(newest.items.length).toBeGreaterThan(20);
      expect(times(newest)).toEqual([...times(newest)].sort().reverse());
      const oldest = await page({ state, sort: 'timestamp', order: 'asc', limit: '20' });
      expect(times(oldest)).toEqual([...times(oldest)].sort());
      expect(oldest.items[0]!.timestamp <= newest.items.at(-1)!.timestamp).toBe(true);
      const next = await page({ state, sort: 'timestamp', order: 'asc', limit: '20', startIndex: '20' });
      expect(next.items[0]!.timestamp >= oldest.items[19]!.timestamp).toBe(true);
      expect(next.items.map((s) => s.id)).not.toContain(oldest.items[19]!.id);
      expect(next.totalItems).toBe(oldest.totalItems);
    }
  });

  it('keeps the states whose time is within from and to (inclusive), in either order', async () => {
    const all = times(await page({ state: 'Historical' }));
    const from = all[Math.floor(all.length * 0.7)]!;
    const to = all[Math.floor(all.length * 0.2)]!;
    const within = await page({ state: 'Historical', from, to });
    const expected = all.filter((time) => time >= from && time <= to);
    expect(within.items.length).toBe(expected.length);
    expect(times(within)).toEqual(expected);
    expect(times(within)).toContain(from);
    expect(times(within)).toContain(to);
    expect(times(await page({ state: 'Historical', from, to, order: 'asc' }))).toEqual([...expected].reverse());
    expect((await page({ state: 'Historical', from: to, to })).items.every((s) => s.timestamp === to)).toBe(true);
  });
});

describe('GET /version-states: class and component', () => {
  it("filters by the machine's class in every kind; Customer Production stays hidden from the operator", async () => {
    for (const state of ['Current', 'Historical', 'Desired']) {
      const testing = await page({ state, classId: String(CLASS_INTERNAL_TESTING) });
      expect(testing.items.length, state).toBeGreaterThan(0);
      expect(new Set(testing.items.map((s) => s.machineClassName))).toEqual(new Set([className(CLASS_INTERNAL_TESTING)]));
      expect(await page({ state, classId: String(CLASS_CUSTOMER_PRODUCTION) })).toEqual({ items: [], totalItems: 0, totalCapped: false });
      expect((await page({ state, classId: String(CLASS_CUSTOMER_PRODUCTION) }, 'admin')).items.length).toBeGreaterThan(0);
    }
  });

  it('keeps the states in which a component is installed, and with a branch those of that branch', async () => {
    // A state's key: its id, a desired state's machine.
    const keys = (states: TVersionStatesViewerPage['items']) => states.map((s) => `${s.id}:${s.machine.id}`);
    for (const state of ['Current', 'Historical', 'Desired']) {
      // The first 300 states of the kind, filtered here: the start of the filtered list.
      const all = await page({ state });
      const installed = await page({ state, component: 'linkware' });
      const expected = all.items.filter((s) => s.components.linkware);
      expect(expected.length, state).toBeGreaterThan(0);
      expect(expected.length, state).toBeLessThan(all.items.length);
      expect(keys(installed.items.slice(0, expected.length)), state).toEqual(keys(expected));
      expect(installed.items.every((s) => s.components.linkware)).toBe(true);

      const onBranch = await page({ state, component: 'siteMaster', branch: 'release/8.2' });
      const ofBranch = all.items.filter((s) => s.components.siteMaster?.branchName === 'release/8.2');
      expect(ofBranch.length, state).toBeGreaterThan(0);
      expect(new Set(onBranch.items.map((s) => s.components.siteMaster?.branchName))).toEqual(new Set(['release/8.2']));
      expect(keys(onBranch.items.slice(0, ofBranch.length)), state).toEqual(keys(ofBranch));
    }
    expect((await page({ component: 'siteMaster', branch: 'no-such-branch' })).items).toEqual([]);
  });

  it('combines class, component, time range and order', async () => {
    const all = await page({ state: 'Historical', classId: String(CLASS_INTERNAL_TESTING), component: 'siteMaster' });
    expect(all.items.length).toBeGreaterThan(2);
    const from = all.items.at(-2)!.timestamp;
    const both = await page({ state: 'Historical', classId: String(CLASS_INTERNAL_TESTING), component: 'siteMaster', from, order: 'asc' });
    expect(both.items.map((s) => s.id)).toEqual(all.items.filter((s) => s.timestamp >= from).map((s) => s.id).reverse());
  });
});

describe('GET /version-states: bad input and permissions', () => {
  it.each([
    [{ order: 'up' }, ['order']],
    [{ sort: 'machine' }, ['sort']],
    [{ classId: '0' }, ['classId']],
    [{ component: 'kernel' }, ['component']],
    [{ branch: 'master' }, ['branch']],
    [{ component: 'launcher', branch: 'x'.repeat(201) }, ['branch']],
    [{ from: 'yesterday' }, ['from']],
    [{ from: '2026-11-28T10:00:00Z', to: '2026-11-28T09:00:00Z' }, ['to']],
    [{ state: 'Desired', from: '2026-11-28T09:00:00Z', sort: 'timestamp' }, ['from', 'sort']],
    [{ order: 'x', component: 'y', to: 'z', limit: '301' }, ['order', 'component', 'to', 'limit']],
  ])('answers 400 for %o naming every bad field', async (query, fields) => {
    const res = await call(query);
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual([...fields].sort());
  });

  it('answers 401 without a token; any signed-in user reads', async () => {
    expect((await t.call({ method: 'GET', url: '/version-states', query: { order: 'asc' } })).statusCode).toBe(401);
    expect((await call({ order: 'asc', classId: '1' }, 'viewer')).statusCode).toBe(200);
  });
});
