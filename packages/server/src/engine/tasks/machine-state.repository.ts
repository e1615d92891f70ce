/**
 * SQL the task handlers need about machines: the machine a task is for (with
 * the region and instance type a launch uses), its active cloud instance, and
 * the machine fields a finished task changes. Every write is idempotent.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { preparedPerDb } from '../../db/prepared.js';
import { accounts, accountSettings, cloudInstances, machineCredentials, machines } from '../../db/schema.js';

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

const licensed = sql`${accountSettings.licenseConfig}->>'cloudInstanceType'`;

/** The machine a task is for, read once per task (one statement, written out once). */
const machineContextQuery = preparedPerDb((db: Db) =>
  db
    .select({
      id: machines.id,
      name: machines.name,
      accountId: machines.accountId,
      classId: machines.classId,
      accountClassId: accounts.classId,
      instanceTypeId: sql<number>`coalesce(${machines.instanceTypeId},
        case when ${licensed} ~ '^[0-9]{1,9}$' then (${licensed})::int end, ${DEFAULT_INSTANCE_TYPE_ID})`,
      region: sql<string>`coalesce(${accountSettings.machineConfig}->>'region',
        (select c.region from ${cloudInstances} c where c.machine_id = ${machines.id} order by c.id desc limit 1), ${DEFAULT_REGION})`,
      deleted: sql<boolean>`${machines.deletedAt} is not null`,
      activeCloudId: sql<string | null>`(select c.cloud_id from ${cloudInstances} c
        where c.machine_id = ${machines.id} and c.active order by c.id desc limit 1)`,
    })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .leftJoin(accountSettings, eq(accountSettings.accountId, machines.accountId))
    .where(eq(machines.id, sql.placeholder('machineId')))
    .prepare('task_machine_context'),
);

export async function selectMachineContext(db: Db, machineId: number): Promise<MachineContext | undefined> {
  const [row] = await machineContextQuery(db).execute({ machineId });
  return row;
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
