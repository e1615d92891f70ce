/**
 * SQL of operations shared by the queue, the agent and the API (DESIGN §12;
 * `README.md` beside this file): inserting queued
 * operations and reading them back as the API answers them.
 */
import { inArray, sql } from 'drizzle-orm';
import type { TOperation, TOperationTypeName } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { operations } from '../../db/schema.js';
import { operationJson } from '../../modules/operations/operation-json.js';

export type OperationRow = typeof operations.$inferSelect;

/** Channel of the NOTIFY sent when operations are queued (delivered on commit); payload: machine ids, comma-joined. */
export const OPERATION_QUEUED_CHANNEL = 'fleet_operation_queued';

export interface NewOperation {
  machineId: number;
  accountId: number;
  classId: number;
  typeId: number;
  typeName: TOperationTypeName;
  userName: string;
  activityId: number | null;
  pending: boolean;
  params: Record<string, unknown>;
  timeoutSeconds: number;
  operationMode: number;
  failCounter: number;
  notBefore: Date | null;
}

/**
 * Inserts queued operations inside the caller's transaction and notifies the
 * agents of their machines; the notification is delivered only if the
 * transaction commits. Answers the new ids in input order.
 */
export async function insertOperations(tx: DbOrTx, rows: NewOperation[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await tx.insert(operations).values(rows).returning({ id: operations.id });
  await notifyOperationMachines(tx, rows);
  return inserted.map((r) => r.id);
}

/**
 * Notifies the agents (and the MMAs in process) that operations of these
 * machines may start now, delivered if the transaction commits: the
 * `fleet_operation_queued` payload names the machines, which is what wakes a
 * waiting claim at once (an empty payload wakes nobody).
 */
export async function notifyOperationMachines(tx: DbOrTx, rows: { machineId: number }[]): Promise<void> {
  const machineIds = [...new Set(rows.map((r) => r.machineId))];
  // A NOTIFY payload holds at most 8000 bytes: 500 ids per notification.
  for (let i = 0; i < machineIds.length; i += 500) {
    await tx.execute(sql`select pg_notify(${OPERATION_QUEUED_CHANNEL}, ${machineIds.slice(i, i + 500).join(',')})`);
  }
}

/** Operations by id as the API answers them (TOperation), in id order; unknown ids are left out. */
export async function selectOperationsByIds(db: DbOrTx, ids: number[]): Promise<TOperation[]> {
  if (ids.length === 0) return [];
  const rows = await db.execute<{ op: TOperation }>(sql`
    select ${operationJson({ name: sql`m.name`, failCounter: sql`m.fail_counter` })} as op
    from operations o join machines m on m.id = o.machine_id
    where ${inArray(sql`o.id`, ids)} order by o.id`);
  return rows.rows.map((r) => r.op);
}
