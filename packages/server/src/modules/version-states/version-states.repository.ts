/**
 * SQL of the version state calls (spec 2 §7 Machines `GET /machines/{id}/states`,
 * `/states/desired`, `/state-info`; the States viewer's `GET /version-states`):
 * stored states of a machine, newest first; pages of states and desired
 * versions across the visible fleet.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { VERSION_STATE_COMPONENTS, type TSortOrder, type TVersionStateKind } from '@fleet/contracts';
import { cappedCount, cappedTotalFields, pageCtes, pageLimit } from '../../db/capped-count.js';
import type { DbOrTx } from '../../db/client.js';
import { queryPrepared } from '../../db/prepared.js';
import { classNameOf, isoTime, textArrayOf } from '../../db/sql-json.js';
import { classIs, joinedMachineAndAccountVisible, joinedMachineVisible, machineVisible } from '../../db/visible-machine.js';
import { auditActivities, versionStates } from '../../db/schema.js';

export type VersionStateRow = typeof versionStates.$inferSelect;

/** A page of the machine's stored states (`current` true: the current one, false: the historical ones), with the total. */
export async function selectStatePage(
  db: DbOrTx,
  q: { machineId: number; current?: boolean; startIndex: number; limit: number },
): Promise<{ rows: VersionStateRow[]; total: number }> {
  const where: SQL = and(eq(versionStates.machineId, q.machineId), q.current === undefined ? undefined : eq(versionStates.current, q.current))!;
  const [rows, [total]] = await Promise.all([
    db.select().from(versionStates).where(where).orderBy(desc(versionStates.timestamp), desc(versionStates.id)).offset(q.startIndex).limit(q.limit),
    db.select({ n: count() }).from(versionStates).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The time of an audit activity (the cause of a machine's desired versions), if it exists. */
export async function selectActivityTime(db: DbOrTx, activityId: number): Promise<Date | undefined> {
  const [row] = await db.select({ time: auditActivities.time }).from(auditActivities).where(eq(auditActivities.id, activityId));
  return row?.time;
}

// ---------------------------------------------------------------- the States viewer (every machine)


/** Name of machine `machineId`'s newest backup of `software` made at or before `until` (SQL; null: no bound). */
const newestBackup = (machineId: SQL, software: string, until: SQL) => sql`(select b.name from backup_files b
  where b.machine_id = ${machineId} and b.software_name = ${sql.raw(`'${software}'`)} and b.created_at <= coalesce(${until}, 'infinity')
  order by b.created_at desc limit 1)`;

export interface ViewerPageQuery {
  hiddenClassIds: number[];
  machineId?: number;
  /** The machine's class. */
  classId?: number;
  /** States in which this component is installed (with `branch`: a version of that branch). */
  component?: string;
  branch?: string;
  /** The stored states' time range (inclusive, ISO 8601); not for desired states. */
  from?: string;
  to?: string;
  /** The stored states' order by time: `desc` newest first (the default), `asc` oldest first. */
  order?: TSortOrder;
  startIndex: number;
  limit: number;
}

/**
 * The stored states' order, written as `version_states_current_idx` and
 * `version_states_historical_idx` are (`desc nulls last`), or exactly
 * backwards (`asc nulls first`), so that either direction walks the index.
 */
const stateOrder = (order: TSortOrder | undefined) =>
  order === 'asc' ? sql`v.timestamp asc nulls first, v.id asc nulls first` : sql`v.timestamp desc nulls last, v.id desc nulls last`;

/** The conditions of the stored state `v` on the filter: machine, component (and branch), time range (each `and …`, or nothing). */
function stateFilters(q: ViewerPageQuery): SQL {
  const component = q.component === undefined ? undefined : sql`${q.component}::text`;
  return sql`${q.machineId !== undefined ? sql`and v.machine_id = ${q.machineId}::int` : sql``}
    ${component && q.branch === undefined ? sql`and jsonb_typeof(v.components -> ${component}) = 'object'` : sql``}
    ${component && q.branch !== undefined ? sql`and v.components -> ${component} ->> 'branchName' = ${q.branch}::text` : sql``}
    ${q.from !== undefined ? sql`and v.timestamp >= ${q.from}::timestamptz` : sql``}
    ${q.to !== undefined ? sql`and v.timestamp <= ${q.to}::timestamptz` : sql``}`;
}

/**
 * The statement of a page of stored states (`current` true: current ones,
 * false: historical ones) of visible machines matching the filter (machine,
 * class, component and branch, time range), newest first (timestamp, then
 * id; `order` asc: oldest first): one row, `page`, the
 * TVersionStatesViewerPage as JSON text (`{ items, totalItems, totalCapped }`),
 * the total counted at most `cap` rows.
 *
 * The page walks `version_states_current_idx` or
 * `version_states_historical_idx` (or the machine's `version_states_machine_idx`),
 * either way, from the time range's end, and stops after the page; a short
 * page ends the list (db/capped-count.ts pageTotal), else the count
 * walks the same index newest first (a capped count is the same either way),
 * index-only without a component filter (it carries `machine_id`, migration
 * 0021), with each state's machine and account (`nulls last` only so that the
 * order is the indexes' own: timestamps are never null). The class and the
 * component are tested per row along the walk (a rare class or branch walks
 * further). The current flag is a literal, not a parameter: a generic plan
 * could not use the partial indexes otherwise. Each of the page's rows is
 * built in a lateral subquery (`limit 1`): the generic plan estimates a
 * parameter `limit` at a tenth of the table and would join back with a hash
 * join over every row. The backups are read for the
 * page's rows only; a historical state's backups are those made before the
 * next state replaced it.
 */
export function viewerStatePageStatement(q: ViewerPageQuery & { current: boolean; cap: number }): SQL {
  const only = sql`${q.current ? sql`v.current` : sql`not v.current`} ${stateFilters(q)}`;
  // The page tests visibility per row (db/visible-machine.ts: the generic plan would join every state and sort).
  // A class filter joins the machine (db/visible-machine.ts joinedMachineVisible: 39 → 4 ms for a class and a component).
  const ids =
    q.classId === undefined
      ? sql`select v.id from version_states v
    where ${only} and ${machineVisible(sql`v.machine_id`, { hiddenClassIds: q.hiddenClassIds, live: true })}
    order by ${stateOrder(q.order)}`
      : sql`select v.id from version_states v join machines m on m.id = v.machine_id and ${classIs(sql`m.class_id`, q.classId, q.hiddenClassIds)}
    where ${only} and ${joinedMachineVisible(q.hiddenClassIds)}
    order by ${stateOrder(q.order)}`;
  const counted = sql`select 1 from version_states v join machines m on m.id = v.machine_id join accounts a on a.id = m.account_id
    where ${only} and ${joinedMachineAndAccountVisible(q.hiddenClassIds)} ${q.classId !== undefined ? sql`and m.class_id = ${q.classId}::int` : sql``}
    order by ${stateOrder('desc')}`;
  const replacedAt = sql`(select min(n.timestamp) from version_states n where n.machine_id = v.machine_id and (n.timestamp, n.id) > (v.timestamp, v.id))`;
  const item = sql`json_build_object('id', v.id, 'machine', json_build_object('id', v.machine_id, 'name', m.name),
    'desired', false, 'current', v.current, 'timestamp', ${isoTime(sql`v.timestamp`)}, 'components', v.components,
    'operationId', v.operation_id, 'machineClassName', ${classNameOf(sql`m.class_id`)},
    'launcherBackup', ${newestBackup(sql`v.machine_id`, 'launcher', q.current ? sql`null::timestamptz` : replacedAt)},
    'siteMasterBackup', ${newestBackup(sql`v.machine_id`, 'siteMaster', q.current ? sql`null::timestamptz` : replacedAt)})`;
  return sql`with ${pageCtes(ids, q, cappedCount(counted, q.cap))}
    select json_build_object(
      'items', coalesce((select json_agg(x.item order by p.n)
        from p cross join lateral (select ${item} as item from version_states v join machines m on m.id = v.machine_id where v.id = p.id limit 1) x),
        '[]'::json),
      ${cappedTotalFields(sql`t.n`, q.cap)})::text as page
    from t`;
}

/**
 * The statement of a page of visible machines by id with their desired
 * versions (the Desired radio: one computed state per machine), filtered by
 * machine, class and component (a desired version of it; with `branch`, of
 * that branch; no time range): one row,
 * `page`, the TVersionStatesViewerPage as JSON text, the total counted at most
 * `cap` rows. A state's time is that of the activity that last changed the
 * machine's desired versions, else now; its components are the commits its
 * versions name (`{branch}|{shortHash}`; a version of no known commit is null),
 * read once for the page's distinct versions; its backups the newest.
 */
export function viewerDesiredPageStatement(q: ViewerPageQuery & { cap: number }): SQL {
  // A desired version is `{branch}|{shortHash}` (absent: not installed).
  const desired = q.component === undefined ? undefined : sql`m.desired_versions ->> ${q.component}::text`;
  const ids = sql`select m.id from machines m join accounts a on a.id = m.account_id
    where ${joinedMachineAndAccountVisible(q.hiddenClassIds)} ${q.machineId !== undefined ? sql`and m.id = ${q.machineId}::int` : sql``}
    ${q.classId !== undefined ? sql`and m.class_id = ${q.classId}::int` : sql``}
    ${desired && q.branch === undefined ? sql`and ${desired} is not null` : sql``}
    ${desired && q.branch !== undefined ? sql`and starts_with(${desired}, ${q.branch}::text || '|')` : sql``}
    order by m.id`;
  // The commits the page's versions name, once, as one object keyed `software|shortHash`
  // (the lowest id wins when two branches have the same short hash).
  const commits = sql`(select jsonb_object_agg(c.software || '|' || c.short_hash,
      jsonb_build_object('branchName', b.name, 'shortHash', c.short_hash, 'timestamp', ${isoTime(sql`c.timestamp`)}) order by c.id desc)
    from (select distinct e.key as software, split_part(e.value, '|', -1) as short_hash from r, jsonb_each_text(r.desired_versions) e) refs
    join software_commits c on c.software = refs.software and c.short_hash = refs.short_hash
    join software_branches b on b.id = c.branch_id)`;
  const components = sql`(select json_object_agg(k.software, cm.commits -> (k.software || '|' || split_part(r.desired_versions ->> k.software, '|', -1)) order by k.n)
    from unnest(${textArrayOf(VERSION_STATE_COMPONENTS)}) with ordinality k(software, n))`;
  const item = sql`json_build_object('id', null, 'machine', json_build_object('id', r.id, 'name', r.name),
    'desired', true, 'current', false,
    'timestamp', coalesce(${isoTime(sql`(select t.time from audit_activities t where t.id = r.desired_activity_id)`)}, ${isoTime(sql`statement_timestamp()`)}),
    'components', ${components}, 'operationId', null, 'machineClassName', ${classNameOf(sql`r.class_id`)},
    'launcherBackup', ${newestBackup(sql`r.id`, 'launcher', sql`null::timestamptz`)},
    'siteMasterBackup', ${newestBackup(sql`r.id`, 'siteMaster', sql`null::timestamptz`)})`;
  return sql`with r as materialized (
      select x.* from (${ids} offset ${q.startIndex}::int limit ${pageLimit(q.limit)}) p
      cross join lateral (select m.id, m.name, m.class_id, m.desired_versions, m.desired_activity_id from machines m where m.id = p.id limit 1) x),
    cm as materialized (select ${commits} as commits)
    select json_build_object(
      'items', coalesce((select json_agg(${item} order by r.id) from r, cm), '[]'::json),
      ${cappedTotalFields(sql`t.n`, q.cap)})::text as page
    from (${cappedCount(ids, q.cap)}) t(n)`;
}

/** A page of the States viewer as JSON text: stored states ({@link viewerStatePageStatement}) or desired ones ({@link viewerDesiredPageStatement}); a named prepared statement per shape. */
export async function selectViewerPageText(db: DbOrTx, q: ViewerPageQuery & { state: TVersionStateKind; cap: number }): Promise<string> {
  const statement = q.state === 'Desired' ? viewerDesiredPageStatement(q) : viewerStatePageStatement({ ...q, current: q.state === 'Current' });
  const [row] = await queryPrepared<{ page: string }>(db, statement);
  return row!.page;
}
