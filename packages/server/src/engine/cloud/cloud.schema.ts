/**
 * Tables of the simulated cloud (DESIGN §8; spec 2 §3 Cloud instance, §2.9 Cloud
 * instances viewer; spec 3 §2.4 Cloud Images): `cloud_instances`,
 * `cloud_images`. Written by the simulated provider (`simulated.ts`) and the
 * seed; the cloud instances and images modules read them.
 *
 * Invariants: a transition in progress settles on the next read (`nextStatus`,
 * `settlesAt`), so a restart never leaves one half-way; `clientToken` makes a
 * launch or an image creation idempotent.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { instanceTypes } from '../../modules/catalogues/catalogues.schema.js';
import { machines } from '../../modules/machines/machines.schema.js';

/**
 * Instances of the simulated cloud (DESIGN §8), driven by `engine/cloud/simulated.ts`.
 * A transition in progress (pending, stopping, shutting-down) names its end state
 * in `nextStatus` and the time it is reached in `settlesAt`; it is applied on the
 * next read, so a restart never leaves an instance half-way. `clientToken` makes
 * a launch idempotent (the task that launched it).
 */
export const cloudInstances = pgTable(
  'cloud_instances',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').references(() => machines.id),
    cloudId: text('cloud_id').notNull().unique(),
    status: text('status').notNull(),
    region: text('region').notNull(),
    instanceTypeId: integer('instance_type_id').references(() => instanceTypes.id),
    hostName: text('host_name').notNull(),
    ipAddress: text('ip_address').notNull(),
    privateIpAddress: text('private_ip_address').notNull(),
    storageSize: integer('storage_size').notNull(),
    active: boolean('active').notNull().default(true),
    dnsReady: boolean('dns_ready').notNull().default(true),
    nextStatus: text('next_status'),
    settlesAt: ts('settles_at'),
    clientToken: text('client_token').unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // (machine, id): a machine's instances newest first (the viewer's machine filter, the active instance).
    index('cloud_instances_machine_id_idx').on(t.machineId, t.id),
    // The Cloud Instances viewer's order by launch time (issue 24 point 7).
    index('cloud_instances_created_idx').on(t.createdAt, t.id),
    // A machine's active instance with its state, read index-only by the probe tick for every machine it probes.
    index('cloud_instances_active_idx').on(t.machineId, t.id, t.status, t.nextStatus, t.settlesAt).where(sql`active`),
  ],
);

/**
 * Machine images of the simulated cloud (DESIGN §8): `ami-` ids, pending until
 * available (the same settle-on-read rule as instances), deregistered when deleted.
 */
export const cloudImages = pgTable('cloud_images', {
  id: serial('id').primaryKey(),
  imageId: text('image_id').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  region: text('region').notNull(),
  sourceCloudId: text('source_cloud_id'),
  status: text('status').notNull(),
  nextStatus: text('next_status'),
  settlesAt: ts('settles_at'),
  clientToken: text('client_token').unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
