/**
 * SQL of notifications (spec 2 §7 Notifications): one message row per target
 * machine, pending until delivered.
 */
import { and, count, desc, eq, isNull, notInArray } from 'drizzle-orm';
import type { TPendingMessage } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accounts, machines, notificationMessages } from '../../db/schema.js';

export async function insertMessages(
  tx: DbOrTx,
  rows: { machineId: number; title: string; body: string; priority: string; sentBy: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx.insert(notificationMessages).values(rows).returning({ id: notificationMessages.id });
  return inserted.length;
}

/** Pending messages of visible live machines, newest first. */
export async function selectPendingMessages(
  db: DbOrTx,
  q: { hiddenClassIds: number[]; machineId?: number; startIndex: number; limit: number },
): Promise<{ items: TPendingMessage[]; totalItems: number }> {
  const where = and(
    isNull(notificationMessages.deliveredAt),
    isNull(machines.deletedAt),
    isNull(accounts.deletedAt),
    q.machineId !== undefined ? eq(notificationMessages.machineId, q.machineId) : undefined,
    q.hiddenClassIds.length > 0 ? notInArray(machines.classId, q.hiddenClassIds) : undefined,
    q.hiddenClassIds.length > 0 ? notInArray(accounts.classId, q.hiddenClassIds) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ message: notificationMessages, machineName: machines.name })
      .from(notificationMessages)
      .innerJoin(machines, eq(machines.id, notificationMessages.machineId))
      .innerJoin(accounts, eq(accounts.id, machines.accountId))
      .where(where)
      .orderBy(desc(notificationMessages.createdAt), desc(notificationMessages.id))
      .offset(q.startIndex)
      .limit(q.limit),
    db
      .select({ n: count() })
      .from(notificationMessages)
      .innerJoin(machines, eq(machines.id, notificationMessages.machineId))
      .innerJoin(accounts, eq(accounts.id, machines.accountId))
      .where(where),
  ]);
  return {
    totalItems: total?.n ?? 0,
    items: rows.map(({ message, machineName }) => ({
      id: message.id,
      timestamp: message.createdAt.toISOString(),
      machine: { id: message.machineId, name: machineName },
      title: message.title,
      body: message.body,
      priority: message.priority as TPendingMessage['priority'],
    })),
  };
}
