/**
 * Request statistics calls (spec 2 §2.10, §7; DESIGN §14) on the demo fleet after
 * one round of probes: the page and its total, paging, the machine filter, the
 * class, outcome and time filters and the sorts by machine name and last
 * probe (issue 24 point 7), the machine's own call, bad input 400 (every bad
 * field named), Customer Production hidden from users without the group (left
 * out of the list, 404 by id), any signed-in user reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION, type TMachineRequestStatisticsResponse, type TRequestStatisticsPage } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createProbeEngine } from '../../engine/probes/prober.js';
import { createSimulatedEndpoint } from '../../engine/probes/endpoint.js';

let t: TestApp;
let total: number;
let hiddenRows: number;
let cpMachine: number;
let bothMachine: number;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  // One round: every URL once (the cursor an interval back).
  await db.execute(sql`update probe_cursor set through = now() - interval '1 hour'`);
  const engine = createProbeEngine({ db, endpoint: createSimulatedEndpoint(), intervalS: 60, raise: async () => {} });
  total = await engine.tick();
  const hidden = await db.execute<{ n: number; m: number }>(sql`
    select count(*)::int as n, min(rs.machine_id)::int as m from request_statistics rs join machines m on m.id = rs.machine_id join accounts a on a.id = m.account_id
    where m.class_id = ${CLASS_CUSTOMER_PRODUCTION} or a.class_id = ${CLASS_CUSTOMER_PRODUCTION}`);
  hiddenRows = hidden.rows[0]!.n;
  cpMachine = hidden.rows[0]!.m;
  const both = await db.execute<{ machine_id: number }>(sql`
    select rs.machine_id from request_statistics rs join machines m on m.id = rs.machine_id where m.class_id <> ${CLASS_CUSTOMER_PRODUCTION}
    group by rs.machine_id having count(*) = 2 order by 1 limit 1`);
  bothMachine = both.rows[0]!.machine_id;
});
afterAll(() => t.close());

const get = (url: string, as: string, query?: Record<string, string>) => t.call({ method: 'GET', url, as, query });

describe('GET /request-statistics', () => {
  it('lists every probed URL with its figures for admin, without Customer Production for the others', async () => {
    expect(total).toBeGreaterThan(50);
    expect(hiddenRows).toBeGreaterThan(0);
    const admin = (await get('/request-statistics', 'admin', { limit: '300' })).json() as TRequestStatisticsPage;
    // The count stops 100 rows past the page: exact below 400, "at least 400" above.
    expect(admin.totalItems).toBe(Math.min(total, 400));
    expect(admin.totalCapped).toBe(total >= 400);
    const capped = (await get('/request-statistics', 'admin', { limit: '10' })).json() as TRequestStatisticsPage;
    expect(capped).toMatchObject({ totalItems: Math.min(total, 110), totalCapped: total >= 110 });
    const exact = (await get('/request-statistics', 'admin', { startIndex: String(total), limit: '1' })).json() as TRequestStatisticsPage;
    expect(exact).toEqual({ items: [], totalItems: total, totalCapped: false });
    const item = admin.items[0]!;
    expect(item).toMatchObject({ machineId: expect.any(Number), machineName: expect.any(String), url: expect.stringMatching(/^https?:\/\//) });
    expect(Date.now() - Date.parse(item.lastUpdate)).toBeLessThan(60_000);
    const ok = admin.items.filter((i) => i.lastSuccess);
    expect(ok.length).toBeGreaterThan(0);
    for (const i of ok) expect(i).toMatchObject({ lastLatency: expect.any(Number), avgHour: i.lastLatency, succHour: 1, succDay: 1, succWeek: 1 });
    for (const i of admin.items.filter((x) => !x.lastSuccess)) expect(i).toMatchObject({ lastLatency: null, avgHour: null, succHour: 0 });
    for (const as of ['operator', 'viewer']) {
      const res = await get('/request-statistics', as, { limit: '300' });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as TRequestStatisticsPage;
      expect(page.totalItems).toBe(Math.min(total - hiddenRows, 400));
      const past = (await get('/request-statistics', as, { startIndex: '300', limit: '300' })).json() as TRequestStatisticsPage;
      expect(past.totalItems).toBe(total - hiddenRows);
      expect(page.items.some((i) => i.machineId === cpMachine)).toBe(false);
    }
  });

  it('pages on the server in a stable order and filters by machine', async () => {
    const all = (await get('/request-statistics', 'admin', { limit: '300' })).json() as TRequestStatisticsPage;
    const keys = all.items.map((i) => `${i.machineId}:${i.kind}`);
    const sorted = [...all.items].sort((a, b) => a.machineId - b.machineId || (a.kind === 'launcher' ? -1 : 1) - (b.kind === 'launcher' ? -1 : 1));
    expect(keys).toEqual(sorted.map((i) => `${i.machineId}:${i.kind}`));
    const second = (await get('/request-statistics', 'admin', { startIndex: '10', limit: '10' })).json() as TRequestStatisticsPage;
    expect(second.items.map((i) => `${i.machineId}:${i.kind}`)).toEqual(keys.slice(10, 20));
    // Counted to the end of the first block of 100 rows plus a page (db/capped-count.ts).
    expect(second.totalItems).toBe(Math.min(total, 110));
    const mine = (await get('/request-statistics', 'viewer', { machineId: String(bothMachine) })).json() as TRequestStatisticsPage;
    expect(mine.items.map((i) => i.kind)).toEqual(['launcher', 'siteMaster']);
    expect(mine.totalItems).toBe(2);
    // A hidden or unknown machine id finds nothing, as an unknown one does.
    for (const id of [cpMachine, 2_000_000_000]) {
      expect(((await get('/request-statistics', 'operator', { machineId: String(id) })).json() as TRequestStatisticsPage)).toEqual({ items: [], totalItems: 0, totalCapped: false });
    }
  });

  it('answers 400 naming the field for bad paging and ids, 401 without a token', async () => {
    for (const query of [{ limit: '0' }, { limit: '301' }, { startIndex: '-1' }, { machineId: 'abc' }, { machineId: '0' }, { machineId: '2147483648' }] as Record<string, string>[]) {
      const res = await get('/request-statistics', 'viewer', query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(Object.keys(query)[0]);
    }
    expect((await t.call({ method: 'GET', url: '/request-statistics' })).statusCode).toBe(401);
  });
});

describe('GET /request-statistics: filters and sorts (issue 24 point 7)', () => {
  const list = async (query: Record<string, string>, as = 'operator') => {
    const res = await get('/request-statistics', as, { limit: '300', ...query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TRequestStatisticsPage;
  };
  const keys = (p: TRequestStatisticsPage) => p.items.map((i) => `${i.machineId}:${i.kind}`);

  it("keeps the machine's class and the last probe's outcome, in the list's order", async () => {
    const all = await list({});
    const { rows } = await t.database.pool.query<{ id: number; class_id: number }>('select id, class_id from machines');
    const classOf = new Map(rows.map((r) => [r.id, r.class_id]));
    // The first 300 URLs filtered here: the start of the filtered list.
    const startOf = (p: TRequestStatisticsPage, expected: string[]) => keys(p).slice(0, expected.length);
    const testing = await list({ classId: '2' });
    const ofTesting = keys(all).filter((_, n) => classOf.get(all.items[n]!.machineId) === 2);
    expect(ofTesting.length).toBeGreaterThan(0);
    expect(startOf(testing, ofTesting)).toEqual(ofTesting);
    expect(testing.items.every((i) => classOf.get(i.machineId) === 2)).toBe(true);
    expect(await list({ classId: String(CLASS_CUSTOMER_PRODUCTION) })).toEqual({ items: [], totalItems: 0, totalCapped: false });
    expect((await list({ classId: String(CLASS_CUSTOMER_PRODUCTION) }, 'admin')).items.length).toBe(hiddenRows > 0 ? Math.min(hiddenRows, 300) : 0);

    const failures = await list({ status: 'failure' });
    const failed = keys(all).filter((_, n) => !all.items[n]!.lastSuccess);
    expect(failed.length).toBeGreaterThan(0);
    expect(startOf(failures, failed)).toEqual(failed);
    expect(failures.items.every((i) => !i.lastSuccess)).toBe(true);
    const successes = await list({ status: 'success', classId: '2' });
    const succeeded = keys(testing).filter((_, n) => testing.items[n]!.lastSuccess);
    expect(startOf(successes, succeeded)).toEqual(succeeded);
    expect(successes.items.every((i) => i.lastSuccess && classOf.get(i.machineId) === 2)).toBe(true);
  });

  it("keeps the last probe's time range, and sorts by it either way", async () => {
    // Two URLs probed a day and two days ago (the others in the last minute).
    const old = (await list({ limit: '2' })).items;
    await t.database.pool.query(
      `update request_statistics set last_at = now() - make_interval(days => (case when machine_id = $1 then 1 else 2 end))
       where (machine_id, kind) in ((${old[0]!.machineId}, ${old[0]!.kind === 'launcher' ? 0 : 1}), (${old[1]!.machineId}, ${old[1]!.kind === 'launcher' ? 0 : 1}))`,
      [old[0]!.machineId],
    );
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const stale = await list({ to: anHourAgo });
    expect(stale.items.map((i) => i.machineId).sort()).toEqual(old.map((i) => i.machineId).sort());
    const fresh = await list({ from: anHourAgo, startIndex: '300' });
    expect(fresh.totalItems).toBe(total - hiddenRows - 2);
    expect(await list({ from: anHourAgo, to: new Date(Date.now() - 1_800_000).toISOString() })).toEqual({ items: [], totalItems: 0, totalCapped: false });

    const oldestFirst = await list({ sort: 'lastUpdate', order: 'asc' });
    const times = oldestFirst.items.map((i) => i.lastUpdate);
    expect(times).toEqual([...times].sort());
    expect(oldestFirst.items.slice(0, 2).map((i) => i.machineId)).toEqual([old[1]!.machineId, old[0]!.machineId]);
    const newestFirst = await list({ sort: 'lastUpdate' });
    expect(newestFirst.items.map((i) => i.lastUpdate)).toEqual([...newestFirst.items.map((i) => i.lastUpdate)].sort().reverse());
    const visibleRows = total - hiddenRows;
    const last = await list({ sort: 'lastUpdate', startIndex: String(visibleRows - 2) });
    expect(last.items.map((i) => i.machineId)).toEqual([old[0]!.machineId, old[1]!.machineId]);
    const next = await list({ sort: 'lastUpdate', order: 'asc', startIndex: '1', limit: '1' });
    expect(next.items[0]!.machineId).toBe(old[0]!.machineId);
    expect(next.totalItems).toBe((await list({ sort: 'lastUpdate', order: 'asc', limit: '1' })).totalItems);
  });

  it('pages by last update as every visible row sorted by time, machine and kind, with classes hidden or one class asked', async () => {
    const { selectStatisticsPage } = await import('./request-statistics.repository.js');
    const db = t.database.db;
    // Milliseconds, as the rows come back: the order below breaks ties of a millisecond as the statement does.
    await db.execute(sql`update request_statistics set last_at = date_trunc('milliseconds', last_at)`);
    const key = (r: { machineId: number; kind: string }) => `${r.machineId}/${r.kind}`;
    for (const q of [
      { hiddenClassIds: [CLASS_CUSTOMER_PRODUCTION], sort: 'lastUpdate' as const, startIndex: 0, limit: 20 },
      { hiddenClassIds: [CLASS_CUSTOMER_PRODUCTION], sort: 'lastUpdate' as const, order: 'asc' as const, startIndex: 40, limit: 20 },
      { hiddenClassIds: [], classId: 2, sort: 'lastUpdate' as const, startIndex: 0, limit: 20 },
    ]) {
      const every = await selectStatisticsPage(db, { hiddenClassIds: q.hiddenClassIds, classId: q.classId, startIndex: 0, limit: 100_000, now: new Date() });
      const dir = q.order === 'asc' ? 1 : -1;
      const kindCode = (kind: string) => (kind === 'launcher' ? 0 : 1);
      const sorted = [...every.rows].sort((a, b) => dir * (a.lastAt.getTime() - b.lastAt.getTime() || a.machineId - b.machineId || kindCode(a.kind) - kindCode(b.kind)));
      const page = await selectStatisticsPage(db, { ...q, now: new Date() });
      expect(page.rows).toHaveLength(20);
      expect(page.rows.map(key)).toEqual(sorted.slice(q.startIndex, q.startIndex + q.limit).map(key));
      // The same count as the list's own order: a capped count does not depend on the order.
      const byId = await selectStatisticsPage(db, { hiddenClassIds: q.hiddenClassIds, classId: q.classId, startIndex: q.startIndex, limit: q.limit, now: new Date() });
      expect(page.total).toBe(byId.total);
    }
  });

  it("sorts by the machine's name either way, then launcher before site master", async () => {
    const byName = await list({ sort: 'machine' });
    const names = byName.items.map((i) => i.machineName);
    expect(names).toEqual([...names].sort());
    const pairs = byName.items.filter((i) => i.machineId === bothMachine).map((i) => i.kind);
    expect(pairs).toEqual(['launcher', 'siteMaster']);
    const desc = await list({ sort: 'machine', order: 'desc', limit: '20' });
    expect(desc.items.map((i) => i.machineName)).toEqual([...desc.items.map((i) => i.machineName)].sort().reverse());
    const second = await list({ sort: 'machine', order: 'desc', limit: '20', startIndex: '20' });
    expect(second.items[0]!.machineName <= desc.items[19]!.machineName).toBe(true);
    expect(second.totalItems).toBe(desc.totalItems);
  });

  it.each([
    [{ status: 'ok' }, ['status']],
    [{ sort: 'url' }, ['sort']],
    [{ order: 'down' }, ['order']],
    [{ classId: '0' }, ['classId']],
    [{ from: '2026-11-28' }, ['from']],
    [{ from: '2026-11-28T10:00:00Z', to: '2026-11-28T09:59:59Z' }, ['to']],
    [{ status: 'x', sort: 'y', order: 'z', to: 'w', limit: '301' }, ['status', 'sort', 'order', 'to', 'limit']],
  ])('answers 400 for %o naming every bad field', async (query, fields) => {
    const res = await get('/request-statistics', 'viewer', query);
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual([...fields].sort());
  });
});

describe('GET /machines/{id}/request-statistics', () => {
  it("answers the machine's URLs, 404 for a hidden machine without the group and for an unknown one", async () => {
    const res = await get(`/machines/${bothMachine}/request-statistics`, 'viewer');
    expect(res.statusCode).toBe(200);
    const body = res.json() as TMachineRequestStatisticsResponse;
    expect(body.totalItems).toBe(2);
    expect(body.items.map((i) => i.kind)).toEqual(['launcher', 'siteMaster']);
    expect((await get(`/machines/${bothMachine}/request-statistics`, 'viewer', { startIndex: '1', limit: '1' })).json()).toMatchObject({ totalItems: 2, items: [{ kind: 'siteMaster' }] });
    expect((await get(`/machines/${cpMachine}/request-statistics`, 'admin')).statusCode).toBe(200);
    expect((await get(`/machines/${cpMachine}/request-statistics`, 'operator')).statusCode).toBe(404);
    expect((await get('/machines/2000000000/request-statistics', 'admin')).statusCode).toBe(404);
    expect((await get('/machines/abc/request-statistics', 'admin')).statusCode).toBe(400);
  });
});
