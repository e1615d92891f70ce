/**
 * Tables of the operations of the machine management agent (DESIGN §12; spec 2
 * §3 Operation, Operation type, §2.6 Operations viewer; invariants in
 * `README.md` beside this file): `operation_types`, `operations`. Operations
 * are queued by `queue.ts` / `operations.repository.ts` here and run by the
 * agent (`agent*.repository.ts`: claim, finish, pass and the lease); the operations module decides and resets them.
 *
 * Invariants: one operation type per (class, name); at most one RUNNING
 * operation per machine (partial unique index).
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { accounts } from '../../modules/accounts/accounts.schema.js';
import { auditActivities } from '../../modules/audit/audit.schema.js';
import { machines } from '../../modules/machines/machines.schema.js';
import { mmaClasses } from '../../modules/mma/mma.schema.js';

/**
 * The operation types of each MMA class (spec 2 §3 Operation type, DESIGN §12),
 * seeded: one row per class and name. Queue Operations offers the rows with
 * `canBeManual`; `timeoutSeconds` ends a running operation FAILURE.
 */
export const operationTypes = pgTable(
  'operation_types',
  {
    id: serial('id').primaryKey(),
    machineClassId: integer('machine_class_id').notNull().references(() => mmaClasses.id),
    name: text('name').notNull(),
    description: text('description').notNull(),
    canBeManual: boolean('can_be_manual').notNull().default(true),
    timeoutSeconds: integer('timeout_seconds').notNull(),
  },
  (t) => [uniqueIndex('operation_types_class_name_idx').on(t.machineClassId, t.name)],
);

/**
 * Operations of the machine management agent (spec 2 §3 Operation, DESIGN §12).
 *
 * Life: queued (`status` null, `pending` false) or waiting for approval
 * (`pending` true) → RUNNING → SUCCESS or FAILURE. `decision` is the operator's
 * PROCEED or CANCEL, `notBefore` delays the start (forced backups). `classId` and
 * `operationMode` are the machine's when queued; `failCounter` the machine's when
 * finished. `attempts`, `heartbeatAt` and `worker` are the lease of a RUNNING
 * operation, as for tasks. At most one RUNNING operation per machine (partial
 * unique index). `activityId` is the audit activity that caused it.
 */
export const operations = pgTable(
  'operations',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    classId: integer('class_id').notNull(),
    typeId: integer('type_id').notNull().references(() => operationTypes.id),
    typeName: text('type_name').notNull(),
    userName: text('user_name').notNull(),
    activityId: integer('activity_id').references(() => auditActivities.id),
    queuedAt: ts('queued_at').notNull().defaultNow(),
    notBefore: ts('not_before'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    status: text('status'),
    pending: boolean('pending').notNull().default(false),
    decision: text('decision'),
    decidedBy: text('decided_by'),
    /** Why it was cancelled, when not by an operator's own Cancel (a rollout halted: 'rollout 12 halted'); its log line then says 'Cancelled: {reason}'. */
    decisionReason: text('decision_reason'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    failCounter: integer('fail_counter').notNull().default(0),
    operationMode: integer('operation_mode').notNull(),
    output: text('output').notNull().default(''),
    deployerLog: text('deployer_log').notNull().default(''),
    attempts: integer('attempts').notNull().default(0),
    heartbeatAt: ts('heartbeat_at'),
    worker: text('worker'),
  },
  (t) => [
    index('operations_machine_idx').on(t.machineId, t.id),
    index('operations_unfinished_idx').on(t.machineId).where(sql`finished_at is null`),
    uniqueIndex('operations_one_running_idx').on(t.machineId).where(sql`status = 'RUNNING'`),
    index('operations_activity_idx').on(t.activityId),
    // The Operations viewer's filters, each walked backwards by id (newest first) and stopped after the page.
    index('operations_account_idx').on(t.accountId, t.id),
    index('operations_type_idx').on(t.typeName, t.id),
    index('operations_status_idx').on(t.status, t.id),
    index('operations_pending_idx').on(t.id).where(sql`pending`),
    // The viewer's class filter, time range (queued) and its orders by start and finish time (issue 24 point 7).
    index('operations_class_idx').on(t.classId, t.id),
    index('operations_queued_idx').on(t.queuedAt),
    index('operations_started_idx').on(t.startedAt, t.id),
    index('operations_finished_idx').on(t.finishedAt, t.id),
    // The agent's anomaly rule counts a class's recent failures (engine/operations/README.md).
    index('operations_class_failures_idx').on(t.classId, t.finishedAt).where(sql`status = 'FAILURE'`),
    // An MMA's claim looks at its class's unfinished operations only (mma-protocol.service.ts): 24 ms, not 62,
    // for a class of the scale fleet with 4,000 operations of other classes waiting.
    index('operations_unfinished_class_idx').on(t.classId, t.id).where(sql`finished_at is null`),
  ],
);
