/**
 * SQL of the issue calls (spec 2 §2.5, §7 Issues; DESIGN §14): pages of issues,
 * one issue, its logs, and the Resolved flag. Issues are written by the engine
 * (`engine/issues/raise.ts`); here they are read and resolved.
 *
 * Visibility (DESIGN §5): an issue is visible when neither its machine's class
 * nor its account's class is hidden. Issues of deleted machines stay visible
 * in `GET /issues` (the viewer is a history, as the Operations viewer is).
 */
import { and, arrayContains, count, desc, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  ISSUE_TAG_SUGGESTIONS_SCAN,
  ISSUES_COUNT_AHEAD,
  type TIssue,
  type TIssueLog,
  type TIssuesPage,
  type TIssueSource,
  type TIssueSort,
  type TIssueStatus,
  type TIssueTagSuggestion,
  type TSortOrder,
} from '@fleet/contracts';
import { cappedCount, cappedTotalFields, countCap, pageTotal, pageLimit } from '../../db/capped-count.js';
import type { DbOrTx } from '../../db/client.js';
import { queryPrepared } from '../../db/prepared.js';
import { likePattern } from '../../db/like-pattern.js';
import { isoTime } from '../../db/sql-json.js';
import { classIs, machineVisible } from '../../db/visible-machine.js';
import { accounts, issueLogs, issues, machines } from '../../db/schema.js';

export interface IssueFilter {
  hiddenClassIds: number[];
  machineId?: number;
  /** The issue has every one of these tags. */
  tags?: string[];
  /** By the Resolved flag: open only (`unresolved`), resolved only, or `all` (default `all` here; the routes default to `unresolved`). */
  status?: TIssueStatus;
  /** The machine's class. */
  classId?: number;
  /** The last occurrence's time range (inclusive, ISO 8601). */
  from?: string;
  to?: string;
}

/** The order of a page: by last occurrence (the default), first occurrence or count, then id; newest (most) first unless `asc`. */
export interface IssueOrder {
  sort?: TIssueSort;
  order?: TSortOrder;
}

/** The status filter on the issue row `i`: `and not i.is_resolved`, `and i.is_resolved`, or nothing. */
function statusCondition(status: TIssueStatus | undefined): SQL {
  if (status === 'unresolved') return sql`and not i.is_resolved`;
  if (status === 'resolved') return sql`and i.is_resolved`;
  return sql``;
}

/**
 * The filter's conditions on the issue row `i` after `where` (visibility,
 * machine, tags, status, the last occurrence's range). Visibility is a scalar
 * subquery per row (db/visible-machine.ts), so that a page still walks its
 * index; the machine's class is a join ({@link walkFrom}).
 */
function walkConditions(f: IssueFilter): SQL {
  return sql`${machineVisible(sql`i.machine_id`, { hiddenClassIds: f.hiddenClassIds, live: false })}
    ${f.machineId !== undefined ? sql`and i.machine_id = ${f.machineId}::int` : sql``}
    ${f.tags && f.tags.length > 0 ? sql`and i.tags @> ${sql.param(f.tags)}::text[]` : sql``}
    ${statusCondition(f.status)}
    ${f.from !== undefined ? sql`and i.last_occurrence_time >= ${f.from}::timestamptz` : sql``}
    ${f.to !== undefined ? sql`and i.last_occurrence_time <= ${f.to}::timestamptz` : sql``}`;
}

/**
 * The issues a walk reads: `issues i`, joined with the machine when the filter
 * names its class. As a join the generic plan estimates the class from the
 * column's statistics (a sixth of the rows) and walks the order's index; as a
 * subquery per row (0.5 % assumed) it read and sorted every issue (24 → 5 ms).
 */
function walkFrom(f: IssueFilter): SQL {
  return f.classId === undefined ? sql`issues i` : sql`issues i join machines m on m.id = i.machine_id and ${classIs(sql`m.class_id`, f.classId, f.hiddenClassIds)}`;
}

function where(f: IssueFilter): SQL | undefined {
  return and(
    f.hiddenClassIds.length > 0 ? notInArray(machines.classId, f.hiddenClassIds) : undefined,
    f.hiddenClassIds.length > 0 ? notInArray(accounts.classId, f.hiddenClassIds) : undefined,
    f.machineId !== undefined ? eq(issues.machineId, f.machineId) : undefined,
    f.tags && f.tags.length > 0 ? arrayContains(issues.tags, f.tags) : undefined,
  );
}

const columns = {
  id: issues.id,
  machineId: issues.machineId,
  machineName: machines.name,
  source: issues.source,
  description: issues.description,
  tags: issues.tags,
  count: issues.count,
  firstOccurrenceTime: issues.firstOccurrenceTime,
  lastOccurrenceTime: issues.lastOccurrenceTime,
  isResolved: issues.isResolved,
  logCount: sql<number>`(select count(*)::int from issue_logs l where l.issue_id = ${issues.id})`,
};

/** A row as `columns` reads it. */
interface IssueRow {
  id: number;
  machineId: number;
  machineName: string;
  source: string;
  description: string;
  tags: string[];
  count: number;
  firstOccurrenceTime: Date;
  lastOccurrenceTime: Date;
  isResolved: boolean;
  logCount: number;
}

function toIssue(r: IssueRow): TIssue {
  return {
    id: r.id,
    machineId: r.machineId,
    machineName: r.machineName,
    source: r.source as TIssueSource,
    description: r.description,
    tags: r.tags,
    count: r.count,
    firstOccurrenceTime: r.firstOccurrenceTime.toISOString(),
    lastOccurrenceTime: r.lastOccurrenceTime.toISOString(),
    isResolved: r.isResolved,
    logCount: Number(r.logCount),
  };
}

/** The JSON of the issue row `i` with its machine `m` (TIssue, spec 2 §3 Issue). */
const issueJson = sql<TIssue>`json_build_object('id', i.id, 'machineId', i.machine_id, 'machineName', m.name, 'source', i.source,
  'description', i.description, 'tags', i.tags, 'count', i.count,
  'firstOccurrenceTime', ${isoTime(sql`i.first_occurrence_time`)}, 'lastOccurrenceTime', ${isoTime(sql`i.last_occurrence_time`)},
  'isResolved', i.is_resolved, 'logCount', (select count(*)::int from issue_logs l where l.issue_id = i.id))`;

/** The column of each order (issue 24 point 7), each the first column of its index. */
const SORT_COLUMNS: Record<TIssueSort, SQL> = {
  last: sql`i.last_occurrence_time`,
  first: sql`i.first_occurrence_time`,
  count: sql`i.count`,
};

/**
 * A list's order, written as its index is (`issues_last_idx`,
 * `issues_first_idx`, `issues_count_idx`: `desc nulls last`; the columns are
 * never null) or exactly backwards (`asc nulls first`): a plain `desc` means
 * `nulls first`, which no index has, and the planner then joined and sorted
 * every issue for each page (50 ms at 5,000 issues, where the walk takes
 * 0.5 ms). One machine's issues are few: they are read by
 * `issues_machine_last_idx` and sorted.
 */
function issueOrder(o: IssueOrder): SQL {
  const column = SORT_COLUMNS[o.sort ?? 'last'];
  return o.order === 'asc' ? sql`${column} asc nulls first, i.id asc nulls first` : sql`${column} desc nulls last, i.id desc nulls last`;
}

/** The default order: newest last occurrence first. */
const ISSUE_ORDER = issueOrder({});

/**
 * The statement of a page of visible issues matching the filter, newest last
 * occurrence first (then highest id) or in the order asked, with the total:
 * one row, `page`, the TIssuesPage as JSON text (`{ items, totalItems,
 * totalCapped }`).
 *
 * The page walks the order's index (`issues_last_idx`, `issues_first_idx`,
 * `issues_count_idx`, either way; `issues_machine_last_idx` for one machine)
 * and stops after `startIndex + limit` rows; the JSON is built for
 * the page's rows only, each in a lateral subquery (`limit 1`: the generic
 * plan estimates a parameter `limit` at a tenth of the table and would join
 * back with a hash join over every row). A short page that is not empty ends
 * the list, so its total is `startIndex` plus its rows; otherwise the matching
 * issues are counted on the same walk, at most `ISSUES_COUNT_AHEAD` past the
 * page (`totalCapped`). Hidden classes are tested per row
 * (db/visible-machine.ts): a join would let the generic plan join and sort
 * every issue. Issues of deleted machines stay listed, so without hidden
 * classes nothing is joined at all.
 */
export function issuePageStatement(f: IssueFilter & IssueOrder & { startIndex: number; limit: number }): SQL {
  const cap = countCap(f, ISSUES_COUNT_AHEAD);
  const walk = sql`from ${walkFrom(f)} where ${walkConditions(f)}
    order by ${issueOrder(f)}`;
  return sql`with p as materialized (select w.id, row_number() over () as n from (select i.id ${walk} offset ${f.startIndex}::int limit ${pageLimit(f.limit)}) w),
      n as (select count(*)::int as rows from p),
      t as materialized (select ${pageTotal(sql`n.rows`, f, cappedCount(sql`select 1 ${walk}`, cap))} as total from n)
    select json_build_object(
      'items', coalesce((select json_agg(x.issue order by p.n)
        from p cross join lateral (select ${issueJson} as issue from issues i join machines m on m.id = i.machine_id where i.id = p.id limit 1) x),
        '[]'::json),
      ${cappedTotalFields(sql`t.total`, cap)})::text as page
    from t`;
}

/**
 * A page of visible issues as JSON text (TIssuesPage, see
 * {@link issuePageStatement}), for the routes to send as it is
 * (lib/json-text.ts). A named prepared statement (db/prepared.ts), one per
 * filter shape.
 */
export async function selectIssuePageText(db: DbOrTx, f: IssueFilter & IssueOrder & { startIndex: number; limit: number }): Promise<string> {
  const [row] = await queryPrepared<{ page: string }>(db, issuePageStatement(f));
  return row!.page;
}

/** A page of visible issues (see {@link issuePageStatement}). */
export async function selectIssuePage(db: DbOrTx, f: IssueFilter & IssueOrder & { startIndex: number; limit: number }): Promise<TIssuesPage> {
  return JSON.parse(await selectIssuePageText(db, f)) as TIssuesPage;
}

/**
 * The tags in use on the visible issues matching the filter, for the tag
 * filter's suggestions: each tag with the number of matching issues carrying
 * it, most used first (then by name), without the filter's own tags, only
 * those containing `search` (case-insensitive, literally) when given, at most
 * `limit`. Counted over the newest `ISSUE_TAG_SUGGESTIONS_SCAN` matching
 * issues (a walk of `issues_last_idx`), so that its cost is bounded however
 * many issues there are.
 */
export async function selectIssueTags(
  db: DbOrTx,
  f: IssueFilter & { search?: string; limit: number },
): Promise<TIssueTagSuggestion[]> {
  const search = f.search ? sql`and t.tag ilike ${likePattern(f.search)}` : sql``;
  const chosen = f.tags && f.tags.length > 0 ? sql`and t.tag <> all(${sql.param(f.tags)}::text[])` : sql``;
  const { rows } = await db.execute<{ tag: string; issueCount: number }>(sql`
    with matching as (select i.tags from ${walkFrom(f)} where ${walkConditions(f)} order by ${ISSUE_ORDER} limit ${ISSUE_TAG_SUGGESTIONS_SCAN}::int)
    select t.tag, count(*)::int as "issueCount"
    from matching cross join lateral unnest(matching.tags) as t(tag)
    where true ${search} ${chosen}
    group by t.tag
    order by count(*) desc, t.tag
    limit ${f.limit}::int`);
  return rows;
}

/** One visible issue with its machine's account (for the audit), or undefined. `forUpdate` locks the issue row. */
export async function findVisibleIssue(db: DbOrTx, q: { id: number; hiddenClassIds: number[]; forUpdate?: boolean }) {
  const query = db
    .select({ ...columns, account: { id: accounts.id, name: accounts.name, classId: accounts.classId } })
    .from(issues)
    .innerJoin(machines, eq(machines.id, issues.machineId))
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(eq(issues.id, q.id), where({ hiddenClassIds: q.hiddenClassIds })));
  const [row] = q.forUpdate ? await query.for('update', { of: issues }) : await query;
  if (!row) return undefined;
  return { issue: toIssue(row), account: row.account };
}

/** Sets the Resolved flag (and `resolved_at` when resolving). */
export async function updateResolved(db: DbOrTx, id: number, isResolved: boolean): Promise<void> {
  await db
    .update(issues)
    .set({ isResolved, resolvedAt: isResolved ? sql`now()` : null })
    .where(eq(issues.id, id));
}

/** A page of the issue's logs, newest first, with the total. */
export async function selectIssueLogs(
  db: DbOrTx,
  q: { issueId: number; startIndex: number; limit: number },
): Promise<{ items: TIssueLog[]; totalItems: number }> {
  const rows = await db
    .select()
    .from(issueLogs)
    .where(eq(issueLogs.issueId, q.issueId))
    .orderBy(desc(issueLogs.id))
    .offset(q.startIndex)
    .limit(q.limit);
  const [total] = await db.select({ n: count() }).from(issueLogs).where(eq(issueLogs.issueId, q.issueId));
  return {
    items: rows.map((r) => ({
      id: r.id,
      timestamp: r.timestamp.toISOString(),
      content: r.content,
      tags: r.tags,
      size: r.size,
      complete: r.complete,
    })),
    totalItems: total?.n ?? 0,
  };
}
