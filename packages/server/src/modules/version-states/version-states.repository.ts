/**
 * SQL of the version state calls (spec 2 §7 Machines `GET /machines/{id}/states`,
 * `/states/desired`, `/state-info`): stored states of a machine, newest first.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
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
