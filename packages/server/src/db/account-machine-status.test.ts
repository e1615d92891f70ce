/**
 * The triggers of migration 0002 keep `account_machine_status` equal to a recount
 * of live machines, whatever statement changes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { insertAccount } from '../../test/fixtures.js';
import { accountMachineStatus, machines } from './schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const statusOf = async (accountId: number) =>
  (await t.database.db.select().from(accountMachineStatus).where(eq(accountMachineStatus.accountId, accountId)))[0];

describe('account_machine_status', () => {
  it('follows inserts, flag updates, moves between accounts, soft and hard deletes', async () => {
    const db = t.database.db;
    const a = await insertAccount(db, { name: 'Trigger A' });
    const b = await insertAccount(db, { name: 'Trigger B' });
    expect(await statusOf(a.id)).toBeUndefined();

    const rows = await db
      .insert(machines)
      .values([
        { accountId: a.id, name: 'a1', classId: 1, needsAdmin: true },
        { accountId: a.id, name: 'a2', classId: 1, managed: false, stop: true },
        { accountId: a.id, name: 'a3', classId: 1, currentVersions: { launcher: '1' }, desiredVersions: { launcher: '2' } },
      ])
      .returning();
    expect(await statusOf(a.id)).toMatchObject({ machines: 3, needsAdmin: 1, unmanaged: 1, stopped: 1, obsolete: 1, turbo: 0 });

    await db.update(machines).set({ turbo: true, needsAdmin: false }).where(eq(machines.accountId, a.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 3, needsAdmin: 0, turbo: 3 });

    await db.update(machines).set({ accountId: b.id }).where(eq(machines.id, rows[0]!.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 2 });
    expect(await statusOf(b.id)).toMatchObject({ machines: 1, turbo: 1 });

    await db.update(machines).set({ deletedAt: sql`now()` }).where(eq(machines.id, rows[1]!.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 1, unmanaged: 0, stopped: 0 });

    await db.delete(machines).where(eq(machines.id, rows[2]!.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 0, obsolete: 0, turbo: 0 });
  });

  it('equals a recount over the whole demo fleet', async () => {
    const { rows } = await t.database.db.execute(sql`
      select count(*)::int as mismatches from account_machine_status s
      full join (
        select account_id, count(*) as machines, count(*) filter (where needs_admin) as needs_admin,
          count(*) filter (where not managed) as unmanaged, count(*) filter (where stop) as stopped,
          count(*) filter (where obsolete) as obsolete, count(*) filter (where idle) as idle
        from machines where deleted_at is null group by account_id
      ) r on r.account_id = s.account_id
      where coalesce(s.machines, 0) <> coalesce(r.machines, 0) or coalesce(s.needs_admin, 0) <> coalesce(r.needs_admin, 0)
        or coalesce(s.unmanaged, 0) <> coalesce(r.unmanaged, 0) or coalesce(s.stopped, 0) <> coalesce(r.stopped, 0)
        or coalesce(s.obsolete, 0) <> coalesce(r.obsolete, 0) or coalesce(s.idle, 0) <> coalesce(r.idle, 0)`);
    expect(rows[0]).toEqual({ mismatches: 0 });
  });
});
