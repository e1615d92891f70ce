/**
 * SQL of the accounts list's page, lookups, launcher logins and account
 * deletion (spec 1 §2 Accounts list, §7 Accounts). The list's search, filters,
 * total and footer statistics are in `accounts-filter.repository.ts`.
 *
 * The page is one statement (page and total), over accounts joined 1:1 with
 * `account_machine_status` (per-account machine counts and status flags kept by
 * triggers), so the status filters and alert icons never scan machines. A
 * search ranks over `account_search` (the search vectors of live accounts in
 * narrow rows) rather than over the wide accounts rows; a search of one short
 * ASCII word over `account_search_prefixes` (its ranked prefix rows, ranked
 * when the account changed).
 */
import { and, asc, desc, eq, isNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  CLASS_ADD_ON,
  className,
  type TAccountListItem,
  type TAccountListRow,
  type TAccountSortField,
  type TMachineStatusCounts,
} from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { statementName } from '../../db/prepared.js';
import { accountMachineStatus as ams, accounts, accountSearch, accountSearchPrefixes, launcherLogins, machines, machineTasks } from '../../db/schema.js';
import {
  countAccounts,
  EMPTY_COUNTS,
  filtersByStatus,
  PLACEHOLDERS,
  isRestricted,
  placeholderValues,
  searchRank,
  searchWhere,
  shapeOf,
  STATUS_COUNT,
  whereOf,
  type AccountFilter,
  type FilterShape,
} from './accounts-filter.repository.js';

/** The columns of `account_machine_status` as a {@link TMachineStatusCounts} selection. */
export const MACHINE_STATS_COLUMNS = { machines: ams.machines, ...STATUS_COUNT };

const SORT_COLUMN = {
  name: accounts.name,
  description: accounts.description,
  creationTime: accounts.creationTime,
  expirationTime: accounts.expirationTime,
  creator: accounts.creator,
  class: accounts.classId,
} as const;

/** The sort columns a restricted row shows (spec 1 §2): by any other, restricted rows come after the others. */
const SHOWN_BY_RESTRICTED: readonly TAccountSortField[] = ['name', 'class'];

type AccountPageQuery = AccountFilter & { sortBy?: TAccountSortField; sortDirection: 'Ascending' | 'Descending'; startIndex: number; limit: number };
type AccountPageShape = FilterShape & { sortBy?: TAccountSortField; sortDirection: 'Ascending' | 'Descending' };

/**
 * The statement of a page of accounts with its total, over placeholders: one
 * statement per shape (filters set, sort), so that Drizzle builds and writes it
 * once (building it cost a fifth of the server's CPU per request, issue 9
 * "The slow paths"), and PostgreSQL plans it once per connection.
 *
 * The page's ids first (an index-only walk in name order, or a narrow sort; a
 * deferred join, so deep pages never read wide rows), numbered by their
 * position, then only those rows with their status counts, and the total as a
 * scalar subquery evaluated once.
 */
function accountPageQuery(db: DbOrTx, shape: AccountPageShape) {
  const v = PLACEHOLDERS;
  const dir = shape.sortDirection === 'Descending' ? desc : asc;
  const sortBy = shape.sortBy ?? 'name';
  const column = SORT_COLUMN[sortBy];
  const direction = sql.raw(shape.sortDirection === 'Descending' ? 'desc' : 'asc');
  const restricted = isRestricted(accounts.classId, v);
  // By a column restricted rows do not show: they come after the others (in
  // either direction), by name among themselves, so that their order tells nothing.
  const byColumn: SQL[] =
    shape.restrictsClasses && !SHOWN_BY_RESTRICTED.includes(sortBy)
      ? [sql`case when ${restricted} then null else ${column} end ${direction} nulls last`, sql`case when ${restricted} then ${accounts.name} end asc nulls first`]
      : [sortBy === 'expirationTime' ? sql`${column} ${direction} nulls last` : dir(column)];
  const startIndex = sql.placeholder('startIndex');
  const limit = sql.placeholder('limit');
  let pageIds;
  if (!shape.sortBy && shape.byPrefix && shape.sortDirection === 'Ascending') {
    // By relevance, read in order from the prefix rows' index: the ranks were
    // computed when the account changed, with the expression below.
    const p = accountSearchPrefixes;
    pageIds = db
      .select({ id: p.accountId })
      .from(p)
      .where(searchWhere(shape, v, 'prefixes'))
      .orderBy(sql`${searchRank(shape, v, { classId: p.classId, name: p.name, rank: sql`${p.rank}` })} desc nulls last`, asc(p.name), asc(p.accountId))
      .offset(startIndex)
      .limit(limit);
  } else if (!shape.sortBy && shape.search) {
    // By relevance: ranked over the narrow `account_search` rows. Weights D, C, B,
    // A: name and urlFriendlyName (A) weigh twice customer and creator (B). Ties
    // by name and id, as `accounts.name` and `accounts.id` would order them.
    const s = accountSearch;
    pageIds = db
      .select({ id: s.accountId })
      .from(s)
      .where(searchWhere(shape, v, 'vectors'))
      .orderBy(
        desc(searchRank(shape, v, { classId: s.classId, name: s.name, rank: sql`ts_rank('{0.1, 0.2, 0.5, 1.0}', ${s.search}, to_tsquery('simple', ${v.tsq}))` })),
        dir(s.name),
        dir(s.accountId),
      )
      .offset(startIndex)
      .limit(limit);
  } else {
    const idQuery = db.select({ id: accounts.id }).from(accounts);
    pageIds = (filtersByStatus(shape) ? idQuery.leftJoin(ams, eq(ams.accountId, accounts.id)) : idQuery)
      .where(whereOf(shape, v))
      .orderBy(...byColumn, dir(accounts.id))
      .offset(startIndex)
      .limit(limit);
  }
  const page = db.$with('page').as(
    db
      .select({ id: sql<number>`p.id`.as('page_id'), pos: sql<number>`p.pos`.as('page_pos') })
      .from(sql`unnest(array(${pageIds})) with ordinality as p(id, pos)`),
  );
  const query = db
    .with(page)
    .select({
      totalItems: sql<number>`(${countAccounts(db, shape, v)})`.mapWith(Number),
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
      machineStats: MACHINE_STATS_COLUMNS,
    })
    .from(page)
    .innerJoin(accounts, eq(accounts.id, page.id))
    .leftJoin(ams, eq(ams.accountId, accounts.id))
    .orderBy(page.pos);
  return { page: query, count: countAccounts(db, shape, v) };
}

/**
 * The prepared page and count statements of each shape, per database handle
 * (a handle's prepared query runs on that handle). Shapes are few: the status
 * sets are the only open part (at most 128 × 128, in practice a handful).
 */
const accountPageQueries = new WeakMap<DbOrTx, Map<string, ReturnType<typeof prepareAccountPage>>>();

function prepareAccountPage(db: DbOrTx, shape: AccountPageShape) {
  const { page, count } = accountPageQuery(db, shape);
  return { page: page.prepare(statementName(page.toSQL().sql)), count: count.prepare(statementName(count.toSQL().sql)) };
}

function preparedAccountPage(db: DbOrTx, shape: AccountPageShape) {
  let byShape = accountPageQueries.get(db);
  if (!byShape) {
    byShape = new Map();
    accountPageQueries.set(db, byShape);
  }
  const key = JSON.stringify(shape);
  let prepared = byShape.get(key);
  if (!prepared) {
    prepared = prepareAccountPage(db, shape);
    byShape.set(key, prepared);
  }
  return prepared;
}

/**
 * A page of the accounts matching the filter, with the total (spec 1 §2
 * Accounts list, §7): full rows, and the accounts of `restrictedClassIds` as
 * restricted rows (id, name, class; see `accounts-filter.repository.ts` for
 * the filters they match).
 */
export async function selectAccountPage(db: DbOrTx, q: AccountPageQuery): Promise<{ items: TAccountListRow[]; totalItems: number }> {
  const shape: AccountPageShape = { ...shapeOf(q), sortBy: q.sortBy, sortDirection: q.sortDirection };
  const prepared = preparedAccountPage(db, shape);
  const values = { ...placeholderValues(q), startIndex: q.startIndex, limit: q.limit };
  const rows = await prepared.page.execute(values);
  // An empty page (no match, or past the end) carries no total: count on its own.
  const totalItems = rows.length > 0 ? rows[0]!.totalItems : ((await prepared.count.execute(values))[0]?.n ?? 0);

  const restricted = new Set(q.restrictedClassIds ?? []);
  return {
    totalItems,
    items: rows.map(({ machineStats, totalItems: _total, ...r }): TAccountListRow => {
      // Only what the row shows leaves the server.
      if (restricted.has(r.classId)) {
        return { restricted: true, id: r.id, name: r.name, classId: r.classId, class: { id: r.classId, name: className(r.classId) } };
      }
      return {
        restricted: false,
        ...r,
        creationTime: r.creationTime.toISOString(),
        expirationTime: r.expirationTime?.toISOString() ?? null,
        instancePolicy: r.instancePolicy as TAccountListItem['instancePolicy'],
        billingPeriod: r.billingPeriod as TAccountListItem['billingPeriod'],
        class: { id: r.classId, name: className(r.classId) },
        // Drizzle gives a left-joined object of nulls when the account has no status row.
        machineStats: machineStats?.machines == null ? EMPTY_COUNTS : (machineStats as TMachineStatusCounts),
      };
    }),
  };
}

export type AccountRow = typeof accounts.$inferSelect;

/** The condition of the live account `id` whose class is not hidden. */
export const visibleAccount = (id: number, hiddenClassIds: number[]) =>
  and(eq(accounts.id, id), isNull(accounts.deletedAt), hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined);

/** A live account the user may see, or undefined. */
export async function findVisibleAccount(db: DbOrTx, id: number, hiddenClassIds: number[], forUpdate = false) {
  const query = db
    .select({ id: accounts.id, name: accounts.name, classId: accounts.classId })
    .from(accounts)
    .where(visibleAccount(id, hiddenClassIds));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** Visible live accounts by name; with `parentCandidates`, only those an add-on may have as parent (spec 1 §5). */
export async function selectAccountLookup(db: DbOrTx, hiddenClassIds: number[], parentCandidates = false) {
  return db
    .select({ id: accounts.id, name: accounts.name, classId: accounts.classId })
    .from(accounts)
    .where(
      and(
        isNull(accounts.deletedAt),
        hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined,
        parentCandidates ? and(eq(accounts.isTemplate, false), isNull(accounts.parentId), ne(accounts.classId, CLASS_ADD_ON)) : undefined,
      ),
    )
    .orderBy(asc(accounts.name));
}

export async function selectLauncherLogins(db: DbOrTx, accountId: number) {
  return db.select().from(launcherLogins).where(eq(launcherLogins.accountId, accountId)).orderBy(asc(launcherLogins.userName));
}

/**
 * Marks the account deleted and its machines for termination, queueing one
 * TerminateMachine task per live machine. Answers the machines and the tasks.
 */
export async function softDeleteAccount(tx: DbOrTx, accountId: number): Promise<{ machineIds: number[]; taskIds: number[] }> {
  await tx.update(accounts).set({ deletedAt: sql`now()` }).where(eq(accounts.id, accountId));
  // UPDATE … RETURNING answers in the table's physical order: the tasks are queued by machine id.
  const live = (
    await tx
      .update(machines)
      .set({ terminate: true })
      .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt)))
      .returning({ id: machines.id, name: machines.name })
  ).sort((a, b) => a.id - b.id);
  let taskIds: number[] = [];
  if (live.length > 0) {
    const inserted = await tx.insert(machineTasks).values(
      live.map((m) => ({
        machineId: m.id,
        accountId,
        type: 'TerminateMachine',
        status: 'New',
        description: `Terminate machine ${m.name} (account deleted)`,
      })),
    ).returning({ id: machineTasks.id });
    taskIds = inserted.map((t) => t.id);
  }
  return { machineIds: live.map((m) => m.id), taskIds };
}
