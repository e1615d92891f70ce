/**
 * Version state calls (spec 2 §7 Machines: `GET /machines/{id}/states`,
 * `/states/desired`, `/state-info`) on the demo fleet through the app: stored
 * states newest first and filtered, the desired state computed, bad input 400,
 * hidden and unknown machines 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION, type TVersionState, type TVersionStatesResponse } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertMachine } from '../../../test/fixtures.js';

let t: TestApp;
let visible: { id: number; name: string; account_id: number; current_versions: Record<string, string>; desired_versions: Record<string, string> };
let hidden: number;

beforeAll(async () => {
  t = await startTestApp();
  const { rows } = await t.database.db.execute<typeof visible>(sql`
    select id, name, account_id, current_versions, desired_versions from machines
    where class_id = 1 and obsolete and deleted_at is null order by id limit 1`);
  visible = rows[0]!;
  const cp = await t.database.db.execute<{ id: number }>(sql`select id from machines where class_id = ${CLASS_CUSTOMER_PRODUCTION} order by id limit 1`);
  hidden = cp.rows[0]!.id;
});
afterAll(() => t.close());

const get = (url: string, as = 'viewer', query?: Record<string, string>) => t.call({ method: 'GET', url, as, query });
const refs = (s: TVersionState) =>
  Object.fromEntries(Object.entries(s.components).flatMap(([k, c]) => (c ? [[k, `${c.branchName}|${c.shortHash}`]] : [])));

describe('GET /machines/{id}/states', () => {
  it('answers the stored states newest first: the current one, then the historical ones', async () => {
    const res = await get(`/machines/${visible.id}/states`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as TVersionStatesResponse;
    expect(body.totalItems).toBe(3);
    expect(body.items.map((s) => s.current)).toEqual([true, false, false]);
    const times = body.items.map((s) => s.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.items[0]).toMatchObject({ machine: { id: visible.id, name: visible.name }, desired: false, operationId: null });
    expect(refs(body.items[0]!)).toEqual(visible.current_versions);
    expect(Object.keys(body.items[0]!.components)).toHaveLength(19);
  });

  it('filters current and historical, pages, and answers the desired state alone', async () => {
    const current = (await get(`/machines/${visible.id}/states`, 'viewer', { current: 'true' })).json() as TVersionStatesResponse;
    expect(current.items.map((s) => s.current)).toEqual([true]);
    const historical = (await get(`/machines/${visible.id}/states`, 'viewer', { current: 'false', startIndex: '1', limit: '1' })).json() as TVersionStatesResponse;
    expect(historical).toMatchObject({ totalItems: 2, items: [{ current: false }] });
    const desired = (await get(`/machines/${visible.id}/states`, 'viewer', { desired: 'true' })).json() as TVersionStatesResponse;
    expect(desired.totalItems).toBe(1);
    expect(desired.items[0]).toMatchObject({ id: null, desired: true, current: false });
    expect(refs(desired.items[0]!)).toEqual(visible.desired_versions);
  });

  it('answers 400 for bad paging and flags', async () => {
    for (const query of [{ limit: '0' }, { limit: '1001' }, { startIndex: '-1' }, { current: 'yes' }, { desired: '1' }] as Record<string, string>[]) {
      const res = await get(`/machines/${visible.id}/states`, 'viewer', query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(Object.keys(query)[0]);
    }
    expect((await get('/machines/abc/states')).statusCode).toBe(400);
  });
});

describe('GET /machines/{id}/states/desired and /state-info', () => {
  it('answer the desired and the current state (an obsolete machine: they differ)', async () => {
    const desired = (await get(`/machines/${visible.id}/states/desired`)).json() as TVersionState;
    const info = (await get(`/machines/${visible.id}/state-info`)).json() as TVersionState;
    expect(refs(desired)).toEqual(visible.desired_versions);
    expect(refs(info)).toEqual(visible.current_versions);
    expect(info).toMatchObject({ current: true, desired: false, id: expect.any(Number) });
    expect(refs(desired)).not.toEqual(refs(info));
  });

  it('answers the current versions of a machine without a stored state, id null', async () => {
    const [commit] = (await t.database.db.execute<{ software: string; ref: string }>(sql`
      select c.software, b.name || '|' || c.short_hash as ref from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' order by c.id limit 1`)).rows;
    const m = await insertMachine(t.database.db, { accountId: visible.account_id, classId: 1, currentVersions: { launcher: commit!.ref } });
    const info = (await get(`/machines/${m.id}/state-info`)).json() as TVersionState;
    expect(info).toMatchObject({ id: null, current: true, machine: { id: m.id } });
    expect(refs(info)).toEqual({ launcher: commit!.ref });
    expect((await get(`/machines/${m.id}/states`)).json()).toEqual({ items: [], totalItems: 0 });
  });
});

describe('visibility', () => {
  it('answers 404 for a Customer Production machine without the group, and for an unknown one', async () => {
    for (const url of [`/machines/${hidden}/states`, `/machines/${hidden}/states/desired`, `/machines/${hidden}/state-info`, '/machines/2147483647/state-info']) {
      const res = await get(url, 'operator');
      expect(res.statusCode, url).toBe(404);
    }
    expect((await get(`/machines/${hidden}/state-info`, 'admin')).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `/machines/${visible.id}/states` })).statusCode).toBe(401);
  });
});
