import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount } from '../../../test/fixtures.js';
import { createAuditService, diffChanges } from './audit.service.js';
import type { TUserActivity } from '@fleet/contracts';

let t: TestApp;
let visibleId: number;
let hiddenId: number;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const audit = createAuditService({ db });
  const visible = await insertAccount(db, { name: 'Audit Visible', classId: 1 });
  const hidden = await insertAccount(db, { name: 'Audit Hidden', classId: 5 });
  visibleId = visible.id;
  hiddenId = hidden.id;
  for (let i = 0; i < 25; i++) {
    await db.transaction((tx) =>
      audit.record(tx, {
        action: i % 2 ? 'PushLicenseSettings' : 'PushAccountProperties',
        user: 'admin',
        accounts: [{ id: visible.id, name: visible.name, classId: 1 }],
        params: { step: i },
        changes: [{ entityName: 'Account', propertyName: 'description', oldValue: `d${i}`, newValue: `d${i + 1}` }],
      }),
    );
  }
  await db.transaction((tx) =>
    audit.record(tx, { action: 'DeleteAccount', user: 'admin', accounts: [{ id: hidden.id, name: hidden.name, classId: 5 }] }),
  );
});
afterAll(() => t.close());

const activities = async (as: string, query: Record<string, string>) => {
  const res = await t.call({ method: 'GET', url: '/user-activities', as, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TUserActivity[];
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

  it('hides activities on Customer Production accounts from users without the group', async () => {
    expect(await activities('admin', { accountId: String(hiddenId) })).toHaveLength(1);
    expect(await activities('operator', { accountId: String(hiddenId) })).toEqual([]);
    const all = await activities('operator', { action: 'DeleteAccount', limit: '1000' });
    expect(all.flatMap((a) => a.accounts.map((x) => x.id))).not.toContain(hiddenId);
  });

  it.each([
    [{ sortDirection: 'Newest' }, 'sortDirection'],
    [{ action: 'DropDatabase' }, 'action'],
    [{ accountId: 'x' }, 'accountId'],
    [{ limit: '0' }, 'limit'],
    [{ startIndex: '-5' }, 'startIndex'],
  ])('answers 400 for %o', async (query, field) => {
    const res = await t.call({ method: 'GET', url: '/user-activities', as: 'viewer', query: query as Record<string, string> });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
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
