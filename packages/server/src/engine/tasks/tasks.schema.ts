/**
 * Tables of the task engine (DESIGN §6 tasks, §5 secrets; spec 2 §3 Task,
 * Credential; invariants in `README.md` beside this file): `machine_tasks`,
 * `machine_credentials`. Written by `tasks.repository.ts` and
 * `machine-state.repository.ts` (and the account deletion, which cancels
 * tasks); the machines module reads both.
 *
 * Invariants: at most one Running task per machine (partial unique index); a
 * credential is sealed under DATA_KEY.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { accounts } from '../../modules/accounts/accounts.schema.js';
import { auditActivities } from '../../modules/audit/audit.schema.js';
import { machines } from '../../modules/machines/machines.schema.js';

/**
 * Machine tasks (DESIGN §6), run by the task engine (`engine/tasks/README.md`).
 * `params` holds the task's input and checkpoints; `attempts`, `heartbeatAt` and
 * `worker` are the lease of a Running task. At most one task per machine is
 * Running (a partial unique index says so).
 */
export const machineTasks = pgTable(
  'machine_tasks',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    type: text('type').notNull(),
    status: text('status').notNull().default('New'),
    description: text('description').notNull(),
    progress: integer('progress').notNull().default(0),
    queuedAt: ts('queued_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
    error: text('error'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    heartbeatAt: ts('heartbeat_at'),
    worker: text('worker'),
    /** The audit activity that caused the task (DESIGN §12 one trail); null for tasks older than the trail. */
    activityId: integer('activity_id').references(() => auditActivities.id),
  },
  (t) => [
    index('machine_tasks_machine_idx').on(t.machineId, t.id),
    index('machine_tasks_status_idx').on(t.status),
    uniqueIndex('machine_tasks_one_running_idx').on(t.machineId).where(sql`status = 'Running'`),
    // A page of machines reads the unfinished tasks of all its machines in one scan (machines.repository.ts).
    index('machine_tasks_unfinished_idx').on(t.machineId, t.id).where(sql`status in ('New', 'Running')`),
    index('machine_tasks_activity_idx').on(t.activityId),
  ],
);

/**
 * The credential of a machine's instance (spec 2 §2.3 Credential, §3): RDP
 * password and SSH private key, AES-256-GCM under DATA_KEY (DESIGN §5). Issued
 * when the task engine launches the machine's instance; every read is audited.
 */
export const machineCredentials = pgTable('machine_credentials', {
  machineId: integer('machine_id').primaryKey().references(() => machines.id),
  rdpPasswordEnc: text('rdp_password_enc').notNull(),
  sshPrivateKeyEnc: text('ssh_private_key_enc').notNull(),
  issuedAt: ts('issued_at').notNull().defaultNow(),
});
