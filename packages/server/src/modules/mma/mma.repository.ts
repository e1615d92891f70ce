/**
 * SQL of the MMA screen's writes and the instances list (spec 3 §2.7, §7 MMA;
 * DESIGN §12). (The classes list and the standby count are the fleet module's.)
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { machines, mmaClasses, mmaInstances, operations, saasImages } from '../../db/schema.js';
import { OPERATION_QUEUED_CHANNEL } from '../../engine/operations/operations.repository.js';

/** Every instance with its class name, by class id. */
export const selectInstances = (db: DbOrTx) =>
  db
    .select({ i: mmaInstances, className: mmaClasses.name })
    .from(mmaInstances)
    .innerJoin(mmaClasses, eq(mmaClasses.id, mmaInstances.classId))
    .orderBy(asc(mmaInstances.classId));

/**
 * A class and its instance, the class row locked until the transaction ends (which
 * serialises edits of the class and its instance); undefined when no class has `id`.
 */
export async function selectClassForUpdate(tx: DbOrTx, id: number) {
  const [row] = await tx
    .select({ c: mmaClasses, i: mmaInstances })
    .from(mmaClasses)
    .leftJoin(mmaInstances, eq(mmaInstances.classId, mmaClasses.id))
    .where(eq(mmaClasses.id, id))
    .for('update', { of: mmaClasses });
  return row;
}

/** The jump-start SaaS image of that name (any region), or undefined. */
export async function selectJumpStartImage(db: DbOrTx, name: string) {
  const [row] = await db
    .select({ name: saasImages.name })
    .from(saasImages)
    .where(and(eq(saasImages.name, name), eq(saasImages.jumpStart, true)))
    .limit(1);
  return row;
}

export async function updateClass(tx: DbOrTx, id: number, values: Pick<typeof mmaClasses.$inferInsert, 'name' | 'image' | 'changeWindows'>) {
  const [row] = await tx.update(mmaClasses).set(values).where(eq(mmaClasses.id, id)).returning();
  return row!;
}

export async function updateInstance(
  tx: DbOrTx,
  classId: number,
  values: Pick<typeof mmaInstances.$inferInsert, 'deployerVer' | 'deployerBranch' | 'deployerVerUpdatedAt' | 'standby' | 'priorityGroup' | 'caaHost' | 'mode'>,
) {
  const [row] = await tx.update(mmaInstances).set(values).where(eq(mmaInstances.classId, classId)).returning();
  return row!;
}

/**
 * Wakes the agents of the class's machines that have queued operations (the
 * NOTIFY the queue sends, delivered on commit), so that switching standby off
 * starts them at once rather than at the agent's next pass.
 */
export async function notifyQueuedOfClass(tx: DbOrTx, classId: number): Promise<number> {
  const rows = await tx
    .selectDistinct({ machineId: operations.machineId })
    .from(operations)
    .innerJoin(machines, eq(machines.id, operations.machineId))
    .where(and(eq(machines.classId, classId), isNull(operations.status)));
  const ids = rows.map((r) => r.machineId);
  for (let i = 0; i < ids.length; i += 500) {
    await tx.execute(sql`select pg_notify(${OPERATION_QUEUED_CHANNEL}, ${ids.slice(i, i + 500).join(',')})`);
  }
  return ids.length;
}
