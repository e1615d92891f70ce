/**
 * The Issue viewer's sorts and filters (`GET /issues`, `GET /issues/tags`,
 * `GET /machines/{id}/issues`; spec 2 §2.5; issue 24 point 7) through the real
 * app on the demo-seeded PostgreSQL plus issues raised here at known times:
 * last seen, first seen and count either way, paging in that order with the
 * same total; the machine's class and the last occurrence's time range;
 * Customer Production still hidden from the operator; 400 naming every bad
 * field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_INTERNAL_TESTING, type TIssue, type TIssuesPage, type TIssueTagSuggestions } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { raiseIssue } from '../../engine/issues/raise.js';

let t: TestApp;
const t0 = Date.parse('2032-03-01T00:00:00.000Z');
const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
/** The machines of the issues raised here: one of Internal Testing, one of Customer Staging. */
const machines = { testing: 0, staging: 0 };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const account = await insertAccount(db, { name: 'Issues Viewer', classId: 1 });
  machines.testing = (await insertMachine(db, { accountId: account.id, classId: CLASS_INTERNAL_TESTING, name: 'issues-viewer-testing' })).id;
  machines.staging = (await insertMachine(db, { accountId: account.id, classId: 1, name: 'issues-viewer-staging' })).id;
  // (machine, description, occurrence minutes): first seen at the first, last seen at the last, count their number.
  const raised: [number, string, number[]][] = [
    [machines.testing, 'Viewer issue A', [0, 50]],
    [machines.testing, 'Viewer issue B', [10, 20, 30, 40]],
    [machines.staging, 'Viewer issue C', [5, 60, 61]],
  ];
  for (const [machineId, description, minutes] of raised) {
    for (const m of minutes) await raiseIssue(db, { machineId, source: 'operation', description, tags: ['operation', 'viewer'], content: 'log' }, new Date(at(m)));
  }
});
afterAll(() => t.close());

const call = (url: string, query: Record<string, string>, as = 'operator') => t.call({ method: 'GET', url, as, query });
const page = async (query: Record<string, string>, as = 'operator', url = '/issues') => {
  const res = await call(url, { limit: '300', status: 'all', ...query }, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TIssuesPage;
};
const descriptions = (p: TIssuesPage) => p.items.map((i) => i.description);
/** The order of `sort` `order` over `items`, then id, as the server orders them. */
function sorted(items: TIssue[], key: (i: TIssue) => string | number, order: 'asc' | 'desc'): number[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id)).map((i) => i.id);
}

describe('GET /issues: sorts', () => {
  const keys = { last: (i: TIssue) => i.lastOccurrenceTime, first: (i: TIssue) => i.firstOccurrenceTime, count: (i: TIssue) => i.count };

  it.each(['last', 'first', 'count'] as const)('sorts by %s either way, paging on in that order with the same total', async (sort) => {
    const all = (await page({})).items;
    expect(all.length).toBeGreaterThan(10);
    for (const order of ['desc', 'asc'] as const) {
      const whole = await page({ sort, order });
      expect(whole.items.map((i) => i.id), `${sort} ${order}`).toEqual(sorted(all, keys[sort], order));
      const first = await page({ sort, order, limit: '5' });
      const second = await page({ sort, order, limit: '5', startIndex: '5' });
      expect([...first.items, ...second.items].map((i) => i.id)).toEqual(whole.items.slice(0, 10).map((i) => i.id));
      expect(second.totalItems).toBe(first.totalItems);
    }
  });

  it("sorts one machine's issues too, through both lists", async () => {
    const byCount = await page({ machineId: String(machines.testing), sort: 'count' });
    expect(descriptions(byCount)).toEqual(['Viewer issue B', 'Viewer issue A']);
    expect(descriptions(await page({ machineId: String(machines.testing), sort: 'first', order: 'asc' }))).toEqual(['Viewer issue A', 'Viewer issue B']);
    expect(descriptions(await page({ sort: 'count', order: 'asc' }, 'operator', `/machines/${machines.testing}/issues`))).toEqual(['Viewer issue A', 'Viewer issue B']);
  });
});

describe('GET /issues: class and time range', () => {
  it("keeps the issues of the machine's class", async () => {
    const testing = await page({ classId: String(CLASS_INTERNAL_TESTING) });
    expect(descriptions(testing)).toEqual(expect.arrayContaining(['Viewer issue A', 'Viewer issue B']));
    expect(descriptions(testing)).not.toContain('Viewer issue C');
    const ids = new Set(testing.items.map((i) => i.machineId));
    const { rows } = await t.database.pool.query<{ id: number; class_id: number }>('select id, class_id from machines where id = any($1::int[])', [[...ids]]);
    expect(new Set(rows.map((r) => r.class_id))).toEqual(new Set([CLASS_INTERNAL_TESTING]));
    // Customer Production: the admin's issues, none for the operator.
    expect((await page({ classId: String(CLASS_CUSTOMER_PRODUCTION) }, 'admin')).items.length).toBeGreaterThan(0);
    expect(await page({ classId: String(CLASS_CUSTOMER_PRODUCTION) })).toEqual({ items: [], totalItems: 0, totalCapped: false });
  });

  it('keeps the issues last seen within from and to (inclusive), in any order', async () => {
    const within = await page({ from: at(41), to: at(60), sort: 'count' });
    expect(descriptions(within)).toEqual(['Viewer issue A']);
    expect(descriptions(await page({ from: at(50), to: at(61) }))).toEqual(['Viewer issue C', 'Viewer issue A']);
    expect(descriptions(await page({ from: at(40) }))).toEqual(['Viewer issue C', 'Viewer issue A', 'Viewer issue B']);
    expect(descriptions(await page({ from: at(40), sort: 'count' }))).toEqual(['Viewer issue B', 'Viewer issue C', 'Viewer issue A']);
    expect(descriptions(await page({ to: at(40), classId: String(CLASS_INTERNAL_TESTING), sort: 'first' }))[0]).toBe('Viewer issue B');
  });

  it('suggests the tags of the issues the class and time range keep', async () => {
    const res = await call('/issues/tags', { status: 'all', from: at(0), classId: String(CLASS_INTERNAL_TESTING) });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TIssueTagSuggestions).items).toEqual(expect.arrayContaining([{ tag: 'viewer', issueCount: 2 }]));
    const none = await call('/issues/tags', { status: 'all', from: at(100) });
    expect((none.json() as TIssueTagSuggestions).items).toEqual([]);
  });
});

describe('GET /issues: bad input and permissions', () => {
  it.each([
    [{ sort: 'machine' }, ['sort']],
    [{ order: 'up' }, ['order']],
    [{ classId: '0' }, ['classId']],
    [{ classId: '2147483648' }, ['classId']],
    [{ from: 'last week' }, ['from']],
    [{ to: '2032-03-01T00:00:00' }, ['to']],
    [{ from: at(10), to: at(5) }, ['to']],
    [{ sort: 'x', order: 'y', from: 'z', classId: 'w', limit: '0' }, ['sort', 'order', 'from', 'classId', 'limit']],
  ])('answers 400 for %o naming every bad field', async (query, fields) => {
    for (const url of ['/issues', `/machines/${machines.testing}/issues`]) {
      const res = await call(url, query);
      expect(res.statusCode, url).toBe(400);
      expect((res.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual([...fields].sort());
    }
  });

  it('answers 400 for a bad time range of the tag suggestions, 401 without a token', async () => {
    const res = await call('/issues/tags', { from: at(10), to: at(5), classId: '-1' });
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual(['classId', 'to']);
    expect((await t.call({ method: 'GET', url: '/issues', query: { sort: 'count' } })).statusCode).toBe(401);
  });
});
