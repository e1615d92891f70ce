/**
 * SQL of the version state calls (spec 2 §7 Machines `GET /machines/{id}/states`,
 * `/states/desired`, `/state-info`; the States viewer's `GET /version-states`):
 * stored states of a machine, newest first; pages of states and desired
 * versions across the visible fleet.
 */
import { and, count, desc, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import type { TComponentVersion } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
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

/** A stored state as the States viewer lists it, with its machine and the backups of its time. */
export interface ViewerStateRow {
  id: number;
  machineId: number;
  machineName: string;
  classId: number;
  current: boolean;
  timestamp: Date;
  components: VersionStateRow['components'];
  operationId: number | null;
  launcherBackup: string | null;
  siteMasterBackup: string | null;
}

/** A machine's desired versions as the States viewer lists them, with their cause's time and its newest backups. */
export interface ViewerDesiredRow {
  machineId: number;
  machineName: string;
  classId: number;
  desiredVersions: Record<string, string>;
  changedAt: Date | null;
  launcherBackup: string | null;
  siteMasterBackup: string | null;
}

/** `m` (a machine) and `a` (its account) are live and of no hidden class. */
function visibleMachine(hiddenClassIds: number[]): SQL {
  return and(
    sql`m.deleted_at is null and a.deleted_at is null`,
    hiddenClassIds.length > 0 ? notInArray(sql`m.class_id`, hiddenClassIds) : undefined,
    hiddenClassIds.length > 0 ? notInArray(sql`a.class_id`, hiddenClassIds) : undefined,
  )!;
}

/** Name of machine `machineId`'s newest backup of `software` made at or before `until` (SQL; null: no bound). */
const newestBackup = (machineId: SQL, software: string, until: SQL) => sql`(select b.name from backup_files b
  where b.machine_id = ${machineId} and b.software_name = ${software} and b.created_at <= coalesce(${until}, 'infinity')
  order by b.created_at desc limit 1)`;

export interface ViewerPageQuery {
  hiddenClassIds: number[];
  machineId?: number;
  startIndex: number;
  limit: number;
}

/**
 * A page of stored states (`current` true: current ones, false: historical
 * ones) of visible machines, newest first (timestamp, then id), with the total
 * counted at most `cap` rows. The page walks `version_states_current_idx` or
 * `version_states_historical_idx` (or the machine's `version_states_machine_idx`)
 * and stops after the page; the backups are read for the page's rows only
 * (`nulls last` only so that the order is the indexes' own: timestamps are
 * never null). A
 * historical state's backups are those made before the next state replaced it.
 */
export async function selectViewerStatePage(
  db: DbOrTx,
  q: ViewerPageQuery & { current: boolean; cap: number },
): Promise<{ rows: ViewerStateRow[]; total: number }> {
  const ids = sql`select v.id from version_states v join machines m on m.id = v.machine_id join accounts a on a.id = m.account_id
    where v.current = ${q.current} and ${visibleMachine(q.hiddenClassIds)}
      ${q.machineId !== undefined ? sql`and v.machine_id = ${q.machineId}` : sql``}
    order by v.timestamp desc nulls last, v.id desc nulls last`;
  const replacedAt = sql`(select min(n.timestamp) from version_states n where n.machine_id = v.machine_id and (n.timestamp, n.id) > (v.timestamp, v.id))`;
  const [page, counted] = await Promise.all([
    db.execute<ViewerStateRow & Record<string, unknown>>(sql`
      select v.id, v.machine_id as "machineId", m.name as "machineName", m.class_id as "classId", v.current,
        v.timestamp, v.components, v.operation_id as "operationId",
        ${newestBackup(sql`v.machine_id`, 'launcher', replacedAt)} as "launcherBackup",
        ${newestBackup(sql`v.machine_id`, 'siteMaster', replacedAt)} as "siteMasterBackup"
      from (${ids} offset ${q.startIndex} limit ${q.limit}) p
      join version_states v on v.id = p.id join machines m on m.id = v.machine_id
      order by v.timestamp desc nulls last, v.id desc nulls last`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from (${ids} limit ${q.cap}) x`),
  ]);
  return { rows: page.rows.map((r) => ({ ...r, timestamp: new Date(r.timestamp) })), total: counted.rows[0]?.n ?? 0 };
}

/**
 * A page of visible machines by id with their desired versions (the Desired
 * radio: one computed state per machine), the time of the activity that last
 * changed them, and their newest backups; the total counted at most `cap` rows.
 */
export async function selectViewerDesiredPage(
  db: DbOrTx,
  q: ViewerPageQuery & { cap: number },
): Promise<{ rows: ViewerDesiredRow[]; total: number }> {
  const ids = sql`select m.id from machines m join accounts a on a.id = m.account_id
    where ${visibleMachine(q.hiddenClassIds)} ${q.machineId !== undefined ? sql`and m.id = ${q.machineId}` : sql``}
    order by m.id`;
  const [page, counted] = await Promise.all([
    db.execute<ViewerDesiredRow & Record<string, unknown>>(sql`
      select m.id as "machineId", m.name as "machineName", m.class_id as "classId", m.desired_versions as "desiredVersions",
        (select t.time from audit_activities t where t.id = m.desired_activity_id) as "changedAt",
        ${newestBackup(sql`m.id`, 'launcher', sql`null::timestamptz`)} as "launcherBackup",
        ${newestBackup(sql`m.id`, 'siteMaster', sql`null::timestamptz`)} as "siteMasterBackup"
      from (${ids} offset ${q.startIndex} limit ${q.limit}) p join machines m on m.id = p.id
      order by m.id`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from (${ids} limit ${q.cap}) x`),
  ]);
  return { rows: page.rows.map((r) => ({ ...r, changedAt: r.changedAt ? new Date(r.changedAt) : null })), total: counted.rows[0]?.n ?? 0 };
}

/**
 * The commits named by several version maps (`{software: '{branch}|{shortHash}'}`)
 * in one statement, keyed `software|shortHash`; versions of no known commit are
 * absent.
 */
export async function selectCommitsOfMany(db: DbOrTx, versionMaps: Record<string, string>[]): Promise<Map<string, TComponentVersion>> {
  const pairs = new Map<string, { software: string; shortHash: string }>();
  for (const versions of versionMaps) {
    for (const [software, ref] of Object.entries(versions)) {
      const shortHash = ref.slice(ref.lastIndexOf('|') + 1);
      pairs.set(`${software}|${shortHash}`, { software, shortHash });
    }
  }
  if (pairs.size === 0) return new Map();
  const { rows } = await db.execute<{ software: string; branch_name: string; short_hash: string; timestamp: Date | string }>(sql`
    select c.software, b.name as branch_name, c.short_hash, c.timestamp
    from software_commits c join software_branches b on b.id = c.branch_id
    join jsonb_to_recordset(${JSON.stringify([...pairs.values()])}::jsonb) p(software text, "shortHash" text)
      on p.software = c.software and p."shortHash" = c.short_hash`);
  return new Map(
    rows.map((r) => [`${r.software}|${r.short_hash}`, { branchName: r.branch_name, shortHash: r.short_hash, timestamp: new Date(r.timestamp).toISOString() }]),
  );
}
