/**
 * SQL of the `aws` provider (DESIGN §8, §17; `aws.ts`): the catalogue rows it
 * reads (region names; its instance types are `catalogue.repository.ts`'s), the machine a launch tags, and
 * our record of its instances in `cloud_instances`.
 *
 * The rest of the console knows a machine's instances only through
 * `cloud_instances` (the task engine's active instance, the Cloud Instances
 * viewer, a machine's record), so the provider keeps that table as a mirror of
 * what EC2 last answered: a row is inserted at launch and brought in line with
 * every later answer. `next_status` and `settles_at` (the simulated cloud's
 * transitions) stay null: EC2's own state is stored as it is.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { TInstanceState } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { cloudInstances, machines, regions } from '../../db/schema.js';
import type { CloudInstance } from './provider.js';

/** Our record of an instance as EC2 last answered it, and how long ago it was launched (milliseconds, by the database's clock). */
export interface InstanceRecord extends CloudInstance {
  ageMs: number;
}

/** Our row of the instance, if the provider launched it (or the seed made it); undefined otherwise. */
export async function selectInstanceRecord(db: DbOrTx, cloudId: string): Promise<InstanceRecord | undefined> {
  const [row] = await db
    .select({
      cloudId: cloudInstances.cloudId,
      machineId: cloudInstances.machineId,
      status: sql<TInstanceState>`${cloudInstances.status}`,
      region: cloudInstances.region,
      instanceTypeId: cloudInstances.instanceTypeId,
      hostName: cloudInstances.hostName,
      ipAddress: cloudInstances.ipAddress,
      privateIpAddress: cloudInstances.privateIpAddress,
      storageSize: cloudInstances.storageSize,
      ageMs: sql<number>`(extract(epoch from now() - ${cloudInstances.createdAt}) * 1000)::float8`,
    })
    .from(cloudInstances)
    .where(eq(cloudInstances.cloudId, cloudId));
  return row;
}

/** The names of the catalogue's regions, by cloud code. */
export async function selectRegionNames(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await db.select({ name: regions.name, cloudCode: regions.cloudCode }).from(regions);
  return new Map(rows.map((r) => [r.cloudCode, r.name]));
}

/** The machine's name and account, for the tags of its instance; undefined when there is no such machine. */
export async function selectMachineTagFacts(db: DbOrTx, machineId: number): Promise<{ name: string; accountId: number } | undefined> {
  const [row] = await db.select({ name: machines.name, accountId: machines.accountId }).from(machines).where(eq(machines.id, machineId));
  return row;
}

/** Columns that follow EC2's answer: state, type, addresses, and the flags derived from the state. */
function mirrored(i: CloudInstance) {
  return {
    status: i.status,
    instanceTypeId: i.instanceTypeId,
    hostName: i.hostName,
    ipAddress: i.ipAddress,
    privateIpAddress: i.privateIpAddress,
    storageSize: i.storageSize,
    dnsReady: i.status === 'running' && i.hostName !== '',
  };
}

/**
 * Records a launched instance under its client token, or brings the row of the
 * same instance (a repeated launch with the same token) in line. The machine of
 * an existing row is kept.
 */
export async function upsertLaunchedInstance(db: DbOrTx, i: CloudInstance, clientToken: string): Promise<void> {
  const values = mirrored(i);
  await db
    .insert(cloudInstances)
    .values({ ...values, machineId: i.machineId, cloudId: i.cloudId, region: i.region, active: i.status !== 'terminated', clientToken })
    .onConflictDoUpdate({
      target: cloudInstances.cloudId,
      set: { ...values, active: sql`${cloudInstances.active} and ${i.status !== 'terminated'}`, updatedAt: sql`now()` },
    });
}

/**
 * Brings our row of the instance (if there is one) in line with EC2's answer.
 * Writes only when something changed, so `updated_at` is the time of the last
 * change seen; a terminated instance is no longer active.
 */
export async function updateInstanceRecord(db: DbOrTx, i: CloudInstance): Promise<void> {
  const values = mirrored(i);
  await db
    .update(cloudInstances)
    .set({ ...values, active: sql`${cloudInstances.active} and ${i.status !== 'terminated'}`, nextStatus: null, settlesAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(cloudInstances.cloudId, i.cloudId),
        sql`(${cloudInstances.status}, ${cloudInstances.instanceTypeId}, ${cloudInstances.hostName}, ${cloudInstances.ipAddress},
          ${cloudInstances.privateIpAddress}, ${cloudInstances.storageSize}, ${cloudInstances.dnsReady}, ${cloudInstances.active})
          is distinct from (${values.status}::text, ${values.instanceTypeId}::int, ${values.hostName}::text, ${values.ipAddress}::text,
          ${values.privateIpAddress}::text, ${values.storageSize}::int, ${values.dnsReady}::boolean, ${cloudInstances.active} and ${i.status !== 'terminated'})`,
      ),
    );
}

/** Marks our row of an instance EC2 no longer knows (EC2 forgets terminated instances after about an hour) as terminated and inactive. */
export async function markInstanceGone(db: DbOrTx, cloudId: string): Promise<void> {
  const status: TInstanceState = 'terminated';
  await db
    .update(cloudInstances)
    .set({ status, active: false, dnsReady: false, nextStatus: null, settlesAt: null, updatedAt: sql`now()` })
    .where(and(eq(cloudInstances.cloudId, cloudId), sql`(${cloudInstances.status} <> ${status} or ${cloudInstances.active})`));
}
