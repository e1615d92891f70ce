/**
 * SQL the task handlers need about machines: the machine a task is for (with
 * the region and instance type a launch uses), its active cloud instance, and
 * the machine fields a finished task changes. Every write is idempotent.
 */
import { and, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { compileStatement, queryCompiled } from '../../db/prepared.js';
import { cloudInstances, machineCredentials, machines } from '../../db/schema.js';

/** Instance type of a machine that names none: t2.medium, the spec's default (spec 1 §5). */
export const DEFAULT_INSTANCE_TYPE_ID = 2;
/** Region of a machine whose account names none. */
export const DEFAULT_REGION = 'us-east-1';

export interface MachineContext {
  id: number;
  name: string;
  accountId: number;
  classId: number;
  accountClassId: number;
  /** The machine's instance type, else its account's licensed one, else the default. */
  instanceTypeId: number;
  /** Region cloud code: the account's machine config, else the last instance's, else the default. */
  region: string;
  /** Terminated (soft-deleted). */
  deleted: boolean;
  /** Cloud id of the machine's active instance (the newest) when this was read, else null. */
  activeCloudId: string | null;
}

/**
 * The machine's context as the database function `machine_task_context` (migration 0046) reads it: the
 * claim's own statement calls it too (`tasks.repository.ts` claimNext), so both read the same.
 */
export const machineContextCall = (machineId: SQL | Placeholder) => sql`machine_task_context(${machineId}, ${DEFAULT_INSTANCE_TYPE_ID}, ${DEFAULT_REGION})`;
const CONTEXT = compileStatement(sql`select ${machineContextCall(sql.placeholder('machineId'))} as context`);

/** The machine a task is for (one named statement), undefined when it no longer exists. */
export async function selectMachineContext(db: Db, machineId: number): Promise<MachineContext | undefined> {
  const [row] = await queryCompiled<{ context: MachineContext | null }>(db, CONTEXT, { machineId });
  return row?.context ?? undefined;
}

/** Cloud id of the machine's active instance (the newest), if any. */
export async function selectActiveCloudId(db: DbOrTx, machineId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ cloudId: cloudInstances.cloudId })
    .from(cloudInstances)
    .where(and(eq(cloudInstances.machineId, machineId), eq(cloudInstances.active, true)))
    .orderBy(desc(cloudInstances.id))
    .limit(1);
  return row?.cloudId;
}

/** Sets machine fields (flags, instance type). */
export async function updateMachine(
  db: DbOrTx,
  machineId: number,
  values: Partial<Pick<typeof machines.$inferInsert, 'stop' | 'idle' | 'terminate' | 'instanceTypeId'>>,
): Promise<void> {
  await db.update(machines).set(values).where(eq(machines.id, machineId));
}

/** Whether the machine has a credential (a launch issues it once the instance runs). */
export async function hasCredential(db: DbOrTx, machineId: number): Promise<boolean> {
  const [row] = await db.select({ machineId: machineCredentials.machineId }).from(machineCredentials).where(eq(machineCredentials.machineId, machineId)).limit(1);
  return row !== undefined;
}

/** Stores the machine's credential (sealed), replacing an earlier one (a recreated machine gets a new one). */
export async function upsertCredential(db: DbOrTx, machineId: number, sealed: { rdpPasswordEnc: string; sshPrivateKeyEnc: string }): Promise<void> {
  await db
    .insert(machineCredentials)
    .values({ machineId, ...sealed })
    .onConflictDoUpdate({ target: machineCredentials.machineId, set: { ...sealed, issuedAt: sql`now()` } });
}

/** Marks a terminated machine deleted (keeps the first deletion time). */
export async function markMachineTerminated(db: DbOrTx, machineId: number): Promise<void> {
  await db
    .update(machines)
    .set({ terminate: true, deletedAt: sql`coalesce(${machines.deletedAt}, now())` })
    .where(eq(machines.id, machineId));
}
