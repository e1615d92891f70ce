/**
 * Request statistics calls (spec 2 §2.10, §7; DESIGN §14) on the demo fleet after
 * one round of probes: the page and its total, paging, the machine filter, the
 * machine's own call, bad input 400, Customer Production hidden from users
 * without the group (left out of the list, 404 by id), any signed-in user reads.
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
