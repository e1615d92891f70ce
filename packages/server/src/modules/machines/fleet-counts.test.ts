/**
 * Counts that agree (issue 24 point 4; spec 3 §2.9, spec 1 §2): the top bar's
 * counters (`GET /machines/stats`), the Machines viewer's filtered list
 * (`GET /machines?classId&needsAdmin&turbo&unmanaged`) and the accounts
 * footer (`GET /accounts/info`) count one scope, live machines of live
 * accounts of every class, on the test database (the demo fleet); the viewer
 * lists what the user can open: a chip less its restricted machines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { CLASS_IDS, type TAccountsInfo, type TMachineStats, type TMachinesPage } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { accounts } from '../../db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  // A Customer Production machine needing an admin, and a deleted account whose machine is still live: neither
  // may make the top bar differ from the lists.
  const cp = await insertAccount(db, { name: 'Counts CP', classId: 5 });
  await insertMachine(db, { accountId: cp.id, classId: 5, needsAdmin: true, turbo: true });
  // A machine of an open class in that Customer Production account: its class chip counts it, the operator cannot open it.
  await insertMachine(db, { accountId: cp.id, classId: 2 });
  const gone = await insertAccount(db, { name: 'Counts deleted', classId: 2 });
  await insertMachine(db, { accountId: gone.id, classId: 2, needsAdmin: true, managed: false });
  await db.update(accounts).set({ deletedAt: sql`now()` }).where(eq(accounts.id, gone.id));
});
afterAll(() => t.close());

const stats = async (as: string) => (await t.call({ method: 'GET', url: '/machines/stats', as })).json() as TMachineStats;
const listTotal = async (as: string, query: Record<string, string>) => {
  const res = await t.call({ method: 'GET', url: '/machines', as, query: { limit: '1', ...query } });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as TMachinesPage;
  expect(page.totalCapped).toBe(false);
  return page.totalItems;
};
const footer = async (as: string) => {
  const res = await t.call({ method: 'GET', url: '/accounts/info', as, query: { classIds: CLASS_IDS.join(',') } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TAccountsInfo;
};

describe('the top bar, the Machines viewer and the accounts footer', () => {
  it.each(['admin', 'operator'])('agree for each chip (%s)', async (as) => {
    const s = await stats(as);
    const r = s.restricted;
    expect(s.needsAdmin).toBeGreaterThan(0);
    expect(await listTotal(as, { needsAdmin: 'true' })).toBe(s.needsAdmin - r.needsAdmin);
    expect(await listTotal(as, { turbo: 'true' })).toBe(s.turbo - r.turbo);
    expect(await listTotal(as, { unmanaged: 'true' })).toBe(s.unmanaged - r.unmanaged);
    for (const c of s.classStats) {
      expect(await listTotal(as, { classId: String(c.class.id) }), c.class.name).toBe(r.classIds.includes(c.class.id) ? 0 : c.total - c.restricted);
    }
    // Filters combine: the needs-admin machines of one class.
    const [first] = s.classStats;
    const both = await listTotal(as, { classId: String(first!.class.id), needsAdmin: 'true' });
    expect(both).toBeLessThanOrEqual(s.needsAdmin);
    expect(both + (await listTotal(as, { classId: String(first!.class.id), needsAdmin: 'false' }))).toBe(first!.total);

    // With every class listed, the footer counts what the top bar counts.
    const f = await footer(as);
    expect(f.machineCounts.needsAdmin).toBe(s.needsAdmin);
    expect(f.machineCounts.turbo).toBe(s.turbo);
    expect(f.machineCounts.unmanaged).toBe(s.unmanaged);
    expect(f.machineCounts.machines).toBe(s.classStats.reduce((sum, c) => sum + c.total, 0));
    for (const c of f.classMachineCounts) expect(c.machines).toBe(s.classStats.find((x) => x.class.id === c.id)!.total);
  });

  it('count Customer Production for users without the group too, which the viewer does not list for them', async () => {
    const admin = await stats('admin');
    const operator = await stats('operator');
    const cp = admin.classStats.find((c) => c.class.id === 5)!.total;
    expect(cp).toBeGreaterThan(0);
    expect(operator.classStats.find((c) => c.class.id === 5)!.total).toBe(cp);
    expect(operator.needsAdmin).toBe(admin.needsAdmin);
    expect(operator.restricted.needsAdmin).toBeGreaterThan(0);
    expect(await listTotal('operator', { classId: '5' })).toBe(0);
    expect(operator.classStats.find((c) => c.class.id === 2)!.restricted).toBeGreaterThanOrEqual(1);
    expect(admin.classStats.every((c) => c.restricted === 0)).toBe(true);
    expect(await listTotal('admin', { classId: '5' })).toBe(cp);
    expect(await footer('operator')).toEqual(await footer('admin'));
  });

  it('count a status that must be false (most of the fleet, no chip) only to the cap, as the whole fleet', async () => {
    const s = await stats('admin');
    const all = s.classStats.reduce((sum, c) => sum + c.total, 0);
    // The demo fleet's machines not needing an admin are more than a first page's cap (300 past a 1-row page).
    expect(all - s.needsAdmin).toBeGreaterThan(301);
    const res = await t.call({ method: 'GET', url: '/machines', as: 'admin', query: { limit: '1', needsAdmin: 'false' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ totalItems: 301, totalCapped: true });
    const chip = await t.call({ method: 'GET', url: '/machines', as: 'admin', query: { limit: '1', needsAdmin: 'true' } });
    expect(chip.json()).toMatchObject({ totalItems: s.needsAdmin - s.restricted.needsAdmin, totalCapped: false });
  });

  it('answer 400 with every field error for bad filter values', async () => {
    const res = await t.call({
      method: 'GET',
      url: '/machines',
      as: 'admin',
      query: { classId: '99', needsAdmin: 'yes', turbo: '1', unmanaged: '' },
    });
    expect(res.statusCode).toBe(400);
    const names = (res.json() as { errors: { propertyName: string }[] }).errors.map((e) => e.propertyName).sort();
    expect(names).toEqual(['classId', 'needsAdmin', 'turbo', 'unmanaged']);
    expect((await t.call({ method: 'GET', url: '/machines', as: 'admin', query: { classId: 'abc' } })).statusCode).toBe(400);
    expect((await t.call({ method: 'GET', url: '/machines', query: { needsAdmin: 'true' } })).statusCode).toBe(401);
  });
});

describe('GET /mma/stats', () => {
  it('names the classes on standby', async () => {
    const res = await t.call({ method: 'GET', url: '/mma/stats', as: 'viewer' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { standby: number; standbyClasses: { id: number; name: string }[] };
    expect(body.standbyClasses).toHaveLength(body.standby);
    expect(body.standbyClasses.map((c) => c.name)).toContain('Internal Testing');
  });
});
