/**
 * SQL of the accounts list's search, filters and counts (spec 1 §2 Accounts
 * list, §7 Accounts): an {@link AccountFilter} (free-text search, classes, SaaS
 * image, machine statuses to include or exclude, the classes hidden from the
 * user) as conditions on `accounts` and on the narrow search rows, the total of
 * the matching live accounts, and the footer statistics. The page that sorts
 * and reads them is `accounts.repository.ts`; the updater's target lists
 * (`modules/updater`) filter and count with the same conditions.
 *
 * The status filters read `account_machine_status` (per-account machine counts
 * and status flags kept by triggers), so they never scan machines. The total,
 * when only class and status filters apply, is a sum over
 * `account_count_deltas` (live accounts per class and status flags, see
 * `db/account-counts.ts`). A search matches and counts over `account_search`
 * (the search vectors of live accounts in narrow rows) rather than over the
 * wide accounts rows; a search of one short ASCII word over
 * `account_search_prefixes` (its ranked prefix rows, {@link searchPrefixOf}),
 * where a broad word costs what a narrow one does.
 *
 * Each filter's values are bound parameters, or the placeholders of a
 * statement compiled once per {@link FilterShape}: text typed by a user never
 * becomes SQL (or tsquery syntax).
 *
 * Restricted rows (spec 1 §2: Customer Production accounts for a user outside
 * group CustomerProductionAccess, listed with their name and class only) match
 * only the filters on what they show: the class filter, and a search by the
 * words of their name (not URL name, customer or creator; ranked by the name
 * alone). A SaaS image or machine status filter tests what they do not show,
 * so with one of those they are left out ({@link resolveRestricted}); the list
 * sorts them after the others by a column they do not show
 * (`accounts.repository.ts`). So no answer depends on a hidden value of theirs.
 */
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { className, FOOTER_CLASS_IDS, type TAccountsInfo, type TMachineStatus, type TMachineStatusCounts, type ZAccountFilter } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import {
  accountCountDeltas,
  accountMachineStatus as ams,
  accounts,
  accountSearch,
  accountSearchPrefixes,
  SEARCH_PREFIX_MAX_LENGTH,
  STATUS_BITS,
} from '../../db/schema.js';
import { countScopedMachines, sumCounts } from '../machines/fleet-counts.js';

/**
 * The list's filter as the contract parses it (`ZAccountFilter`), the classes
 * hidden from the user (left out), and the classes whose accounts the list
 * shows as restricted rows (name and class only, see the module's docstring;
 * none when absent: the updater's target lists leave hidden classes out).
 */
export type AccountFilter = z.output<typeof ZAccountFilter> & { hiddenClassIds: number[]; restrictedClassIds?: number[] };

/**
 * The filter with its restricted classes resolved: left out (hidden) when a
 * filter tests what a restricted row does not show (SaaS image, machine
 * statuses), else kept restricted.
 */
export function resolveRestricted(f: AccountFilter): AccountFilter & { restrictedClassIds: number[] } {
  const restricted = f.restrictedClassIds ?? [];
  const testsHidden = Boolean(f.saasImage) || (f.machineStatusInclude?.length ?? 0) > 0 || (f.machineStatusExclude?.length ?? 0) > 0;
  if (restricted.length === 0 || !testsHidden) return { ...f, restrictedClassIds: restricted };
  return { ...f, hiddenClassIds: [...new Set([...f.hiddenClassIds, ...restricted])], restrictedClassIds: [] };
}

/** The per-account count of live machines of each status (DESIGN §6), shown as alert icons. */
export const STATUS_COUNT = {
  needsAdmin: ams.needsAdmin,
  unmanaged: ams.unmanaged,
  manualMaintenance: ams.manualMaintenance,
  stopped: ams.stopped,
  turbo: ams.turbo,
  obsolete: ams.obsolete,
  idle: ams.idle,
} as const satisfies Record<TMachineStatus, unknown>;

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
export interface FilterValues {
  tsq: SQL;
  prefix: SQL;
  hiddenClassIds: SQL;
  restrictedClassIds: SQL;
  classIds: SQL;
  saasImage: SQL;
}

/** The values of a filter by the names of its {@link PLACEHOLDERS} (what a compiled statement is executed with). */
export function placeholderValues(filter: AccountFilter) {
  const f = resolveRestricted(filter);
  return {
    tsq: toPrefixTsQuery(f.search) ?? '',
    prefix: searchPrefixOf(f.search) ?? '',
    hiddenClassIds: f.hiddenClassIds,
    restrictedClassIds: f.restrictedClassIds,
    classIds: f.classIds ?? [],
    saasImage: f.saasImage ?? '',
  };
}

const boundValues = (f: AccountFilter): FilterValues => {
  const v = placeholderValues(f);
  return {
    tsq: sql`${v.tsq}`,
    prefix: sql`${v.prefix}`,
    hiddenClassIds: sql`${sql.param(v.hiddenClassIds)}`,
    restrictedClassIds: sql`${sql.param(v.restrictedClassIds)}`,
    classIds: sql`${sql.param(v.classIds)}`,
    saasImage: sql`${v.saasImage}`,
  };
};

export const PLACEHOLDERS: FilterValues = {
  tsq: sql`${sql.placeholder('tsq')}`,
  prefix: sql`${sql.placeholder('prefix')}`,
  hiddenClassIds: sql`${sql.placeholder('hiddenClassIds')}`,
  restrictedClassIds: sql`${sql.placeholder('restrictedClassIds')}`,
  classIds: sql`${sql.placeholder('classIds')}`,
  saasImage: sql`${sql.placeholder('saasImage')}`,
};

/** Which filters a list has: what decides the text of its statement. */
export interface FilterShape {
  search: boolean;
  /** The search is one word that `account_search_prefixes` serves ({@link searchPrefixOf}). */
  byPrefix: boolean;
  hidesClasses: boolean;
  /** Some classes are listed as restricted rows (after {@link resolveRestricted}). */
  restrictsClasses: boolean;
  byClass: boolean;
  bySaasImage: boolean;
  /** Sorted, so that the same sets make the same text. */
  machineStatusInclude: TMachineStatus[];
  machineStatusExclude: TMachineStatus[];
}

export function shapeOf(filter: AccountFilter): FilterShape {
  const f = resolveRestricted(filter);
  return {
    search: toPrefixTsQuery(f.search) !== undefined,
    byPrefix: searchPrefixOf(f.search) !== undefined,
    hidesClasses: f.hiddenClassIds.length > 0,
    restrictsClasses: f.restrictedClassIds.length > 0,
    byClass: (f.classIds?.length ?? 0) > 0,
    bySaasImage: Boolean(f.saasImage),
    machineStatusInclude: [...new Set(f.machineStatusInclude ?? [])].sort(),
    machineStatusExclude: [...new Set(f.machineStatusExclude ?? [])].sort(),
  };
}

/** The live accounts whose search vector matches the prefix tsquery. */
const matches = (tsq: SQL) => sql`${accountSearch.search} @@ to_tsquery('simple', ${tsq})`;

/** The class is listed restricted (one array parameter). */
export const isRestricted = (classId: SQL | AnyPgColumn, v: FilterValues) => sql`${classId} = any(${v.restrictedClassIds}::int[])`;

/** The name's words alone, weighted as in the search vector (A): what a search of a restricted row matches and ranks. */
const nameVector = (name: SQL | AnyPgColumn) => sql`setweight(to_tsvector('simple', ${name}), 'A')`;

/**
 * A search's match of a row of class `classId` named `name`, on top of the
 * match of its search vector: a restricted row must match by its name alone.
 */
const restrictedByName = (classId: SQL | AnyPgColumn, name: SQL | AnyPgColumn, v: FilterValues) =>
  sql`(not ${isRestricted(classId, v)} or ${nameVector(name)} @@ to_tsquery('simple', ${v.tsq}))`;

/**
 * The rank of a search's match, `rank` for a row the user may open and the
 * rank of the name alone for a restricted row (as `ts_rank` over the search
 * vector ranks: name and URL name weigh twice customer and creator).
 */
export const searchRank = (f: FilterShape, v: FilterValues, o: { classId: SQL | AnyPgColumn; name: SQL | AnyPgColumn; rank: SQL }) =>
  f.restrictsClasses
    ? sql`case when ${isRestricted(o.classId, v)} then ts_rank('{0.1, 0.2, 0.5, 1.0}', ${nameVector(o.name)}, to_tsquery('simple', ${v.tsq})) else ${o.rank} end`
    : o.rank;

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
export function whereOf(f: FilterShape, v: FilterValues): SQL | undefined {
  const where: SQL[] = [isNull(accounts.deletedAt)];
  if (f.hidesClasses) where.push(sql`${accounts.classId} <> all(${v.hiddenClassIds}::int[])`);
  if (f.byClass) where.push(sql`${accounts.classId} = any(${v.classIds}::int[])`);
  if (f.bySaasImage) where.push(sql`${accounts.vmImageName} = ${v.saasImage}`);
  if (f.byPrefix) {
    const p = accountSearchPrefixes;
    const byName = f.restrictsClasses ? sql` and ${restrictedByName(p.classId, p.name, v)}` : sql``;
    where.push(inArray(accounts.id, sql`(select ${p.accountId} from ${p} where ${p.prefix} = ${v.prefix}${byName})`));
  } else if (f.search) {
    const s = accountSearch;
    const byName = f.restrictsClasses ? sql` and ${restrictedByName(s.classId, s.name, v)}` : sql``;
    where.push(inArray(accounts.id, sql`(select ${s.accountId} from ${s} where ${matches(v.tsq)}${byName})`));
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
export function searchWhere(f: FilterShape, v: FilterValues, source: 'prefixes' | 'vectors' = f.byPrefix ? 'prefixes' : 'vectors'): SQL | undefined {
  const p = accountSearchPrefixes;
  const s =
    source === 'prefixes'
      ? { accountId: p.accountId, classId: p.classId, name: p.name, match: sql`${p.prefix} = ${v.prefix}` }
      : { accountId: accountSearch.accountId, classId: accountSearch.classId, name: accountSearch.name, match: matches(v.tsq) };
  const statusOf = (statuses: TMachineStatus[]) =>
    sql`exists (select 1 from ${ams} where ${ams.accountId} = ${s.accountId} and ${anyMachineWith(statuses)})`;
  return and(
    s.match,
    f.restrictsClasses ? restrictedByName(s.classId, s.name, v) : undefined,
    f.hidesClasses ? sql`${s.classId} <> all(${v.hiddenClassIds}::int[])` : undefined,
    f.byClass ? sql`${s.classId} = any(${v.classIds}::int[])` : undefined,
    f.bySaasImage ? sql`exists (select 1 from ${accounts} where ${accounts.id} = ${s.accountId} and ${accounts.vmImageName} = ${v.saasImage})` : undefined,
    f.machineStatusInclude.length > 0 ? statusOf(f.machineStatusInclude) : undefined,
    f.machineStatusExclude.length > 0 ? sql`not ${statusOf(f.machineStatusExclude)}` : undefined,
  );
}

/** The `status_flags` bits of the statuses. */
const flagsOf = (statuses: TMachineStatus[]) => statuses.reduce((mask, st) => mask | STATUS_BITS[st], 0);

/** The counts of an account without a status row (no live machine), and of a footer with nothing matching. */
export const EMPTY_COUNTS: TMachineStatusCounts = {
  machines: 0,
  needsAdmin: 0,
  unmanaged: 0,
  manualMaintenance: 0,
  stopped: 0,
  turbo: 0,
  obsolete: 0,
  idle: 0,
};

/** The shape filters by machine status: the statement joins `account_machine_status`. */
export const filtersByStatus = (f: FilterShape) => f.machineStatusInclude.length + f.machineStatusExclude.length > 0;

/**
 * Live accounts matching the filter. With only class and status filters (the
 * common case, and the one that would otherwise scan every account) a sum over
 * the per-(class, flags) buckets; with a search, a count of the matches in
 * `account_search` (through its GIN index); with an image, a count of the
 * matching accounts.
 */
export function countAccounts(db: DbOrTx, f: FilterShape, v: FilterValues) {
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

/**
 * The footer statistics of the accounts matching the filter (spec 1 §2 Accounts
 * list; TAccountsInfo): their number (as the list counts its total); their
 * machines per footer class and of each machine status, counted in the one
 * scope of the top bar (`machines/fleet-counts.ts`: live machines of live
 * accounts; with every class listed the footer equals the top bar); and the
 * accounts having machines of each status, from `account_machine_status`.
 * The listed restricted rows count like the others (spec 1 §2: the footer's
 * counts are the fleet's); where a filter leaves them out, so does the footer.
 */
export async function selectAccountsInfo(db: DbOrTx, filter: AccountFilter): Promise<TAccountsInfo> {
  const f = resolveRestricted(filter);
  const shape = shapeOf(f);
  const values = boundValues(f);
  const matching = db.select({ id: accounts.id }).from(accounts).leftJoin(ams, eq(ams.accountId, accounts.id)).where(whereOf(shape, values));
  const [totals, perClass, accountCounts] = await Promise.all([
    countAccounts(db, shape, values),
    // The machines in the top bar's scope (machines/fleet-counts.ts), of the matching accounts.
    countScopedMachines(db, { hiddenClassIds: f.hiddenClassIds, accountIds: matching.getSQL() }),
    db.execute<TMachineStatusCounts>(sql`
      select
        count(*) filter (where s.machines > 0)::int as machines, count(*) filter (where s.needs_admin > 0)::int as "needsAdmin",
        count(*) filter (where s.unmanaged > 0)::int as unmanaged, count(*) filter (where s.manual_maintenance > 0)::int as "manualMaintenance",
        count(*) filter (where s.stopped > 0)::int as stopped, count(*) filter (where s.turbo > 0)::int as turbo,
        count(*) filter (where s.obsolete > 0)::int as obsolete, count(*) filter (where s.idle > 0)::int as idle
      from account_machine_status s where s.account_id in (${matching})`),
  ]);
  return {
    totalAccounts: totals[0]?.n ?? 0,
    classMachineCounts: FOOTER_CLASS_IDS.map((id) => ({
      id,
      name: className(id),
      machines: perClass.find((r) => r.classId === id)?.machines ?? 0,
    })),
    machineCounts: sumCounts(perClass),
    accountCounts: accountCounts.rows[0] ?? EMPTY_COUNTS,
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
