/**
 * `GET /user-activities/{id}` (issue 24 point 6): one activity with the machines
 * and accounts it names (their names now, only those the user may see and that
 * are not deleted), 400 for a bad id, 404 for an unknown or hidden one; and the
 * activity of a request that starts a rollout, which lists its targets' changes,
 * the first AUDIT_LISTED_TARGETS of them with a count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUDIT_LISTED_TARGETS, type TBatchResult, type TUserActivityDetail } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { createAuditService, namedIds } from './audit.service.js';

let t: TestApp;
const ids = { plain: 0, hidden: 0, named: 0 };
const rows = { account: { id: 0, name: '' }, machine: { id: 0, name: '' }, cpMachine: 0, deletedMachine: 0 };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const audit = createAuditService({ db });
  const account = await insertAccount(db, { name: 'Detail Visible', classId: 1 });
  const hiddenAccount = await insertAccount(db, { name: 'Detail Hidden', classId: 5 });
  const machine = await insertMachine(db, { accountId: account.id, name: 'detail-launcher-1' });
  const cpMachine = await insertMachine(db, { accountId: account.id, name: 'detail-cp-machine', classId: 5 });
  const deleted = await insertMachine(db, { accountId: account.id, name: 'detail-gone', deletedAt: new Date() });
  rows.account = { id: account.id, name: account.name };
  rows.machine = { id: machine.id, name: machine.name };
  rows.cpMachine = cpMachine.id;
  rows.deletedMachine = deleted.id;
  const visible = [{ id: account.id, name: account.name, classId: 1 }];
  ids.plain = await db.transaction((tx) => audit.record(tx, { action: 'UpdateSite', user: 'admin', accounts: visible, params: { siteId: 3 } }));
  ids.hidden = await db.transaction((tx) =>
    audit.record(tx, { action: 'DeleteAccount', user: 'admin', accounts: [{ id: hiddenAccount.id, name: hiddenAccount.name, classId: 5 }] }),
  );
  ids.named = await db.transaction((tx) =>
    audit.record(tx, {
      action: 'BatchUpdateMachines',
      user: 'admin',
      accounts: visible,
      params: { machineIds: [machine.id, cpMachine.id, deleted.id, 2_147_483_000] },
      changes: [
        { entityName: `Machine ${machine.id}`, propertyName: 'managed', oldValue: true, newValue: false },
        { entityName: `Machine ${cpMachine.id}`, propertyName: 'managed', oldValue: true, newValue: false },
        { entityName: `Account ${account.id}`, propertyName: 'description', oldValue: '', newValue: 'x' },
      ],
    }),
  );
});
afterAll(() => t.close());

const get = (id: number | string, as = 'admin') => t.call({ method: 'GET', url: `/user-activities/${id}`, as });

describe('GET /user-activities/{id}', () => {
  it('answers the activity as the list does', async () => {
    const res = await get(ids.plain, 'viewer');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: ids.plain,
      action: 'UpdateSite',
      user: 'admin',
      accounts: [rows.account],
      metadata: { params: { siteId: 3 }, changes: [] },
      named: { machines: [], accounts: [rows.account] },
    });
  });

  it('names the machines and accounts it refers to by id, only those the user may see and not deleted', async () => {
    const admin = (await get(ids.named)).json() as TUserActivityDetail;
    expect(admin.named.machines).toEqual([
      { id: rows.machine.id, name: 'detail-launcher-1', accountId: rows.account.id },
      { id: rows.cpMachine, name: 'detail-cp-machine', accountId: rows.account.id },
    ]);
    expect(admin.named.accounts).toEqual([rows.account]);
    const operator = (await get(ids.named, 'operator')).json() as TUserActivityDetail;
    expect(operator.named.machines.map((m) => m.id)).toEqual([rows.machine.id]);
  });

  it('answers 404 for an unknown activity and for one of a hidden account; 400 for a bad id; 401 signed out', async () => {
    expect((await get(ids.hidden)).statusCode).toBe(200);
    for (const [id, as, status] of [
      [ids.hidden, 'operator', 404],
      [ids.hidden, 'viewer', 404],
      [2_147_483_000, 'admin', 404],
      ['abc', 'admin', 400],
      ['0', 'admin', 400],
      ['2147483648', 'admin', 400],
      ['1.5', 'admin', 400],
    ] as const) {
      const res = await get(id, as);
      expect(res.statusCode, `${as} ${id}`).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (status === 400) expect(res.json().errors[0].propertyName).toBe('id');
    }
    expect((await t.call({ method: 'GET', url: `/user-activities/${ids.plain}` })).statusCode).toBe(401);
  });
});

describe('namedIds', () => {
  it('reads changes, params and accounts; ignores what is not an id; bounded', () => {
    const activity = {
      id: 1,
      action: 'X',
      user: 'u',
      time: '',
      accounts: [{ id: 9, name: 'n' }],
      metadata: {
        params: { machineId: 4, machines: [5, 'x', -1, 1.5], accountIds: [7], accounts: 'all', other: [99] },
        changes: [
          { entityName: 'Machine 3', propertyName: 'p', oldValue: 1, newValue: 2 },
          { entityName: 'Account 8', propertyName: 'p', oldValue: 1, newValue: 2 },
          { entityName: 'Machine config', propertyName: 'p', oldValue: 1, newValue: 2 },
          { entityName: 'Machine 3', propertyName: 'q', oldValue: 1, newValue: 2 },
        ],
      },
    };
    expect(namedIds(activity)).toEqual({ machineIds: [3, 4, 5], accountIds: [8, 7, 9] });
    const many = { ...activity, metadata: { params: { machineIds: Array.from({ length: 500 }, (_, i) => i + 1) }, changes: [] } };
    expect(namedIds(many).machineIds).toHaveLength(200);
  });
});

describe('the activity of a request that starts a rollout', () => {
  it('lists the changes of its first targets with their count; the detail names the machines', async () => {
    const db = t.database.db;
    const { rows: version } = await db.execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' and b.name = 'master' order by c.timestamp asc, c.id asc limit 1`);
    const { rows: machines } = await db.execute<{ id: number }>(sql`
      select m.id from machines m join accounts a on a.id = m.account_id
      where m.deleted_at is null and a.deleted_at is null and not m.terminate and not a.is_template and m.version_overrides = '{}'::jsonb
      order by m.id limit ${AUDIT_LISTED_TARGETS + 10}`);
    // Not in id order: the changes listed are the first targets of the request.
    const targets = machines.map((m) => m.id).reverse();
    expect(targets).toHaveLength(AUDIT_LISTED_TARGETS + 10);
    const body = { machines: targets, launcherVersionMode: 'Select', launcherVersion: version[0]!.v, rollout: { waves: [{ kind: 'count', value: 1 }] } };
    const res = await t.call({ method: 'POST', url: '/software-update/update-machines', as: 'admin', body });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json() as TBatchResult;

    const detail = (await get(started.activityId!)).json() as TUserActivityDetail;
    expect(detail.action).toBe('UpdateMachinesSoftware');
    expect(detail.metadata.params).toMatchObject({ rolloutId: started.rolloutId, changedTargets: targets.length, listedTargets: AUDIT_LISTED_TARGETS });
    const listed = targets.slice(0, AUDIT_LISTED_TARGETS);
    expect(detail.metadata.changes).toEqual(
      listed.map((id) => ({ entityName: `Machine ${id}`, propertyName: 'launcherVersion', oldValue: expect.any(String), newValue: `Select ${version[0]!.v}` })),
    );
    // Every target is named (params machineIds), with its name.
    const { rows: names } = await db.execute<{ id: number; name: string }>(sql`select id, name from machines where id = any(${sql.param(targets)}::int[]) order by id`);
    expect(detail.named.machines.map((m) => ({ id: m.id, name: m.name }))).toEqual(names);
  });
});
