/**
 * SQL of the audit log (spec 2 §7 Audit; issue 24 point 6). Writes take the
 * caller's transaction so that an activity is recorded with the change it
 * describes, or not at all. Reads leave out the activities that concern an
 * account of a hidden class (`hiddenClassIds`, DESIGN §5).
 */
import { and, asc, desc, eq, gte, inArray, lte, notExists, notInArray, sql, type SQL } from 'drizzle-orm';
import { SIGN_IN_ACTIONS, type TAuditChange, type TUserActivity, type TUserActivityDetail } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { auditActivities, auditActivityAccounts } from '../../db/schema.js';

export interface AuditEntry {
  action: string;
  user: string;
  accounts?: { id: number; name: string; classId: number }[];
  params?: Record<string, unknown>;
  changes?: TAuditChange[];
}

export async function insertActivity(tx: DbOrTx, entry: AuditEntry): Promise<number> {
  // One statement: the activity and the accounts it names (a round trip fewer on every audited change).
  const { rows } = await tx.execute<{ id: number }>(sql`with ${activityInserts(entry)} select id from activity`);
  return rows[0]!.id;
}

/**
 * The common table expressions that record `entry` inside a larger statement:
 * `activity` (its row; `returning id`) and `named` (the accounts it names).
 * Options: `id`, the activity's id (default: its sequence's next); `addParams`,
 * a jsonb expression merged into its params; `from`, the relation the insert
 * selects from (`addParams` may name its columns; no row there, no activity).
 */
export function activityInserts(entry: AuditEntry, o: { id?: SQL; addParams?: SQL; from?: SQL } = {}): SQL {
  const accounts = (entry.accounts ?? []).map((a) => ({ id: a.id, name: a.name, classId: a.classId }));
  const params = sql`${JSON.stringify(entry.params ?? {})}::jsonb${o.addParams ? sql` || ${o.addParams}` : sql``}`;
  return sql`activity as (
      insert into ${auditActivities} (${o.id ? sql`id, ` : sql``}action, user_name, params, changes)
      select ${o.id ? sql`${o.id}, ` : sql``}${entry.action}, ${entry.user}, ${params}, ${JSON.stringify(entry.changes ?? [])}::jsonb
      ${o.from ? sql`from ${o.from}` : sql``}
      returning id
    ), named as (
      insert into ${auditActivityAccounts} (activity_id, account_id, account_name, class_id)
      select activity.id, a.id, a.name, a."classId"
      from activity, jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb) as a(id int, name text, "classId" int)
    )`;
}

/** What the list keeps (all optional but the visibility and the sign-in switch). */
export interface ActivityFilter {
  accountId?: number;
  action?: string;
  user?: string;
  from?: Date;
  to?: Date;
  /** False: Login, LoginFailed and Logout are left out, unless `action` names one. */
  signIns: boolean;
  hiddenClassIds: number[];
}

/** The page: offset and size, the order, and at most one anchor (an activity id; see `ZUserActivitiesQuery`). */
export interface ActivityPage {
  startIndex: number;
  limit: number;
  descending: boolean;
  fromId?: number;
  beforeId?: number;
}

/** SQL boolean: the activity concerns no account of a hidden class. */
function visible(db: DbOrTx, hiddenClassIds: number[]): SQL | undefined {
  if (hiddenClassIds.length === 0) return undefined;
  return notExists(
    db
      .select({ one: sql`1` })
      .from(auditActivityAccounts)
      .where(and(eq(auditActivityAccounts.activityId, auditActivities.id), inArray(auditActivityAccounts.classId, hiddenClassIds))),
  );
}

function filterConditions(db: DbOrTx, f: ActivityFilter): SQL[] {
  const where: (SQL | undefined)[] = [
    f.action ? eq(auditActivities.action, f.action) : f.signIns ? undefined : notInArray(auditActivities.action, [...SIGN_IN_ACTIONS]),
    f.user ? eq(auditActivities.userName, f.user) : undefined,
    f.from ? gte(auditActivities.time, f.from) : undefined,
    f.to ? lte(auditActivities.time, f.to) : undefined,
    f.accountId
      ? sql`exists (select 1 from ${auditActivityAccounts} aa where aa.activity_id = ${auditActivities.id} and aa.account_id = ${f.accountId})`
      : undefined,
    visible(db, f.hiddenClassIds),
  ];
  return where.filter((c): c is SQL => c !== undefined);
}

/**
 * SQL boolean: the row is on `side` of activity `id` in the order (time, id)
 * (a scalar row subquery, so that the anchor's time keeps its microseconds).
 */
function beside(id: number, side: '<' | '<=' | '>' | '>='): SQL {
  return sql`(${auditActivities.time}, ${auditActivities.id}) ${sql.raw(side)} (select x.time, x.id from ${auditActivities} x where x.id = ${id})`;
}

/** Whether activity `id` exists and the user may see it. */
export async function activityVisible(db: DbOrTx, id: number, hiddenClassIds: number[]): Promise<boolean> {
  const rows = await db
    .select({ id: auditActivities.id })
    .from(auditActivities)
    .where(and(eq(auditActivities.id, id), visible(db, hiddenClassIds)));
  return rows.length > 0;
}

type ActivityRow = typeof auditActivities.$inferSelect;

/** The rows with the accounts each names (one more query for the page). */
async function withAccounts(db: DbOrTx, rows: ActivityRow[]): Promise<TUserActivity[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select()
    .from(auditActivityAccounts)
    .where(inArray(auditActivityAccounts.activityId, rows.map((r) => r.id)));
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    user: r.userName,
    time: r.time.toISOString(),
    accounts: links.filter((l) => l.activityId === r.id).map((l) => ({ id: l.accountId, name: l.accountName })),
    metadata: { params: r.params, changes: r.changes },
  }));
}

/**
 * One page of the activities matching `f`, in the page's order. With `beforeId`
 * the rows are read in the opposite order (the nearest first) and turned back.
 * The anchor must exist (the service checks it: 404).
 */
export async function selectActivities(db: DbOrTx, f: ActivityFilter, page: ActivityPage): Promise<TUserActivity[]> {
  const where = filterConditions(db, f);
  const { descending } = page;
  if (page.fromId !== undefined) where.push(beside(page.fromId, descending ? '<=' : '>='));
  if (page.beforeId !== undefined) where.push(beside(page.beforeId, descending ? '>' : '<'));
  const backwards = page.beforeId !== undefined ? !descending : descending;
  const order = backwards ? [desc(auditActivities.time), desc(auditActivities.id)] : [asc(auditActivities.time), asc(auditActivities.id)];
  const rows = await db
    .select()
    .from(auditActivities)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(...order)
    .offset(page.startIndex)
    .limit(page.limit);
  if (page.beforeId !== undefined) rows.reverse();
  return withAccounts(db, rows);
}

/** Activity `id` if it exists and the user may see it. */
export async function selectActivity(db: DbOrTx, id: number, hiddenClassIds: number[]): Promise<TUserActivity | undefined> {
  const rows = await db
    .select()
    .from(auditActivities)
    .where(and(eq(auditActivities.id, id), visible(db, hiddenClassIds)));
  return (await withAccounts(db, rows))[0];
}

/** The distinct users of the activities the user may see, by name, at most `limit`. */
export async function selectActivityUsers(db: DbOrTx, hiddenClassIds: number[], limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ user: auditActivities.userName })
    .from(auditActivities)
    .where(visible(db, hiddenClassIds))
    .orderBy(asc(auditActivities.userName))
    .limit(limit);
  return rows.map((r) => r.user);
}

/**
 * The machines and accounts of `machineIds` / `accountIds` that exist, are not
 * deleted and are visible (neither the machine's nor its account's class
 * hidden), with their names, by id.
 */
export async function selectNamed(
  db: DbOrTx,
  o: { machineIds: number[]; accountIds: number[]; hiddenClassIds: number[] },
): Promise<TUserActivityDetail['named']> {
  const hidden = sql.param(o.hiddenClassIds);
  // One after the other: `db` may be a transaction's one connection.
  const machines =
    o.machineIds.length === 0
      ? { rows: [] }
      : await db.execute<{ id: number; name: string; accountId: number }>(sql`
          select m.id, m.name, m.account_id as "accountId" from machines m join accounts a on a.id = m.account_id
          where m.id = any(${sql.param(o.machineIds)}::int[]) and m.deleted_at is null and a.deleted_at is null
            and m.class_id <> all(${hidden}::int[]) and a.class_id <> all(${hidden}::int[])
          order by m.id`);
  const accounts =
    o.accountIds.length === 0
      ? { rows: [] }
      : await db.execute<{ id: number; name: string }>(sql`
          select a.id, a.name from accounts a
          where a.id = any(${sql.param(o.accountIds)}::int[]) and a.deleted_at is null and a.class_id <> all(${hidden}::int[])
          order by a.id`);
  return { machines: machines.rows, accounts: accounts.rows };
}
