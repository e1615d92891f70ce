/**
 * SQL of the accounts list, its footer statistics, lookups, launcher logins and
 * account deletion (spec 1 §2 Accounts list, §7 Accounts).
 *
 * The list is one page query plus one count and one per-page machine aggregate, so
 * its cost does not grow with the fleet beyond the filter itself.
 */
import { and, asc, desc, eq, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  className,
  FOOTER_CLASS_IDS,
  type TAccountListItem,
  type TAccountSortField,
  type TAccountsInfo,
  type TMachineStatus,
  type TMachineStatusCounts,
} from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accounts, launcherLogins, machines, machineTasks } from '../../db/schema.js';

export interface AccountFilter {
  search?: string;
  classIds?: number[];
  saasImage?: string;
  machineStatusInclude?: TMachineStatus[];
  machineStatusExclude?: TMachineStatus[];
  hiddenClassIds: number[];
}

/** The machine condition behind each status filter value (DESIGN §6). */
const STATUS_CONDITION: Record<TMachineStatus, SQL> = {
  needsAdmin: sql`m.needs_admin`,
  unmanaged: sql`not m.managed`,
  manualMaintenance: sql`m.manual_maintenance`,
  stopped: sql`m.stop`,
  turbo: sql`m.turbo`,
  obsolete: sql`m.obsolete`,
  idle: sql`m.idle`,
};

/**
 * Turns free text into a prefix tsquery (`acme:* & corp:*`). Only letters and
 * digits pass, so the text cannot inject tsquery syntax. Undefined when nothing is left.
 */
export function toPrefixTsQuery(search: string | undefined): string | undefined {
  if (!search) return undefined;
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 10);
  return words.length > 0 ? words.map((w) => `${w}:*`).join(' & ') : undefined;
}

function anyMachineWith(statuses: TMachineStatus[]): SQL {
  const conditions = sql.join(
    statuses.map((s) => STATUS_CONDITION[s]),
    sql` or `,
  );
  return sql`exists (select 1 from machines m where m.account_id = ${accounts.id} and m.deleted_at is null and (${conditions}))`;
}

function whereOf(f: AccountFilter): SQL | undefined {
  const where: SQL[] = [isNull(accounts.deletedAt)];
  if (f.hiddenClassIds.length > 0) where.push(notInArray(accounts.classId, f.hiddenClassIds));
  if (f.classIds && f.classIds.length > 0) where.push(inArray(accounts.classId, f.classIds));
  if (f.saasImage) where.push(eq(accounts.vmImageName, f.saasImage));
  const tsq = toPrefixTsQuery(f.search);
  if (tsq) where.push(sql`${accounts.search} @@ to_tsquery('simple', ${tsq})`);
  if (f.machineStatusInclude && f.machineStatusInclude.length > 0) where.push(anyMachineWith(f.machineStatusInclude));
  if (f.machineStatusExclude && f.machineStatusExclude.length > 0) where.push(sql`not ${anyMachineWith(f.machineStatusExclude)}`);
  return and(...where);
}

const SORT_COLUMN = {
  name: accounts.name,
  description: accounts.description,
  creationTime: accounts.creationTime,
  expirationTime: accounts.expirationTime,
  creator: accounts.creator,
  class: accounts.classId,
} as const;

const statusCountColumns = sql`
  count(*)::int as machines,
  count(*) filter (where m.needs_admin)::int as "needsAdmin",
  count(*) filter (where not m.managed)::int as unmanaged,
  count(*) filter (where m.manual_maintenance)::int as "manualMaintenance",
  count(*) filter (where m.stop)::int as stopped,
  count(*) filter (where m.turbo)::int as turbo,
  count(*) filter (where m.obsolete)::int as obsolete,
  count(*) filter (where m.idle)::int as idle`;

const EMPTY_COUNTS: TMachineStatusCounts = {
  machines: 0,
  needsAdmin: 0,
  unmanaged: 0,
  manualMaintenance: 0,
  stopped: 0,
  turbo: 0,
  obsolete: 0,
  idle: 0,
};

export async function selectAccountPage(
  db: DbOrTx,
  q: AccountFilter & { sortBy?: TAccountSortField; sortDirection: 'Ascending' | 'Descending'; startIndex: number; limit: number },
): Promise<{ items: TAccountListItem[]; totalItems: number }> {
  const where = whereOf(q);
  const tsq = toPrefixTsQuery(q.search);
  const dir = q.sortDirection === 'Descending' ? desc : asc;
  const order: SQL[] = [];
  if (!q.sortBy && tsq) {
    // Weights D, C, B, A: name and urlFriendlyName (A) weigh twice customer and creator (B).
    order.push(desc(sql`ts_rank('{0.1, 0.2, 0.5, 1.0}', ${accounts.search}, to_tsquery('simple', ${tsq}))`));
  }
  const column = SORT_COLUMN[q.sortBy ?? 'name'];
  order.push(q.sortBy === 'expirationTime' ? sql`${column} ${sql.raw(q.sortDirection === 'Descending' ? 'desc' : 'asc')} nulls last` : dir(column));
  order.push(dir(accounts.id));

  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: accounts.id,
        name: accounts.name,
        urlFriendlyName: accounts.urlFriendlyName,
        description: accounts.description,
        customer: accounts.customer,
        creator: accounts.creator,
        creationTime: accounts.creationTime,
        expirationTime: accounts.expirationTime,
        bundleVersion: accounts.bundleVersion,
        instancePolicy: accounts.instancePolicy,
        classId: accounts.classId,
        parentId: accounts.parentId,
        vmImageName: accounts.vmImageName,
        billingPeriod: accounts.billingPeriod,
        isTemplate: accounts.isTemplate,
      })
      .from(accounts)
      .where(where)
      .orderBy(...order)
      .offset(q.startIndex)
      .limit(q.limit),
    db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(where),
  ]);

  const stats = new Map<number, TMachineStatusCounts>();
  if (rows.length > 0) {
    const ids = rows.map((r) => r.id);
    const result = await db.execute<TMachineStatusCounts & { accountId: number }>(sql`
      select m.account_id as "accountId", ${statusCountColumns}
      from machines m
      where m.account_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and m.deleted_at is null
      group by m.account_id`);
    for (const { accountId, ...counts } of result.rows) stats.set(accountId, counts);
  }

  return {
    totalItems: count?.n ?? 0,
    items: rows.map((r) => ({
      ...r,
      creationTime: r.creationTime.toISOString(),
      expirationTime: r.expirationTime?.toISOString() ?? null,
      instancePolicy: r.instancePolicy as TAccountListItem['instancePolicy'],
      billingPeriod: r.billingPeriod as TAccountListItem['billingPeriod'],
      class: { id: r.classId, name: className(r.classId) },
      machineStats: stats.get(r.id) ?? EMPTY_COUNTS,
    })),
  };
}

export async function selectAccountsInfo(db: DbOrTx, f: AccountFilter): Promise<TAccountsInfo> {
  const matching = db.select({ id: accounts.id }).from(accounts).where(whereOf(f));
  const [totals, perClass, accountCounts] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(whereOf(f)),
    db.execute<{ classId: number; machines: number }>(sql`
      select m.class_id as "classId", count(*)::int as machines
      from machines m where m.deleted_at is null and m.account_id in (${matching})
      group by m.class_id`),
    db.execute<TMachineStatusCounts & { kind: string }>(sql`
      select 'machines' as kind, ${statusCountColumns}
      from machines m where m.deleted_at is null and m.account_id in (${matching})
      union all
      select 'accounts' as kind,
        count(*)::int, count(*) filter (where s.needs_admin)::int, count(*) filter (where s.unmanaged)::int,
        count(*) filter (where s.manual_maintenance)::int, count(*) filter (where s.stopped)::int,
        count(*) filter (where s.turbo)::int, count(*) filter (where s.obsolete)::int, count(*) filter (where s.idle)::int
      from (
        select m.account_id, bool_or(m.needs_admin) as needs_admin, bool_or(not m.managed) as unmanaged,
          bool_or(m.manual_maintenance) as manual_maintenance, bool_or(m.stop) as stopped, bool_or(m.turbo) as turbo,
          bool_or(m.obsolete) as obsolete, bool_or(m.idle) as idle
        from machines m where m.deleted_at is null and m.account_id in (${matching})
        group by m.account_id
      ) s`),
  ]);
  const byKind = new Map(accountCounts.rows.map(({ kind, ...counts }) => [kind, counts]));
  return {
    totalAccounts: totals[0]?.n ?? 0,
    classMachineCounts: FOOTER_CLASS_IDS.map((id) => ({
      id,
      name: className(id),
      machines: perClass.rows.find((r) => r.classId === id)?.machines ?? 0,
    })),
    machineCounts: byKind.get('machines') ?? EMPTY_COUNTS,
    accountCounts: byKind.get('accounts') ?? EMPTY_COUNTS,
  };
}

export type AccountRow = typeof accounts.$inferSelect;

/** A live account the user may see, or undefined. */
export async function findVisibleAccount(db: DbOrTx, id: number, hiddenClassIds: number[], forUpdate = false) {
  const query = db
    .select({ id: accounts.id, name: accounts.name, classId: accounts.classId })
    .from(accounts)
    .where(
      and(
        eq(accounts.id, id),
        isNull(accounts.deletedAt),
        hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined,
      ),
    );
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function selectAccountLookup(db: DbOrTx, hiddenClassIds: number[]) {
  return db
    .select({ id: accounts.id, name: accounts.name, classId: accounts.classId })
    .from(accounts)
    .where(and(isNull(accounts.deletedAt), hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined))
    .orderBy(asc(accounts.name));
}

export async function selectLauncherLogins(db: DbOrTx, accountId: number) {
  return db.select().from(launcherLogins).where(eq(launcherLogins.accountId, accountId)).orderBy(asc(launcherLogins.userName));
}

/**
 * Marks the account deleted and its machines for termination, queueing one
 * TerminateMachine task per live machine. Returns the queued task count.
 */
export async function softDeleteAccount(tx: DbOrTx, accountId: number): Promise<{ machineIds: number[] }> {
  await tx.update(accounts).set({ deletedAt: sql`now()` }).where(eq(accounts.id, accountId));
  const live = await tx
    .update(machines)
    .set({ terminate: true })
    .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt)))
    .returning({ id: machines.id, name: machines.name });
  if (live.length > 0) {
    await tx.insert(machineTasks).values(
      live.map((m) => ({
        machineId: m.id,
        accountId,
        type: 'TerminateMachine',
        status: 'New',
        description: `Terminate machine ${m.name} (account deleted)`,
      })),
    );
  }
  return { machineIds: live.map((m) => m.id) };
}
