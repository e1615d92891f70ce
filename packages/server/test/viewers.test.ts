/**
 * The fleet-wide viewer lists on the demo fleet through the app (spec 2 §2.7–2.9,
 * §7; issue 11 point 5): `GET /machines` (whole fleet with a capped total, one
 * machine), `GET /version-states` (Current, Historical, Desired, across the
 * fleet and per machine), `GET /cloud-instance` and
 * `GET /machines/{id}/cloud-instances`. Each: its order, paging that matches
 * the database, visibility (the operator sees no Customer Production machine;
 * a hidden machine's id answers an empty page as a filter, 404 in a path),
 * the cap of the total, and 400 for bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  CLASS_CUSTOMER_PRODUCTION,
  VIEWER_COUNT_AHEAD,
  className,
  isComputeHostName,
  type TCloudInstancesPage,
  type TMachinesPage,
  type TVersionStatesViewerPage,
} from '@fleet/contracts';
import { startTestApp, type TestApp } from './harness.js';
import { insertAccount } from './fixtures.js';

let t: TestApp;
let hiddenMachine: number;
beforeAll(async () => {
  t = await startTestApp();
  const { rows } = await t.database.db.execute<{ id: number }>(
    sql`select id from machines where class_id = ${CLASS_CUSTOMER_PRODUCTION} and deleted_at is null order by id limit 1`,
  );
  hiddenMachine = rows[0]!.id;
});
afterAll(() => t.close());

async function get<T>(url: string, as: string, query: Record<string, string | number> = {}): Promise<T> {
  const res = await t.call({ method: 'GET', url, as, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

/** Visible live machines counted by the database, for `as` (admin sees every class, operator not Customer Production). */
async function countVisible(what: 'machines' | 'instances' | 'current' | 'historical', as: 'admin' | 'operator'): Promise<number> {
  const hide = as === 'operator' ? sql`and m.class_id <> ${CLASS_CUSTOMER_PRODUCTION} and a.class_id <> ${CLASS_CUSTOMER_PRODUCTION}` : sql``;
  const from = {
    machines: sql`machines m`,
    instances: sql`cloud_instances c join machines m on m.id = c.machine_id`,
    current: sql`version_states v join machines m on m.id = v.machine_id and v.current`,
    historical: sql`version_states v join machines m on m.id = v.machine_id and not v.current`,
  }[what];
  const { rows } = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${from} join accounts a on a.id = m.account_id where m.deleted_at is null and a.deleted_at is null ${hide}`,
  );
  return rows[0]!.n;
}

describe('GET /machines (the Machines viewer)', () => {
  it('pages the whole fleet in account order with a capped total, and keeps Customer Production from the operator', async () => {
    // The demo fleet has about 400 machines: add enough for the cap (one account of class 1, bulk insert).
    const account = await insertAccount(t.database.db, { name: 'Viewer Bulk' });
    await t.database.db.execute(sql`insert into machines (account_id, name, class_id)
      select ${account.id}, 'bulk-' || lpad(g::text, 4, '0'), 1 from generate_series(1, 800) g`);
    const total = await countVisible('machines', 'admin');
    expect(total).toBeGreaterThan(VIEWER_COUNT_AHEAD + 20);
    const first = await get<TMachinesPage>('/machines', 'admin', { limit: 20 });
    expect(first.items).toHaveLength(20);
    expect(first).toMatchObject({ totalItems: 20 + VIEWER_COUNT_AHEAD, totalCapped: true });
    // Near the end the count is exact.
    const last = await get<TMachinesPage>('/machines', 'admin', { startIndex: total - 5, limit: 20 });
    expect(last).toMatchObject({ totalItems: total, totalCapped: false });
    expect(last.items).toHaveLength(5);
    // The order: account, launcher first, name; pages follow on from each other.
    const second = await get<TMachinesPage>('/machines', 'admin', { startIndex: 20, limit: 20 });
    const both = [...first.items, ...second.items];
    const sorted = [...both].sort(
      (x, y) => x.accountId - y.accountId || Number(y.isLauncher) - Number(x.isLauncher) || (x.name < y.name ? -1 : x.name > y.name ? 1 : x.id - y.id),
    );
    expect(both.map((m) => m.id)).toEqual(sorted.map((m) => m.id));
    expect(new Set(both.map((m) => m.id)).size).toBe(40);

    const operatorTotal = await countVisible('machines', 'operator');
    expect(operatorTotal).toBeLessThan(total);
    const operatorLast = await get<TMachinesPage>('/machines', 'operator', { startIndex: operatorTotal - 3, limit: 20 });
    expect(operatorLast).toMatchObject({ totalItems: operatorTotal, totalCapped: false });
    const everyOperatorPage = await get<TMachinesPage>('/machines', 'operator', { limit: 1000 });
    expect(everyOperatorPage.items.some((m) => m.classId === CLASS_CUSTOMER_PRODUCTION)).toBe(false);
  });

  it('filters to one machine by machineId; a hidden or unknown one answers an empty page', async () => {
    const [one] = (await get<TMachinesPage>('/machines', 'operator', { startIndex: 7, limit: 1 })).items;
    const page = await get<TMachinesPage>('/machines', 'operator', { machineId: one!.id });
    expect(page).toEqual({ items: [one], totalItems: 1, totalCapped: false });
    expect(await get<TMachinesPage>('/machines', 'operator', { machineId: hiddenMachine })).toEqual({ items: [], totalItems: 0, totalCapped: false });
    expect(await get<TMachinesPage>('/machines', 'operator', { machineId: 2_000_000_000 })).toEqual({ items: [], totalItems: 0, totalCapped: false });
    expect((await get<TMachinesPage>('/machines', 'admin', { machineId: hiddenMachine })).items.map((m) => m.id)).toEqual([hiddenMachine]);
  });

  it('answers 400 for a bad machineId or paging', async () => {
    for (const query of [{ machineId: '0' }, { machineId: 'x' }, { machineId: '2147483648' }, { limit: '1001' }, { startIndex: '-1' }] as Record<string, string>[]) {
      const res = await t.call({ method: 'GET', url: '/machines', as: 'viewer', query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(Object.keys(query)[0]);
    }
  });
});

describe('GET /version-states (the States viewer)', () => {
  it('pages the current states of the fleet newest first, with class and backups, and the exact total when small', async () => {
    const total = await countVisible('current', 'admin');
    expect(total).toBeGreaterThan(15);
    const page = await get<TVersionStatesViewerPage>('/version-states', 'admin', { state: 'Current', limit: 15 });
    expect(page.items).toHaveLength(15);
    expect(page.totalItems).toBe(Math.min(total, 15 + VIEWER_COUNT_AHEAD));
    const times = page.items.map((s) => s.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    for (const s of page.items) {
      expect(s).toMatchObject({ current: true, desired: false, id: expect.any(Number) });
      expect(Object.keys(s.components)).toHaveLength(19);
      expect(typeof s.machineClassName).toBe('string');
    }
    // Paging: the next page continues the order.
    const next = await get<TVersionStatesViewerPage>('/version-states', 'admin', { state: 'Current', startIndex: 15, limit: 15 });
    expect(next.items[0]!.timestamp <= page.items.at(-1)!.timestamp).toBe(true);
    expect(new Set([...page.items, ...next.items].map((s) => s.id)).size).toBe(page.items.length + next.items.length);
  });

  it('answers historical states, and one machine only with machineId; the operator sees no Customer Production machine', async () => {
    const historical = await get<TVersionStatesViewerPage>('/version-states', 'operator', { state: 'Historical', limit: 300 });
    expect(historical.items.every((s) => !s.current && !s.desired)).toBe(true);
    expect(historical.totalItems).toBe(Math.min(await countVisible('historical', 'operator'), 300 + VIEWER_COUNT_AHEAD));
    expect(historical.items.some((s) => s.machineClassName === className(CLASS_CUSTOMER_PRODUCTION))).toBe(false);

    const machineId = historical.items[0]!.machine.id;
    const ofOne = await get<TVersionStatesViewerPage>('/version-states', 'operator', { state: 'Historical', machineId });
    expect(ofOne.items.length).toBeGreaterThan(0);
    expect(ofOne.items.every((s) => s.machine.id === machineId)).toBe(true);
    // The same states as the machine's own call.
    const own = (await get<{ items: { id: number }[] }>(`/machines/${machineId}/states`, 'operator', { current: 'false' })).items.map((s) => s.id);
    expect(ofOne.items.map((s) => s.id)).toEqual(own);

    expect(await get<TVersionStatesViewerPage>('/version-states', 'operator', { state: 'Current', machineId: hiddenMachine })).toEqual({
      items: [],
      totalItems: 0,
      totalCapped: false,
    });
  });

  it("answers one desired state per machine, by machine id, equal to the machine's own desired state", async () => {
    const page = await get<TVersionStatesViewerPage>('/version-states', 'admin', { state: 'Desired', limit: 15 });
    expect(page.items).toHaveLength(15);
    const machinesTotal = await countVisible('machines', 'admin');
    expect(page).toMatchObject({ totalItems: Math.min(machinesTotal, 15 + VIEWER_COUNT_AHEAD), totalCapped: machinesTotal >= 15 + VIEWER_COUNT_AHEAD });
    const ids = page.items.map((s) => s.machine.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const one = page.items[3]!;
    const own = await get<{ components: unknown; timestamp: string }>(`/machines/${one.machine.id}/states/desired`, 'admin');
    expect(one).toMatchObject({ id: null, desired: true, current: false, components: own.components });
  });

  it("names the newest backups made before a historical state was replaced, and the newest of all for a current one", async () => {
    const { rows } = await t.database.db.execute<{ machine_id: number; account_id: number }>(sql`
      select v.machine_id, m.account_id from version_states v join machines m on m.id = v.machine_id
      where m.deleted_at is null and not v.current group by v.machine_id, m.account_id having count(*) >= 2 limit 1`);
    const machineId = rows[0]!.machine_id;
    // A launcher backup a minute after each of its states was written (and one before them all).
    await t.database.db.execute(sql`
      insert into backup_files (account_id, machine_id, software_name, name, created_at, category, size, object_key)
      select ${rows[0]!.account_id}, ${machineId}, 'launcher', 'viewer-test-' || v.id || '-' || k, v.timestamp + (k * interval '1 minute'), 'Daily', 1, 'viewer-test/' || v.id || '-' || k
      from version_states v, (values (-600), (1)) ks(k) where v.machine_id = ${machineId}`);
    const current = (await get<TVersionStatesViewerPage>('/version-states', 'admin', { state: 'Current', machineId: machineId! })).items[0]!;
    const newest = await t.database.db.execute<{ name: string }>(
      sql`select name from backup_files where machine_id = ${machineId} and software_name = 'launcher' order by created_at desc limit 1`,
    );
    expect(current.launcherBackup).toBe(newest.rows[0]!.name);
    const historical = (await get<TVersionStatesViewerPage>('/version-states', 'admin', { state: 'Historical', machineId: machineId! })).items;
    const states = [current, ...historical];
    for (let i = 1; i < states.length; i++) {
      const replacedAt = states[i - 1]!.timestamp;
      const expected = await t.database.db.execute<{ name: string }>(sql`
        select name from backup_files where machine_id = ${machineId} and software_name = 'launcher' and created_at <= ${replacedAt}::timestamptz
        order by created_at desc limit 1`);
      expect(states[i]!.launcherBackup).toBe(expected.rows[0]?.name ?? null);
    }
  });

  it('answers 400 for a bad state, machineId or limit', async () => {
    for (const query of [{ state: 'current' }, { state: 'Future' }, { machineId: '-3' }, { limit: '301' }, { limit: '0' }] as Record<string, string>[]) {
      const res = await t.call({ method: 'GET', url: '/version-states', as: 'viewer', query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(Object.keys(query)[0]);
    }
  });
});

describe('GET /cloud-instance and GET /machines/{id}/cloud-instances (the Cloud Instances viewer)', () => {
  it('pages the instances of the fleet newest first with their machine, class and state; capped total', async () => {
    const page = await get<TCloudInstancesPage>('/cloud-instance', 'admin', { limit: 10 });
    expect(page.items).toHaveLength(10);
    const total = await countVisible('instances', 'admin');
    expect(page).toMatchObject({ totalItems: Math.min(total, 10 + VIEWER_COUNT_AHEAD), totalCapped: total >= 10 + VIEWER_COUNT_AHEAD });
    const ids = page.items.map((c) => c.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const [first] = page.items;
    const { rows } = await t.database.db.execute<{ cloud_id: string; name: string; class_id: number; host_name: string }>(sql`
      select c.cloud_id, m.name, m.class_id, c.host_name from cloud_instances c join machines m on m.id = c.machine_id where c.id = ${first!.id}`);
    expect(first).toMatchObject({ cloudId: rows[0]!.cloud_id, machineName: rows[0]!.name, machineClassName: className(rows[0]!.class_id), hostName: rows[0]!.host_name });
    expect(isComputeHostName(first!.hostName)).toBe(true);
    const next = await get<TCloudInstancesPage>('/cloud-instance', 'admin', { startIndex: 10, limit: 10 });
    expect(next.items[0]!.id).toBeLessThan(page.items.at(-1)!.id);
  });

  it("lists one machine's instances, the same through both calls; hidden machines: empty page as a filter, 404 by path", async () => {
    const { rows } = await t.database.db.execute<{ machine_id: number }>(sql`
      select c.machine_id from cloud_instances c join machines m on m.id = c.machine_id
      where m.deleted_at is null and m.class_id <> ${CLASS_CUSTOMER_PRODUCTION} group by c.machine_id having count(*) > 1 limit 1`);
    const machineId = rows[0]!.machine_id;
    const filtered = await get<TCloudInstancesPage>('/cloud-instance', 'operator', { machineId });
    const own = await get<TCloudInstancesPage>(`/machines/${machineId}/cloud-instances`, 'operator');
    expect(filtered.items.length).toBeGreaterThan(1);
    expect(own).toEqual(filtered);
    expect(filtered.items.filter((c) => c.active).length).toBe(1);

    expect(await get<TCloudInstancesPage>('/cloud-instance', 'operator', { machineId: hiddenMachine })).toEqual({ items: [], totalItems: 0, totalCapped: false });
    expect((await t.call({ method: 'GET', url: `/machines/${hiddenMachine}/cloud-instances`, as: 'operator' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/machines/2000000000/cloud-instances', as: 'operator' })).statusCode).toBe(404);
    expect((await get<TCloudInstancesPage>(`/machines/${hiddenMachine}/cloud-instances`, 'admin')).items.length).toBeGreaterThan(0);
  });

  it('keeps Customer Production from the operator across the fleet', async () => {
    const operatorTotal = await countVisible('instances', 'operator');
    const adminTotal = await countVisible('instances', 'admin');
    expect(operatorTotal).toBeLessThan(adminTotal);
    const lastPage = await get<TCloudInstancesPage>('/cloud-instance', 'operator', { startIndex: Math.max(0, operatorTotal - 300), limit: 300 });
    expect(lastPage).toMatchObject({ totalItems: operatorTotal, totalCapped: false });
    expect(lastPage.items.some((c) => c.machineClassName === className(CLASS_CUSTOMER_PRODUCTION))).toBe(false);
  });

  it('answers 400 for bad input', async () => {
    for (const query of [{ machineId: '1.5' }, { limit: '301' }, { startIndex: 'x' }] as Record<string, string>[]) {
      const res = await t.call({ method: 'GET', url: '/cloud-instance', as: 'viewer', query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(Object.keys(query)[0]);
    }
    expect((await t.call({ method: 'GET', url: '/machines/abc/cloud-instances', as: 'viewer' })).statusCode).toBe(400);
  });
});

describe('isComputeHostName', () => {
  it('accepts host names in the compute domain only', () => {
    expect(isComputeHostName('ec2-3-1-2-3.eu-west-1.compute.amazonaws.com')).toBe(true);
    expect(isComputeHostName('ec2-3-1-2-3.compute-1.amazonaws.com')).toBe(true);
    expect(isComputeHostName('compute.amazonaws.com')).toBe(false);
    expect(isComputeHostName('ec2-3-1-2-3.eu-west-1.compute.amazonaws.com.evil.example')).toBe(false);
    expect(isComputeHostName('host.example.com')).toBe(false);
    expect(isComputeHostName('')).toBe(false);
  });
});
