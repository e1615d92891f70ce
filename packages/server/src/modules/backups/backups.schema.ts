/**
 * Tables of the backups module (DESIGN §13 backups and object storage; spec 2 §3
 * Backup file, §2.3 Reinstall Sample Data, Publish as Sample Data):
 * `backup_files`, `sample_data_files`, the metadata of objects of the object
 * store (`storage/README.md`). Written by `backups.repository.ts`, the agent's
 * storage effects, the scheduler's retention and the seed.
 *
 * Invariants: a row is written only after its object; an operation makes at most
 * one backup file per software and at most one sample data file.
 */
import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { operations } from '../../engine/operations/operations.schema.js';
import { accounts } from '../accounts/accounts.schema.js';
import { machines } from '../machines/machines.schema.js';

/**
 * Backup files (spec 2 §3 Backup file, DESIGN §13): the metadata of a backup
 * whose bytes are the object `objectKey` in the object store (`storage/`). One
 * row per software (`launcher`, `siteMaster`, `auditChangeLog`) of a Backup
 * operation; `operationId` is null for seeded rows. A row is written only after
 * its object (storage/README.md): a row always has its object, an object may
 * briefly lack its row. `size` in bytes; `category` manual, daily, weekly or
 * monthly; `storageClass` Standard or Glacier.
 */
export const backupFiles = pgTable(
  'backup_files',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    softwareName: text('software_name').notNull(),
    name: text('name').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    category: text('category').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageClass: text('storage_class').notNull().default('Standard'),
    objectKey: text('object_key').notNull().unique(),
    operationId: integer('operation_id').references(() => operations.id),
  },
  (t) => [
    index('backup_files_account_idx').on(t.accountId, t.createdAt),
    index('backup_files_machine_idx').on(t.machineId, t.softwareName, t.createdAt),
    // A Backup operation makes at most one file per software, however often it is retried.
    uniqueIndex('backup_files_operation_software_idx').on(t.operationId, t.softwareName),
  ],
);

/**
 * Sample data files (spec 2 §2.3 Reinstall Sample Data's Select, Publish as
 * Sample Data; DESIGN §13): metadata of the object `objectKey`. Seeded defaults
 * have no source machine or operation; a PublishSampleData operation makes at
 * most one (unique `operationId`). `size` in bytes.
 */
export const sampleDataFiles = pgTable('sample_data_files', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sourceMachineId: integer('source_machine_id').references(() => machines.id),
  publishedBy: text('published_by').notNull(),
  objectKey: text('object_key').notNull().unique(),
  operationId: integer('operation_id')
    .unique()
    .references(() => operations.id),
});
