/**
 * `GET /user-activities` (spec 2 §7 Audit; issue 24 point 6): paging, sort, the
 * filters by account, action, user and time range, sign-ins hidden unless asked
 * for, the anchors of a timeline opened at one activity (`fromId`, `beforeId`),
 * the Customer Production rule, and 400 problem details for bad parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount } from '../../../test/fixtures.js';
import { createAuditService, diffChanges } from './audit.service.js';
import type { TUserActivity } from '@fleet/contracts';

let t: TestApp;
let visibleId: number;
let hiddenId: number;
/** Ids of the 25 activities on the visible account, oldest first. */
const steps: number[] = [];
/** Activities by user `filter-user`, with times set: 2026-01-10, 2026-01-20, 2026-01-30 (noon UTC). */
const timed: number[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const audit = createAuditService({ db });
  const visible = await insertAccount(db, { name: 'Audit Visible', classId: 1 });
  const hidden = await insertAccount(db, { name: 'Audit Hidden', classId: 5 });
  visibleId = visible.id;
  hiddenId = hidden.id;
  for (let i = 0; i < 25; i++) {
    steps.push(
      await db.transaction((tx) =>
        audit.record(tx, {
          action: i % 2 ? 'PushLicenseSettings' : 'PushAccountProperties',
          user: 'admin',
          accounts: [{ id: visible.id, name: visible.name, classId: 1 }],
          params: { step: i },
          changes: [{ entityName: 'Account', propertyName: 'description', oldValue: `d${i}`, newValue: `d${i + 1}` }],
        }),
      ),
    );
  }
  await db.transaction((tx) =>
    audit.record(tx, { action: 'DeleteAccount', user: 'admin', accounts: [{ id: hidden.id, name: hidden.name, classId: 5 }] }),
  );
  await db.transaction((tx) =>
    audit.record(tx, { action: 'PushLicenseSettings', user: 'cp-only-user', accounts: [{ id: hidden.id, name: hidden.name, classId: 5 }] }),
  );
  for (const day of ['2026-01-10', '2026-01-20', '2026-01-30']) {
    const id = await db.transaction((tx) => audit.record(tx, { action: 'UpdateSite', user: 'filter-user', params: { day } }));
    await db.execute(sql`update audit_activities set time = ${`${day}T12:00:00Z`}::timestamptz where id = ${id}`);
    timed.push(id);
  }
  // A sign-in, a failed one and a sign-out of the viewer.
  const token = await t.login('viewer');
  expect((await t.call({ method: 'POST', url: '/auth/login', body: { username: 'viewer', password: 'wrong' } })).statusCode).toBe(401);
  expect((await t.call({ method: 'POST', url: '/auth/logout', token })).statusCode).toBeLessThan(300);
});
afterAll(() => t.close());

const activities = async (as: string, query: Record<string, string>) => {
  const res = await t.call({ method: 'GET', url: '/user-activities', as, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TUserActivity[];
};
const problem = async (query: Record<string, string>) => {
  const res = await t.call({ method: 'GET', url: '/user-activities', as: 'viewer', query });
  return { status: res.statusCode, fields: ((res.json().errors ?? []) as { propertyName: string }[]).map((e) => e.propertyName) };
};

describe('GET /user-activities', () => {
  it('returns an array of 10 newest first by default, paged by startIndex until an empty page', async () => {
    const first = await activities('admin', { accountId: String(visibleId) });
    expect(Array.isArray(first)).toBe(true);
    expect(first).toHaveLength(10);
    expect(first[0]!.metadata.params).toEqual({ step: 24 });
    const third = await activities('admin', { accountId: String(visibleId), startIndex: '20' });
    expect(third).toHaveLength(5);
    expect(await activities('admin', { accountId: String(visibleId), startIndex: '30' })).toEqual([]);
  });

  it('sorts oldest first on request and filters by action', async () => {
    const oldest = await activities('admin', { accountId: String(visibleId), sortDirection: 'Ascending', limit: '3' });
    expect(oldest.map((a) => a.metadata.params.step)).toEqual([0, 1, 2]);
    const license = await activities('admin', { accountId: String(visibleId), action: 'PushLicenseSettings', limit: '100' });
    expect(license).toHaveLength(12);
    expect(license[0]).toMatchObject({
      action: 'PushLicenseSettings',
      user: 'admin',
      accounts: [{ id: visibleId, name: 'Audit Visible' }],
      metadata: { changes: [{ entityName: 'Account', propertyName: 'description', oldValue: 'd23', newValue: 'd24' }] },
    });
  });

  it('filters by user and by time range (both ends inclusive)', async () => {
    const mine = await activities('viewer', { user: 'filter-user', limit: '100' });
    expect(mine.map((a) => a.id)).toEqual([...timed].reverse());
    expect(await activities('viewer', { user: 'nobody-at-all' })).toEqual([]);
    const range = { user: 'filter-user', from: '2026-01-15T00:00:00Z', to: '2026-01-30T12:00:00+00:00' };
    expect((await activities('viewer', range)).map((a) => a.metadata.params.day)).toEqual(['2026-01-30', '2026-01-20']);
    expect((await activities('viewer', { from: '2026-01-10T12:00:00Z', to: '2026-01-10T12:00:00Z' })).map((a) => a.id)).toEqual([timed[0]]);
    // A zone other than UTC: 13:00 in Paris is noon UTC.
    expect((await activities('viewer', { user: 'filter-user', to: '2026-01-10T13:00:00+01:00' })).map((a) => a.id)).toEqual([timed[0]]);
  });

  it('leaves out sign-ins and sign-outs unless asked for, or named by action', async () => {
    const signIns = ['Login', 'LoginFailed', 'Logout'];
    const all = await activities('admin', { limit: '1000' });
    expect(all.length).toBeGreaterThan(30);
    expect(all.filter((a) => signIns.includes(a.action))).toEqual([]);
    const asked = await activities('admin', { limit: '1000', signIns: 'true', user: 'viewer' });
    expect(new Set(asked.map((a) => a.action))).toEqual(new Set(signIns));
    expect((await activities('admin', { signIns: 'false', user: 'viewer' })).filter((a) => signIns.includes(a.action))).toEqual([]);
    const logouts = await activities('admin', { action: 'Logout', user: 'viewer' });
    expect(logouts.map((a) => a.action)).toEqual(['Logout']);
  });

  it('opens a timeline at one activity: fromId starts at it, beforeId answers the ones just before it', async () => {
    const account = { accountId: String(visibleId) };
    const at = steps[10]!;
    const from = await activities('viewer', { ...account, fromId: String(at), limit: '3' });
    expect(from.map((a) => a.id)).toEqual([steps[10], steps[9], steps[8]]);
    const next = await activities('viewer', { ...account, fromId: String(at), startIndex: '3', limit: '3' });
    expect(next.map((a) => a.id)).toEqual([steps[7], steps[6], steps[5]]);
    const before = await activities('viewer', { ...account, beforeId: String(at), limit: '3' });
    expect(before.map((a) => a.id)).toEqual([steps[13], steps[12], steps[11]]);
    expect(await activities('viewer', { ...account, beforeId: String(steps[24]) })).toEqual([]);
    // Oldest first, the same in the other direction.
    const ascending = { ...account, sortDirection: 'Ascending', limit: '2' };
    expect((await activities('viewer', { ...ascending, fromId: String(at) })).map((a) => a.id)).toEqual([steps[10], steps[11]]);
    expect((await activities('viewer', { ...ascending, beforeId: String(at) })).map((a) => a.id)).toEqual([steps[8], steps[9]]);
    // An anchor the filters leave out still places the page: the license pushes (odd steps) from step 10 on.
    const license = await activities('viewer', { ...account, action: 'PushLicenseSettings', fromId: String(at), limit: '2' });
    expect(license.map((a) => a.id)).toEqual([steps[9], steps[7]]);
  });

  it('answers 404 for an unknown anchor or one the user may not see', async () => {
    const hiddenActivity = (await activities('admin', { accountId: String(hiddenId) }))[0]!.id;
    expect((await activities('admin', { fromId: String(hiddenActivity), limit: '1' })).map((a) => a.id)).toEqual([hiddenActivity]);
    for (const [as, query] of [
      ['operator', { fromId: String(hiddenActivity) }],
      ['operator', { beforeId: String(hiddenActivity) }],
      ['admin', { fromId: '2147483000' }],
    ] as const) {
      const res = await t.call({ method: 'GET', url: '/user-activities', as, query });
      expect(res.statusCode, `${as} ${JSON.stringify(query)}`).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('hides activities on Customer Production accounts from users without the group', async () => {
    expect(await activities('admin', { accountId: String(hiddenId) })).toHaveLength(2);
    expect(await activities('operator', { accountId: String(hiddenId) })).toEqual([]);
    const all = await activities('operator', { action: 'DeleteAccount', limit: '1000' });
    expect(all.flatMap((a) => a.accounts.map((x) => x.id))).not.toContain(hiddenId);
  });

  it.each([
    [{ sortDirection: 'Newest' }, ['sortDirection']],
    [{ action: 'DropDatabase' }, ['action']],
    [{ accountId: 'x' }, ['accountId']],
    [{ limit: '0' }, ['limit']],
    [{ startIndex: '-5' }, ['startIndex']],
    [{ user: '' }, ['user']],
    [{ user: 'u'.repeat(101) }, ['user']],
    [{ from: 'yesterday' }, ['from']],
    [{ from: '2026-01-10' }, ['from']],
    [{ to: '2026-01-10T12:00:00' }, ['to']],
    [{ from: 'x', to: 'y', signIns: 'yes' }, ['from', 'to', 'signIns']],
    [{ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, ['to']],
    [{ fromId: '0' }, ['fromId']],
    [{ beforeId: 'abc' }, ['beforeId']],
    [{ fromId: '5', beforeId: '6' }, ['beforeId']],
  ])('answers 400 naming every bad field for %o', async (query, fields) => {
    const { status, fields: named } = await problem(query as Record<string, string>);
    expect(status).toBe(400);
    expect(named.sort()).toEqual([...fields].sort());
  });

  it('needs a signed-in user', async () => {
    expect((await t.call({ method: 'GET', url: '/user-activities' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/user-activities/users' })).statusCode).toBe(401);
  });
});

describe('GET /user-activities/users', () => {
  it('lists the users of the visible activities once each', async () => {
    const users = (await t.call({ method: 'GET', url: '/user-activities/users', as: 'viewer' })).json() as string[];
    expect(users).toEqual(expect.arrayContaining(['admin', 'filter-user', 'viewer']));
    expect(new Set(users).size).toBe(users.length);
    // A user whose only activity concerns a Customer Production account is named to the group only.
    expect(users).not.toContain('cp-only-user');
    const admins = (await t.call({ method: 'GET', url: '/user-activities/users', as: 'admin' })).json() as string[];
    expect(admins).toContain('cp-only-user');
  });
});

describe('diffChanges', () => {
  it('lists only the properties whose value changed', () => {
    expect(diffChanges('Account', { a: 1, b: 'x', c: [1] }, { a: 1, b: 'y', c: [1, 2] })).toEqual([
      { entityName: 'Account', propertyName: 'b', oldValue: 'x', newValue: 'y' },
      { entityName: 'Account', propertyName: 'c', oldValue: [1], newValue: [1, 2] },
    ]);
  });
});
