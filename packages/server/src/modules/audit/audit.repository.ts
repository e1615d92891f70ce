/**
 * SQL of the audit log (spec 2 §7 Audit). Writes take the caller's transaction so
 * that an activity is recorded with the change it describes, or not at all.
 */
import { and, asc, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import type { TAuditChange, TUserActivity } from '@fleet/contracts';
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
  const accounts = (entry.accounts ?? []).map((a) => ({ id: a.id, name: a.name, classId: a.classId }));
  const { rows } = await tx.execute<{ id: number }>(sql`
    with activity as (
      insert into ${auditActivities} (action, user_name, params, changes)
      values (${entry.action}, ${entry.user}, ${JSON.stringify(entry.params ?? {})}::jsonb, ${JSON.stringify(entry.changes ?? [])}::jsonb)
      returning id
    ), named as (
      insert into ${auditActivityAccounts} (activity_id, account_id, account_name, class_id)
      select activity.id, a.id, a.name, a."classId"
      from activity, jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb) as a(id int, name text, "classId" int)
    )
    select id from activity`);
  return rows[0]!.id;
}

export async function selectActivities(
  db: DbOrTx,
  q: { accountId?: number; action?: string; startIndex: number; limit: number; descending: boolean; hiddenClassIds: number[] },
): Promise<TUserActivity[]> {
  const where: SQL[] = [];
  if (q.action) where.push(eq(auditActivities.action, q.action));
  if (q.accountId) {
    where.push(
      sql`exists (select 1 from ${auditActivityAccounts} aa where aa.activity_id = ${auditActivities.id} and aa.account_id = ${q.accountId})`,
    );
  }
  if (q.hiddenClassIds.length > 0) {
    where.push(
      notExists(
        db
          .select({ one: sql`1` })
          .from(auditActivityAccounts)
          .where(
            and(
              eq(auditActivityAccounts.activityId, auditActivities.id),
              inArray(auditActivityAccounts.classId, q.hiddenClassIds),
            ),
          ),
      ),
    );
  }
  const order = q.descending ? [desc(auditActivities.time), desc(auditActivities.id)] : [asc(auditActivities.time), asc(auditActivities.id)];
  const rows = await db
    .select()
    .from(auditActivities)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(...order)
    .offset(q.startIndex)
    .limit(q.limit);
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
