/**
 * SQL of the accounts list, its footer statistics, lookups, launcher logins and
 * account deletion (spec 1 §2 Accounts list, §7 Accounts).
 *
 * The list is one statement (page and count), over accounts joined 1:1 with
 * `account_machine_status` (per-account machine counts and status flags kept by
 * triggers), so the status filters and alert icons never scan machines. Its total,
 * when only class and status filters apply, is a sum over `account_count_deltas`
 * (live accounts per class and status flags, see `db/account-counts.ts`).
 * A search matches, counts and ranks over `account_search` (the search vectors of
 * live accounts in narrow rows) rather than over the wide accounts rows; a
 * search of one short ASCII word over `account_search_prefixes` (its ranked
 * prefix rows, {@link searchPrefixOf}), where a broad word costs what a narrow
 * one does.
 */
import { and, asc, desc, eq, inArray, isNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  CLASS_ADD_ON,
  className,
  FOOTER_CLASS_IDS,
  type TAccountListItem,
  type TAccountSortField,
  type TAccountsInfo,
  type TMachineStatus,
  type TMachineStatusCounts,
} from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { statementName } from '../../db/prepared.js';
import {
  accountCountDeltas,
  accountMachineStatus as ams,
  accounts,
  accountSearch,
  accountSearchPrefixes,
  launcherLogins,
  machines,
  machineTasks,
  SEARCH_PREFIX_MAX_LENGTH,
  STATUS_BITS,
} from '../../db/schema.js';

export interface AccountFilter {
  search?: string;
  classIds?: number[];
  saasImage?: string;
  machineStatusInclude?: TMachineStatus[];
  machineStatusExclude?: TMachineStatus[];
  hiddenClassIds: number[];
}

/** The per-account count of live machines of each status (DESIGN §6), shown as alert icons. */
const STATUS_COUNT = {
  needsAdmin: ams.needsAdmin,
  unmanaged: ams.unmanaged,
  manualMaintenance: ams.manualMaintenance,
  stopped: ams.stopped,
  turbo: ams.turbo,
  obsolete: ams.obsolete,
  idle: ams.idle,
} as const satisfies Record<TMachineStatus, unknown>;

/** The columns of `account_machine_status` as a {@link TMachineStatusCounts} selection. */
export const MACHINE_STATS_COLUMNS = { machines: ams.machines, ...STATUS_COUNT };

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

/**
 * The word of a search that `account_search_prefixes` serves: one word of 1 to
 * {@link SEARCH_PREFIX_MAX_LENGTH} ASCII letters and digits (the prefixes the
 * table holds), or undefined (more words, a longer or non-ASCII word: ranked live).
 */
export function searchPrefixOf(search: string | undefined): string | undefined {
  const tsq = toPrefixTsQuery(search);
  const word = tsq?.endsWith(':*') ? tsq.slice(0, -2) : undefined;
  return word !== undefined && word.length <= SEARCH_PREFIX_MAX_LENGTH && /^[a-z0-9]+$/.test(word) ? word : undefined;
}

/** The account has a live machine of any of the statuses (coalesce: as if a status row were missing, no machines). */
function anyMachineWith(statuses: TMachineStatus[]): SQL {
  return sql`(${sql.join(
    statuses.map((st) => sql`coalesce(${STATUS_COUNT[st]}, 0) > 0`),
    sql` or `,
  )})`;
}

/**
 * The values of a filter as SQL: bound parameters (`boundValues`), or the
 * placeholders of a statement compiled once per {@link FilterShape}
 * (`PLACEHOLDERS`). Lists are one array parameter each, so that a statement's
 * text depends on which filters are set, not on their values.
 */
interface FilterValues {
  tsq: SQL;
  prefix: SQL;
  hiddenClassIds: SQL;
  classIds: SQL;
  saasImage: SQL;
}

const boundValues = (f: AccountFilter): FilterValues => ({
  tsq: sql`${toPrefixTsQuery(f.search) ?? ''}`,
  prefix: sql`${searchPrefixOf(f.search) ?? ''}`,
  hiddenClassIds: sql`${sql.param(f.hiddenClassIds)}`,
  classIds: sql`${sql.param(f.classIds ?? [])}`,
  saasImage: sql`${f.saasImage ?? ''}`,
});

const PLACEHOLDERS: FilterValues = {
  tsq: sql`${sql.placeholder('tsq')}`,
  prefix: sql`${sql.placeholder('prefix')}`,
  hiddenClassIds: sql`${sql.placeholder('hiddenClassIds')}`,
  classIds: sql`${sql.placeholder('classIds')}`,
  saasImage: sql`${sql.placeholder('saasImage')}`,
};

/** Which filters a list has: what decides the text of its statement. */
interface FilterShape {
  search: boolean;
  /** The search is one word that `account_search_prefixes` serves ({@link searchPrefixOf}). */
  byPrefix: boolean;
  hidesClasses: boolean;
  byClass: boolean;
  bySaasImage: boolean;
  /** Sorted, so that the same sets make the same text. */
  machineStatusInclude: TMachineStatus[];
  machineStatusExclude: TMachineStatus[];
}

function shapeOf(f: AccountFilter): FilterShape {
  return {
    search: toPrefixTsQuery(f.search) !== undefined,
    byPrefix: searchPrefixOf(f.search) !== undefined,
    hidesClasses: f.hiddenClassIds.length > 0,
    byClass: (f.classIds?.length ?? 0) > 0,
    bySaasImage: Boolean(f.saasImage),
    machineStatusInclude: [...new Set(f.machineStatusInclude ?? [])].sort(),
    machineStatusExclude: [...new Set(f.machineStatusExclude ?? [])].sort(),
  };
}

/** The live accounts whose search vector matches the prefix tsquery. */
const matches = (tsq: SQL) => sql`${accountSearch.search} @@ to_tsquery('simple', ${tsq})`;

/** The status filters, on the joined `account_machine_status` row. */
function statusConditions(f: FilterShape): SQL[] {
  // Conditions on the counts rather than on `status_flags`: the planner estimates
  // `count > 0` sensibly (and walks the name index to a page), a bitmask test not.
  const where: SQL[] = [];
  if (f.machineStatusInclude.length > 0) where.push(anyMachineWith(f.machineStatusInclude));
  if (f.machineStatusExclude.length > 0) where.push(sql`not ${anyMachineWith(f.machineStatusExclude)}`);
  return where;
}

/** The filter on `accounts` (joined with `account_machine_status` when it filters by status). */
function whereOf(f: FilterShape, v: FilterValues): SQL | undefined {
  const where: SQL[] = [isNull(accounts.deletedAt)];
  if (f.hidesClasses) where.push(sql`${accounts.classId} <> all(${v.hiddenClassIds}::int[])`);
  if (f.byClass) where.push(sql`${accounts.classId} = any(${v.classIds}::int[])`);
  if (f.bySaasImage) where.push(sql`${accounts.vmImageName} = ${v.saasImage}`);
  if (f.byPrefix) {
    const p = accountSearchPrefixes;
    where.push(inArray(accounts.id, sql`(select ${p.accountId} from ${p} where ${p.prefix} = ${v.prefix})`));
  } else if (f.search) {
    where.push(inArray(accounts.id, sql`(select ${accountSearch.accountId} from ${accountSearch} where ${matches(v.tsq)})`));
  }
  where.push(...statusConditions(f));
  return and(...where);
}

/**
 * The condition of a search on its narrow rows (live accounts only; the class
 * on the row itself): the prefix rows of its word in `account_search_prefixes`
 * when `source` is 'prefixes', else the vectors of `account_search`. The status
 * and image filters are semi-joins to `account_machine_status` and `accounts`
 * (one row per account each), so ranking and counting read the narrow rows, not
 * the accounts.
 */
function searchWhere(f: FilterShape, v: FilterValues, source: 'prefixes' | 'vectors' = f.byPrefix ? 'prefixes' : 'vectors'): SQL | undefined {
  const p = accountSearchPrefixes;
  const s =
    source === 'prefixes'
      ? { accountId: p.accountId, classId: p.classId, match: sql`${p.prefix} = ${v.prefix}` }
      : { accountId: accountSearch.accountId, classId: accountSearch.classId, match: matches(v.tsq) };
  const statusOf = (statuses: TMachineStatus[]) =>
    sql`exists (select 1 from ${ams} where ${ams.accountId} = ${s.accountId} and ${anyMachineWith(statuses)})`;
  return and(
    s.match,
    f.hidesClasses ? sql`${s.classId} <> all(${v.hiddenClassIds}::int[])` : undefined,
    f.byClass ? sql`${s.classId} = any(${v.classIds}::int[])` : undefined,
    f.bySaasImage ? sql`exists (select 1 from ${accounts} where ${accounts.id} = ${s.accountId} and ${accounts.vmImageName} = ${v.saasImage})` : undefined,
    f.machineStatusInclude.length > 0 ? statusOf(f.machineStatusInclude) : undefined,
    f.machineStatusExclude.length > 0 ? sql`not ${statusOf(f.machineStatusExclude)}` : undefined,
  );
}

/** The `status_flags` bits of the statuses. */
const flagsOf = (statuses: TMachineStatus[]) => statuses.reduce((mask, st) => mask | STATUS_BITS[st], 0);

const SORT_COLUMN = {
  name: accounts.name,
  description: accounts.description,
  creationTime: accounts.creationTime,
  expirationTime: accounts.expirationTime,
  creator: accounts.creator,
  class: accounts.classId,
} as const;


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

const filtersByStatus = (f: FilterShape) => f.machineStatusInclude.length + f.machineStatusExclude.length > 0;

/**
 * Live accounts matching the filter. With only class and status filters (the
 * common case, and the one that would otherwise scan every account) a sum over
 * the per-(class, flags) buckets; with a search, a count of the matches in
 * `account_search` (through its GIN index); with an image, a count of the
 * matching accounts.
 */
function countAccounts(db: DbOrTx, f: FilterShape, v: FilterValues) {
  if (f.byPrefix) return db.select({ n: sql<number>`count(*)::int` }).from(accountSearchPrefixes).where(searchWhere(f, v));
  if (f.search) return db.select({ n: sql<number>`count(*)::int` }).from(accountSearch).where(searchWhere(f, v));
  if (!f.bySaasImage) {
    const flags = accountCountDeltas.statusFlags;
    const where: SQL[] = [];
    // The masks follow from the shape's status sets: constants of the statement's text.
    if (f.machineStatusInclude.length > 0) where.push(sql`(${flags} & ${flagsOf(f.machineStatusInclude)}) <> 0`);
    if (f.machineStatusExclude.length > 0) where.push(sql`(${flags} & ${flagsOf(f.machineStatusExclude)}) = 0`);
    if (f.hidesClasses) where.push(sql`${accountCountDeltas.classId} <> all(${v.hiddenClassIds}::int[])`);
    if (f.byClass) where.push(sql`${accountCountDeltas.classId} = any(${v.classIds}::int[])`);
    return db
      .select({ n: sql<number>`coalesce(sum(${accountCountDeltas.n}), 0)::int` })
      .from(accountCountDeltas)
      .where(and(...where));
  }
  const query = db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return (filtersByStatus(f) ? query.leftJoin(ams, eq(ams.accountId, accounts.id)) : query).where(whereOf(f, v));
}

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
  const column = SORT_COLUMN[shape.sortBy ?? 'name'];
  const byColumn =
    shape.sortBy === 'expirationTime' ? sql`${column} ${sql.raw(shape.sortDirection === 'Descending' ? 'desc' : 'asc')} nulls last` : dir(column);
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
      .orderBy(sql`${p.rank} desc nulls last`, asc(p.name), asc(p.accountId))
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
      .orderBy(desc(sql`ts_rank('{0.1, 0.2, 0.5, 1.0}', ${s.search}, to_tsquery('simple', ${v.tsq}))`), dir(s.name), dir(s.accountId))
      .offset(startIndex)
      .limit(limit);
  } else {
    const idQuery = db.select({ id: accounts.id }).from(accounts);
    pageIds = (filtersByStatus(shape) ? idQuery.leftJoin(ams, eq(ams.accountId, accounts.id)) : idQuery)
      .where(whereOf(shape, v))
      .orderBy(byColumn, dir(accounts.id))
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

/** A page of visible accounts matching the filter, with the total (spec 1 §2 Accounts list, §7). */
export async function selectAccountPage(db: DbOrTx, q: AccountPageQuery): Promise<{ items: TAccountListItem[]; totalItems: number }> {
  const shape: AccountPageShape = { ...shapeOf(q), sortBy: q.sortBy, sortDirection: q.sortDirection };
  const prepared = preparedAccountPage(db, shape);
  const values = {
    tsq: toPrefixTsQuery(q.search) ?? '',
    prefix: searchPrefixOf(q.search) ?? '',
    hiddenClassIds: q.hiddenClassIds,
    classIds: q.classIds ?? [],
    saasImage: q.saasImage ?? '',
    startIndex: q.startIndex,
    limit: q.limit,
  };
  const rows = await prepared.page.execute(values);
  // An empty page (no match, or past the end) carries no total: count on its own.
  const totalItems = rows.length > 0 ? rows[0]!.totalItems : ((await prepared.count.execute(values))[0]?.n ?? 0);

  return {
    totalItems,
    items: rows.map(({ machineStats, totalItems: _total, ...r }) => ({
      ...r,
      creationTime: r.creationTime.toISOString(),
      expirationTime: r.expirationTime?.toISOString() ?? null,
      instancePolicy: r.instancePolicy as TAccountListItem['instancePolicy'],
      billingPeriod: r.billingPeriod as TAccountListItem['billingPeriod'],
      class: { id: r.classId, name: className(r.classId) },
      // Drizzle gives a left-joined object of nulls when the account has no status row.
      machineStats: machineStats?.machines == null ? EMPTY_COUNTS : (machineStats as TMachineStatusCounts),
    })),
  };
}

export async function selectAccountsInfo(db: DbOrTx, f: AccountFilter): Promise<TAccountsInfo> {
  const shape = shapeOf(f);
  const values = boundValues(f);
  const matching = db.select({ id: accounts.id }).from(accounts).leftJoin(ams, eq(ams.accountId, accounts.id)).where(whereOf(shape, values));
  const [totals, perClass, accountCounts] = await Promise.all([
    countAccounts(db, shape, values),
    db.execute<{ classId: number; machines: number }>(sql`
      select m.class_id as "classId", count(*)::int as machines
      from machines m where m.deleted_at is null and m.account_id in (${matching})
      group by m.class_id`),
    db.execute<TMachineStatusCounts & { kind: string }>(sql`
      select 'machines' as kind,
        coalesce(sum(s.machines), 0)::int as machines, coalesce(sum(s.needs_admin), 0)::int as "needsAdmin",
        coalesce(sum(s.unmanaged), 0)::int as unmanaged, coalesce(sum(s.manual_maintenance), 0)::int as "manualMaintenance",
        coalesce(sum(s.stopped), 0)::int as stopped, coalesce(sum(s.turbo), 0)::int as turbo,
        coalesce(sum(s.obsolete), 0)::int as obsolete, coalesce(sum(s.idle), 0)::int as idle
      from account_machine_status s where s.account_id in (${matching})
      union all
      select 'accounts' as kind,
        count(*) filter (where s.machines > 0)::int, count(*) filter (where s.needs_admin > 0)::int,
        count(*) filter (where s.unmanaged > 0)::int, count(*) filter (where s.manual_maintenance > 0)::int,
        count(*) filter (where s.stopped > 0)::int, count(*) filter (where s.turbo > 0)::int,
        count(*) filter (where s.obsolete > 0)::int, count(*) filter (where s.idle > 0)::int
      from account_machine_status s where s.account_id in (${matching})`),
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

/**
 * The accounts list's filter (spec 1 §2 Accounts list, §7) as a condition on
 * `accounts` left-joined with `account_machine_status` (the status filters read
 * it), with bound values: for other lists of accounts that filter as the list
 * does (the updater's targets, `modules/updater`).
 */
export function accountFilterCondition(f: AccountFilter): SQL | undefined {
  return whereOf(shapeOf(f), boundValues(f));
}

/** The number of live accounts matching the filter, counted as the accounts list counts its total. */
export async function countFilteredAccounts(db: DbOrTx, f: AccountFilter): Promise<number> {
  const [row] = await countAccounts(db, shapeOf(f), boundValues(f));
  return row?.n ?? 0;
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
  const live = await tx
    .update(machines)
    .set({ terminate: true })
    .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt)))
    .returning({ id: machines.id, name: machines.name });
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
