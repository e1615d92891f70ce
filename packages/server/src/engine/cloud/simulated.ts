/**
 * The `simulated` cloud provider (DESIGN §8): instances live in `cloud_instances`
 * and move pending → running, stopping → stopped, shutting-down → terminated,
 * each transition taking `delayMs` (env `SIM_CLOUD_DELAY_MS`, 2000 ms by default,
 * 0 in tests).
 *
 * A transition in progress is stored as its end state and the time it is reached
 * (`next_status`, `settles_at`) and applied by the next call that reads the
 * instance, so no timer is needed and a restart of the process leaves nothing
 * half-way. Every state change is one conditional UPDATE, so two callers cannot
 * both move the same instance.
 *
 * Instances get EC2-like ids (`i-` and 17 hex digits), a private address in
 * 10.0.0.0/8, a public address (a new one at each start, as without an elastic
 * IP) and a host name in the public compute domain; storage size comes from the
 * instance type.
 *
 * Images (AMIs) get `ami-` ids and become available after five transition delays.
 *
 * Fault injection for tests: `failNext(call, n)` fails the next n calls of a kind;
 * `failInstance(cloudId)` fails every call on one instance until `clearFaults()`.
 * Faults are kept in the memory of this provider object, so they reach the engine
 * that was handed the same object (tests start both in one process).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { TInstanceState } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { cloudImages, cloudInstances, instanceTypes, regions } from '../../db/schema.js';
import { executeNamed } from '../../db/prepared.js';
import { selectMachineTypes } from './catalogue.repository.js';
import { CloudError, type CloudCall, type CloudImage, type CloudImageState, type CloudInstance, type CloudProvider } from './provider.js';

/** The provider with its fault injection switches (tests). */
export interface SimulatedCloud extends CloudProvider {
  /** Fails the next `times` calls of `call` with a `SimulatedFault` carrying `message`. */
  failNext(call: CloudCall, times?: number, message?: string): void;
  /** Fails every call on the instance until {@link SimulatedCloud.clearFaults}. */
  failInstance(cloudId: string, message?: string): void;
  clearFaults(): void;
}

export interface SimulatedCloudOptions {
  db: Db;
  /** Duration of each transition, milliseconds. */
  delayMs?: number;
}

/** Default transition delay of normal runs, milliseconds. */
export const DEFAULT_SIM_DELAY_MS = 2000;

/** End state of each transitional state. */
const SETTLES_TO: Partial<Record<TInstanceState, TInstanceState>> = {
  pending: 'running',
  stopping: 'stopped',
  'shutting-down': 'terminated',
};

/** A public host name in the compute domain of the region, as EC2 names them. */
export function publicHostName(address: string, region: string): string {
  const domain = region === 'us-east-1' ? 'compute-1.amazonaws.com' : `${region}.compute.amazonaws.com`;
  return `ec2-${address.replace(/\./g, '-')}.${domain}`;
}

/** An EC2-like instance id: `i-` and 17 lowercase hexadecimal digits. */
export function newCloudId(): string {
  return `i-${randomBytes(9).toString('hex').slice(0, 17)}`;
}

function publicAddress(): string {
  return `${[3, 18, 34, 35, 52, 54][randomInt(6)]}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function privateAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(4, 255)}`;
}

type Row = typeof cloudInstances.$inferSelect;
type ImageRow = typeof cloudImages.$inferSelect;

const toImage = (r: ImageRow): CloudImage => ({
  imageId: r.imageId,
  name: r.name,
  description: r.description,
  region: r.region,
  sourceCloudId: r.sourceCloudId,
  status: r.status as CloudImageState,
});

/** The columns of an instance the provider answers with. */
const INSTANCE_FIELDS = ['cloudId', 'machineId', 'status', 'region', 'instanceTypeId', 'hostName', 'ipAddress', 'privateIpAddress', 'storageSize'] as const;
type InstanceFields = Pick<Row, (typeof INSTANCE_FIELDS)[number]>;

/** {@link InstanceFields} in a raw statement's select list: each column named as its field. */
const INSTANCE_COLUMNS = sql.join(
  INSTANCE_FIELDS.map((field) => sql`${sql.identifier(cloudInstances[field].name)} as ${sql.identifier(field)}`),
  sql`, `,
);

const toInstance = (r: InstanceFields): CloudInstance => ({
  cloudId: r.cloudId,
  machineId: r.machineId,
  status: r.status as TInstanceState,
  region: r.region,
  instanceTypeId: r.instanceTypeId,
  hostName: r.hostName,
  ipAddress: r.ipAddress,
  privateIpAddress: r.privateIpAddress,
  storageSize: r.storageSize,
});

export function createSimulatedCloud({ db, delayMs = DEFAULT_SIM_DELAY_MS }: SimulatedCloudOptions): SimulatedCloud {
  const failures = new Map<CloudCall, { remaining: number; message: string }>();
  const brokenInstances = new Map<string, string>();
  const settlesAt = sql`now() + ${delayMs} * interval '1 millisecond'`;
  const imageSettlesAt = sql`now() + ${delayMs * 5} * interval '1 millisecond'`;

  function injectFault(call: CloudCall, cloudId?: string) {
    const broken = cloudId ? brokenInstances.get(cloudId) : undefined;
    if (broken !== undefined) throw new CloudError('SimulatedFault', broken);
    const next = failures.get(call);
    if (next) {
      next.remaining -= 1;
      if (next.remaining <= 0) failures.delete(call);
      throw new CloudError('SimulatedFault', next.message);
    }
  }

  /**
   * The instance, its transition settled if its time has come: one statement (the
   * settling update's row, else the row as it is), where a settle and a select
   * were two round trips on every describe (issue 23, tasks per second).
   */
  async function read(cloudId: string): Promise<CloudInstance | undefined> {
    // Named: PostgreSQL plans it once per connection (it runs several times a task).
    const rows = await executeNamed<InstanceFields>(db, sql`
      with settled as (
        update ${cloudInstances} set status = next_status, next_status = null, settles_at = null, updated_at = now(),
          active = case when next_status = 'terminated' then false else active end,
          dns_ready = case next_status when 'running' then true when 'terminated' then false else dns_ready end
        where cloud_id = ${cloudId} and next_status is not null and settles_at <= now()
        returning ${INSTANCE_COLUMNS})
      select * from settled
      union all
      select ${INSTANCE_COLUMNS} from ${cloudInstances} where cloud_id = ${cloudId} and not exists (select 1 from settled)`);
    const [row] = rows;
    return row && toInstance(row);
  }

  async function mustRead(cloudId: string): Promise<CloudInstance> {
    const found = await read(cloudId);
    if (!found) throw new CloudError('InvalidInstanceID.NotFound', `The instance ID '${cloudId}' does not exist`);
    return found;
  }

  /**
   * Moves the instance from one of `from` into the transitional state `via`.
   * Answers the instance as it is after the attempt (another caller may have moved it first).
   */
  async function begin(cloudId: string, from: TInstanceState[], via: TInstanceState, extra: Partial<typeof cloudInstances.$inferInsert> = {}) {
    await db
      .update(cloudInstances)
      .set({ status: via, nextStatus: SETTLES_TO[via], settlesAt, updatedAt: sql`now()`, ...extra })
      .where(and(eq(cloudInstances.cloudId, cloudId), inArray(cloudInstances.status, from)));
    return mustRead(cloudId);
  }

  /** Images whose creation time has come become available. */
  async function settleImages(where: ReturnType<typeof eq> | undefined) {
    await db
      .update(cloudImages)
      .set({ status: sql`${cloudImages.nextStatus}`, nextStatus: null, settlesAt: null })
      .where(and(where, isNotNull(cloudImages.nextStatus), lte(cloudImages.settlesAt, sql`now()`)));
  }

  async function readImage(imageId: string): Promise<CloudImage | undefined> {
    await settleImages(eq(cloudImages.imageId, imageId));
    const [row] = await db.select().from(cloudImages).where(eq(cloudImages.imageId, imageId));
    return row && toImage(row);
  }

  const refuse = (i: CloudInstance, what: string) =>
    new CloudError('IncorrectInstanceState', `The instance '${i.cloudId}' is ${i.status} and cannot be ${what}`);

  return {
    name: 'simulated',
    pollIntervalMs: Math.min(500, Math.max(10, Math.round(delayMs / 10))),

    failNext(call, times = 1, message = `Simulated fault in ${call}`) {
      failures.set(call, { remaining: times, message });
    },
    failInstance(cloudId, message = `Simulated fault of instance ${cloudId}`) {
      brokenInstances.set(cloudId, message);
    },
    clearFaults() {
      failures.clear();
      brokenInstances.clear();
    },

    async launch({ machineId, region, instanceTypeId, clientToken }) {
      injectFault('launch');
      const [same] = await db.select({ cloudId: cloudInstances.cloudId }).from(cloudInstances).where(eq(cloudInstances.clientToken, clientToken));
      if (same) return mustRead(same.cloudId);
      const [type] = await db.select().from(instanceTypes).where(eq(instanceTypes.id, instanceTypeId));
      if (!type || type.isRedis) throw new CloudError('InvalidParameterValue', `Unknown instance type ${instanceTypeId}`);
      const address = publicAddress();
      const [row] = await db
        .insert(cloudInstances)
        .values({
          machineId,
          cloudId: newCloudId(),
          status: 'pending',
          nextStatus: 'running',
          settlesAt,
          region,
          instanceTypeId,
          hostName: publicHostName(address, region),
          ipAddress: address,
          privateIpAddress: privateAddress(),
          storageSize: type.storageSize,
          active: true,
          dnsReady: false,
          clientToken,
        })
        .onConflictDoNothing({ target: cloudInstances.clientToken })
        .returning({ cloudId: cloudInstances.cloudId });
      if (row) return mustRead(row.cloudId);
      // A concurrent launch with the same token won the insert.
      const [winner] = await db.select({ cloudId: cloudInstances.cloudId }).from(cloudInstances).where(eq(cloudInstances.clientToken, clientToken));
      return mustRead(winner!.cloudId);
    },

    async start(cloudId) {
      injectFault('start', cloudId);
      const i = await mustRead(cloudId);
      if (i.status === 'running' || i.status === 'pending') return i;
      if (i.status !== 'stopped') throw refuse(i, 'started');
      const address = publicAddress();
      return begin(cloudId, ['stopped'], 'pending', { ipAddress: address, hostName: publicHostName(address, i.region) });
    },

    async stop(cloudId) {
      injectFault('stop', cloudId);
      const i = await mustRead(cloudId);
      if (i.status === 'stopped' || i.status === 'stopping') return i;
      if (i.status !== 'running') throw refuse(i, 'stopped');
      return begin(cloudId, ['running'], 'stopping');
    },

    async terminate(cloudId) {
      injectFault('terminate', cloudId);
      const i = await mustRead(cloudId);
      if (i.status === 'terminated' || i.status === 'shutting-down') return i;
      return begin(cloudId, ['pending', 'running', 'stopping', 'stopped'], 'shutting-down');
    },

    async describe(cloudId) {
      injectFault('describe', cloudId);
      return read(cloudId);
    },

    async changeInstanceType(cloudId, instanceTypeId) {
      injectFault('changeInstanceType', cloudId);
      const i = await mustRead(cloudId);
      if (i.status !== 'stopped') throw refuse(i, 'modified (it must be stopped)');
      const [type] = await db.select().from(instanceTypes).where(eq(instanceTypes.id, instanceTypeId));
      if (!type || type.isRedis) throw new CloudError('InvalidParameterValue', `Unknown instance type ${instanceTypeId}`);
      await db
        .update(cloudInstances)
        .set({ instanceTypeId, storageSize: type.storageSize, updatedAt: sql`now()` })
        .where(and(eq(cloudInstances.cloudId, cloudId), eq(cloudInstances.status, 'stopped')));
      return mustRead(cloudId);
    },

    async createImage({ cloudId, name, description, clientToken }) {
      injectFault('createImage', cloudId);
      const [same] = await db.select({ imageId: cloudImages.imageId }).from(cloudImages).where(eq(cloudImages.clientToken, clientToken));
      if (same) return (await readImage(same.imageId))!;
      const i = await mustRead(cloudId);
      if (i.status !== 'running' && i.status !== 'stopped') throw refuse(i, 'imaged');
      await db
        .insert(cloudImages)
        .values({
          imageId: `ami-${randomBytes(9).toString('hex').slice(0, 17)}`,
          name,
          description,
          region: i.region,
          sourceCloudId: cloudId,
          status: 'pending',
          nextStatus: 'available',
          settlesAt: imageSettlesAt,
          clientToken,
        })
        .onConflictDoNothing({ target: cloudImages.clientToken });
      const [created] = await db.select({ imageId: cloudImages.imageId }).from(cloudImages).where(eq(cloudImages.clientToken, clientToken));
      return (await readImage(created!.imageId))!;
    },

    async describeImage(imageId) {
      injectFault('describeImage');
      return readImage(imageId);
    },

    async listImages(region) {
      injectFault('listImages');
      await settleImages(undefined);
      const rows = await db
        .select()
        .from(cloudImages)
        .where(and(ne(cloudImages.status, 'deregistered'), region ? eq(cloudImages.region, region) : undefined))
        .orderBy(desc(cloudImages.id));
      return rows.map(toImage);
    },

    async deleteImage(imageId) {
      injectFault('deleteImage');
      const found = await readImage(imageId);
      if (!found) throw new CloudError('InvalidAMIID.NotFound', `The image id '${imageId}' does not exist`);
      await db
        .update(cloudImages)
        .set({ status: 'deregistered', nextStatus: null, settlesAt: null })
        .where(eq(cloudImages.imageId, imageId));
    },

    async regions() {
      return db.select({ name: regions.name, cloudCode: regions.cloudCode }).from(regions).orderBy(asc(regions.id));
    },

    instanceTypes: () => selectMachineTypes(db),
  };
}
