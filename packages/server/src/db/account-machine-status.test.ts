/**
 * The triggers of migrations 0002 and 0008 keep `account_machine_status` equal to
 * a recount of live machines and to its account's class and liveness, whatever
 * statement changes them, and `account_count_deltas` equal to a count of live
 * accounts per (class, status flags), also across compactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { insertAccount } from '../../test/fixtures.js';
import { accountCountDeltas, accountMachineStatus, accounts, machines, STATUS_BITS } from './schema.js';
import { compactAccountCounts } from './account-counts.js';

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
    expect(await statusOf(a.id)).toMatchObject({ classId: 1, live: true, machines: 0, statusFlags: 0 });

    const rows = await db
      .insert(machines)
      .values([
        { accountId: a.id, name: 'a1', classId: 1, needsAdmin: true },
        { accountId: a.id, name: 'a2', classId: 1, managed: false, stop: true },
        { accountId: a.id, name: 'a3', classId: 1, currentVersions: { launcher: '1' }, desiredVersions: { launcher: '2' } },
      ])
      .returning();
    expect(await statusOf(a.id)).toMatchObject({
      machines: 3,
      needsAdmin: 1,
      unmanaged: 1,
      stopped: 1,
      obsolete: 1,
      turbo: 0,
      statusFlags: STATUS_BITS.needsAdmin | STATUS_BITS.unmanaged | STATUS_BITS.stopped | STATUS_BITS.obsolete,
    });

    await db.update(machines).set({ turbo: true, needsAdmin: false }).where(eq(machines.accountId, a.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 3, needsAdmin: 0, turbo: 3 });

    await db.update(machines).set({ accountId: b.id }).where(eq(machines.id, rows[0]!.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 2 });
    expect(await statusOf(b.id)).toMatchObject({ machines: 1, turbo: 1 });

    await db.update(machines).set({ deletedAt: sql`now()` }).where(eq(machines.id, rows[1]!.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 1, unmanaged: 0, stopped: 0 });

    await db.delete(machines).where(eq(machines.id, rows[2]!.id));
    expect(await statusOf(a.id)).toMatchObject({ machines: 0, obsolete: 0, turbo: 0, statusFlags: 0 });
  });

  it('sets one flag bit per status, in STATUS_BITS order', async () => {
    const db = t.database.db;
    const account = await insertAccount(db, { name: 'Trigger flags' });
    const one: Record<keyof typeof STATUS_BITS, Partial<typeof machines.$inferInsert>> = {
      needsAdmin: { needsAdmin: true },
      unmanaged: { managed: false },
      manualMaintenance: { manualMaintenance: true },
      stopped: { stop: true },
      turbo: { turbo: true },
      obsolete: { currentVersions: { launcher: '1' }, desiredVersions: { launcher: '2' } },
      idle: { idle: true },
    };
    for (const [status, values] of Object.entries(one)) {
      const [m] = await db.insert(machines).values({ accountId: account.id, name: `flag-${status}`, classId: 1, ...values }).returning();
      expect((await statusOf(account.id))?.statusFlags, status).toBe(STATUS_BITS[status as keyof typeof STATUS_BITS]);
      await db.delete(machines).where(eq(machines.id, m!.id));
    }
  });

  it("follows its account's class and deletion", async () => {
    const db = t.database.db;
    const account = await insertAccount(db, { name: 'Trigger class', classId: 2 });
    expect(await statusOf(account.id)).toMatchObject({ classId: 2, live: true });
    await db.update(accounts).set({ classId: 3 }).where(eq(accounts.id, account.id));
    expect(await statusOf(account.id)).toMatchObject({ classId: 3, live: true });
    await db.update(accounts).set({ deletedAt: sql`now()` }).where(eq(accounts.id, account.id));
    expect(await statusOf(account.id)).toMatchObject({ classId: 3, live: false });
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

  it('counts live accounts per class and flags through churn and concurrent compactions', async () => {
    const db = t.database.db;
    const mismatches = async () => {
      const { rows } = await db.execute<{ classId: number; statusFlags: number; buckets: number; actual: number }>(sql`
        select coalesce(b.class_id, r.class_id) as "classId", coalesce(b.status_flags, r.status_flags) as "statusFlags",
          coalesce(b.n, 0)::int as buckets, coalesce(r.n, 0)::int as actual
        from (select class_id, status_flags, sum(n) as n from account_count_deltas group by 1, 2) b
        full join (
          select a.class_id, coalesce(s.status_flags, 0) as status_flags, count(*) as n
          from accounts a left join account_machine_status s on s.account_id = a.id
          where a.deleted_at is null group by 1, 2
        ) r on r.class_id = b.class_id and r.status_flags = b.status_flags
        where coalesce(b.n, 0) <> coalesce(r.n, 0)`);
      return rows;
    };
    expect(await mismatches()).toEqual([]);
    await compactAccountCounts(db);

    // Writers and compactions at once: accounts created, machines flagged, classes
    // changed and accounts deleted while two compactions fold the deltas.
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => insertAccount(db, { name: `Churn ${i}`, classId: 1 + (i % 4) })));
    await Promise.all([
      ...created.map(async (account, i) => {
        await db.insert(machines).values([
          { accountId: account.id, name: `churn-${i}-a`, classId: 1, stop: i % 2 === 0 },
          { accountId: account.id, name: `churn-${i}-b`, classId: 1, turbo: i % 3 === 0, needsAdmin: i % 5 === 0 },
        ]);
        if (i % 3 === 1) await db.update(accounts).set({ classId: 4 }).where(eq(accounts.id, account.id));
        if (i % 4 === 2) await db.update(accounts).set({ deletedAt: sql`now()` }).where(eq(accounts.id, account.id));
        await db.update(machines).set({ stop: false }).where(eq(machines.accountId, account.id));
      }),
      compactAccountCounts(db),
      compactAccountCounts(db),
    ]);
    expect(await mismatches()).toEqual([]);

    const before = await db.select({ n: sql<number>`count(*)::int` }).from(accountCountDeltas);
    const folded = await compactAccountCounts(db);
    expect(folded).toBeGreaterThan(0);
    const after = await db.execute<{ rows: number; buckets: number }>(
      sql`select count(*)::int as rows, count(distinct (class_id, status_flags))::int as buckets from account_count_deltas`,
    );
    expect(after.rows[0]!.rows).toBe(after.rows[0]!.buckets);
    expect(after.rows[0]!.rows).toBeLessThan(before[0]!.n);
    expect(await mismatches()).toEqual([]);
    expect(await compactAccountCounts(db)).toBe(0);
  });
});
