/**
 * The database schema (Drizzle). Migrations under `migrations/` are generated from
 * this file with `npm run db:generate -w packages/server` and checked in.
 *
 * Sections of an account (properties on `accounts`; license, instance, backup and
 * idle on `account_settings`) carry their own `*Version` counter so that a stale
 * push is refused with 409 (DESIGN §5).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, ts } from './schema-types.js';
import { accounts } from '../modules/accounts/accounts.schema.js';
import { auditActivities } from '../modules/audit/audit.schema.js';
import { instanceTypes } from '../modules/catalogues/catalogues.schema.js';
import { machines } from '../modules/machines/machines.schema.js';
import { mmaClasses } from '../modules/mma/mma.schema.js';

export * from '../modules/auth/auth.schema.js';
export * from '../modules/audit/audit.schema.js';
export * from '../modules/mma/mma.schema.js';
export * from '../modules/catalogues/catalogues.schema.js';
export * from '../modules/images/images.schema.js';
export * from '../modules/library/library.schema.js';
export * from '../modules/config-catalogues/config-catalogues.schema.js';
export * from '../modules/templates/templates.schema.js';
export * from '../modules/accounts/accounts.schema.js';
export * from '../modules/account-settings/account-settings.schema.js';
export * from '../modules/account-keys/account-keys.schema.js';
export * from '../modules/drafts/drafts.schema.js';
export * from '../modules/sites/sites.schema.js';
export * from '../modules/machines/machines.schema.js';
export * from '../modules/notifications/notifications.schema.js';
export * from '../modules/updater/updater.schema.js';

// ---------------------------------------------------------------- accounts and machines

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
    // A machine's active instance with its state, read index-only by the probe tick for every machine it probes.
    index('cloud_instances_active_idx').on(t.machineId, t.id, t.status, t.nextStatus, t.settlesAt).where(sql`active`),
  ],
);

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
    // The agent's anomaly rule counts a class's recent failures (engine/operations/README.md).
    index('operations_class_failures_idx').on(t.classId, t.finishedAt).where(sql`status = 'FAILURE'`),
  ],
);

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

/**
 * Push events too large for a NOTIFY payload, as the Socket.IO Postgres adapter
 * stores them when several processes share the push channel (DESIGN §7, §9).
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).unique(),
  createdAt: ts('created_at').defaultNow(),
  payload: bytea('payload'),
});

/**
 * Version states of machines (spec 2 §3 Version state, §2.8 States viewer; DESIGN
 * §12, §14): what a successful UpdateSoftware or TestLatestCode installed. One row
 * per deploy; the newest is `current` (at most one per machine, a partial unique
 * index says so), the others are historical. `components` holds every component
 * of `VERSION_STATE_COMPONENTS` (contracts): its commit `{branchName, shortHash,
 * timestamp}` or null when not installed. `operationId` is the operation that
 * wrote it (unique: an operation writes one state, so a retry writes none).
 * The desired state is not stored: it is `machines.desired_versions`.
 */
export const versionStates = pgTable(
  'version_states',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    current: boolean('current').notNull().default(false),
    timestamp: ts('timestamp').notNull().defaultNow(),
    components: jsonb('components').$type<Record<string, { branchName: string; shortHash: string; timestamp: string } | null>>().notNull(),
    operationId: integer('operation_id').references(() => operations.id),
  },
  (t) => [
    index('version_states_machine_idx').on(t.machineId, t.timestamp.desc(), t.id.desc()),
    uniqueIndex('version_states_one_current_idx').on(t.machineId).where(sql`current`),
    // The States viewer's Current and Historical pages across the fleet, newest first; the
    // machine id last, so that counting a page's matches reads the index only.
    index('version_states_current_idx').on(t.timestamp.desc(), t.id.desc(), t.machineId).where(sql`current`),
    index('version_states_historical_idx').on(t.timestamp.desc(), t.id.desc(), t.machineId).where(sql`not current`),
    uniqueIndex('version_states_operation_idx').on(t.operationId),
  ],
);

/**
 * Issues (spec 2 §3 Issue, §2.5; DESIGN §14; `engine/issues/README.md`): problems
 * the engine found on a machine, grouped by fingerprint. One row per
 * (machine, source, fingerprint), the fingerprint being the SHA-256 hex of the
 * normalised description (numbers, ids and times stripped), so that a unique
 * index makes concurrent occurrences one row (`raiseIssue` upserts).
 * `description` is the latest occurrence's; `tags` the union of the
 * occurrences' tags (at most `ISSUE_MAX_TAGS`); `count` the occurrences;
 * a resolved issue that occurs again reopens (`isResolved` false).
 */
export const issues = pgTable(
  'issues',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    source: text('source').notNull(),
    fingerprint: text('fingerprint').notNull(),
    description: text('description').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    count: integer('count').notNull().default(1),
    firstOccurrenceTime: ts('first_occurrence_time').notNull(),
    lastOccurrenceTime: ts('last_occurrence_time').notNull(),
    isResolved: boolean('is_resolved').notNull().default(false),
    /** When an operator last resolved it (null while open or never resolved). */
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    uniqueIndex('issues_fingerprint_idx').on(t.machineId, t.source, t.fingerprint),
    // The viewer's pages: newest last occurrence first, over all machines or one.
    index('issues_last_idx').on(t.lastOccurrenceTime.desc(), t.id.desc()),
    index('issues_machine_last_idx').on(t.machineId, t.lastOccurrenceTime.desc(), t.id.desc()),
    index('issues_tags_idx').using('gin', t.tags),
  ],
);

// ---------------------------------------------------------------- schedules

/**
 * The scheduler's due times (DESIGN §13; `engine/schedules/README.md`): one row
 * per schedule of an account. `kind` is `backup` (the daily/weekly/monthly
 * backup times; recurring), `retention` (once a day; recurring), `idle-stop` and
 * `idle-resume` (one idle entry, `slot` its stopAt as ISO), `auto-stop` (the
 * machineConfig autoStopTime, `slot` its ISO time). A worker claims a row whose
 * `dueAt` has come with `FOR UPDATE SKIP LOCKED`, acts and, in the same
 * transaction, moves `dueAt` past now (recurring) or sets `doneAt` (one-shot):
 * so each due time runs once, however many workers run. `params` is what the
 * row was planned from (backup times and days, resumeAfter); `lastError` the
 * failure of its last run, if any.
 */
export const scheduleDue = pgTable(
  'schedule_due',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    kind: text('kind').notNull(),
    slot: text('slot').notNull().default(''),
    dueAt: ts('due_at').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    doneAt: ts('done_at'),
    lastRunAt: ts('last_run_at'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('schedule_due_account_kind_slot_idx').on(t.accountId, t.kind, t.slot),
    // The claim walks the rows whose time has come, oldest first.
    index('schedule_due_pending_idx').on(t.dueAt).where(sql`done_at is null`),
  ],
);

/**
 * One occurrence of an issue (spec 2 §3 Issue log): its time, content (cut at
 * `ISSUE_LOG_MAX_CONTENT` characters; `complete` false when cut), tags and `size`
 * (characters of the whole content). The newest `ISSUE_LOG_RETAINED` logs of an
 * issue are kept; older ones are deleted as new ones arrive (`count` keeps counting).
 */
export const issueLogs = pgTable(
  'issue_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    timestamp: ts('timestamp').notNull(),
    content: text('content').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    size: integer('size').notNull(),
    complete: boolean('complete').notNull(),
  },
  (t) => [index('issue_logs_issue_idx').on(t.issueId, t.id.desc())],
);

/**
 * The last time a periodic engine check ran (one row per check name), claimed
 * by a conditional upsert so that with several workers a check runs once per
 * interval (engine/issues/server-status-check.ts).
 */
export const engineChecks = pgTable('engine_checks', {
  name: text('name').primaryKey(),
  lastRunAt: ts('last_run_at').notNull(),
});

// ---------------------------------------------------------------- probes and request statistics (DESIGN §14)

/**
 * One row per probed URL of a machine (kind 0 launcher, 1 site master), kept by
 * the probe tick in the statement that stores the samples: the last probe, the
 * failing streak (`failingSince`, null while it succeeds) and two clock-hour
 * accumulators (`acc*` the hour of the last probe, `prev*` the hour before it):
 * probes, successes, sum of the successful probes' latencies (ms). The list of
 * request statistics reads this table, plus `probe_hourly` for the day and week.
 */
export const requestStatistics = pgTable(
  'request_statistics',
  {
    machineId: integer('machine_id')
      .notNull()
      .references(() => machines.id, { onDelete: 'cascade' }),
    kind: smallint('kind').notNull(),
    url: text('url').notNull(),
    lastAt: ts('last_at').notNull(),
    lastLatencyMs: doublePrecision('last_latency_ms'),
    lastOk: boolean('last_ok').notNull(),
    failingSince: ts('failing_since'),
    accHour: ts('acc_hour').notNull(),
    accN: integer('acc_n').notNull(),
    accOk: integer('acc_ok').notNull(),
    accLatSum: doublePrecision('acc_lat_sum').notNull(),
    prevHour: ts('prev_hour'),
    prevN: integer('prev_n').notNull().default(0),
    prevOk: integer('prev_ok').notNull().default(0),
    prevLatSum: doublePrecision('prev_lat_sum').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.machineId, t.kind] })],
);

/**
 * Hourly rollups of the raw samples (`probe_samples`, hourly partitions made by
 * hand in the migration), kept eight days: per URL and clock hour, probes,
 * successes and the sum of the successful probes' latencies (ms). A rollup
 * replaces its hour's rows, so running it twice counts once.
 */
export const probeHourly = pgTable(
  'probe_hourly',
  {
    machineId: integer('machine_id').notNull(),
    kind: smallint('kind').notNull(),
    hour: ts('hour').notNull(),
    n: integer('n').notNull(),
    ok: integer('ok').notNull(),
    latSum: doublePrecision('lat_sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.machineId, t.kind, t.hour] }), index('probe_hourly_hour_idx').on(t.hour)],
);

/** The clock hours already rolled up (written with their rollup, in one transaction). */
export const probeRollups = pgTable('probe_rollups', {
  hour: ts('hour').primaryKey(),
  samples: integer('samples').notNull(),
  rolledAt: ts('rolled_at').notNull().defaultNow(),
});

/**
 * How far the probe schedule has run (one row, id 1): the next tick probes the
 * targets whose slot lies after `through`. Locked by the tick (`skip locked`),
 * so several workers never probe the same slot twice.
 */
export const probeCursor = pgTable('probe_cursor', {
  id: smallint('id').primaryKey(),
  through: ts('through').notNull(),
});

/**
 * Which settings versions of an account the scheduler has planned its due rows
 * from (`schedule_due`): a pass re-plans an account whose backup, idle or
 * instance section version differs, or whose liveness changed (deleted,
 * template, add-on accounts have no schedules).
 */
export const schedulePlans = pgTable('schedule_plans', {
  accountId: integer('account_id').primaryKey().references(() => accounts.id),
  live: boolean('live').notNull(),
  backupVersion: integer('backup_version').notNull(),
  idleVersion: integer('idle_version').notNull(),
  instanceVersion: integer('instance_version').notNull(),
  plannedAt: ts('planned_at').notNull().defaultNow(),
});

// ---------------------------------------------------------------- rollouts

/**
 * A software update rolled out in waves (DESIGN §15; `engine/rollouts/README.md`).
 * `kind` machines or accounts; `status` Running, Paused, Halted, Aborted or
 * Completed; `reason` why it stopped. `plan` is the ZRolloutPlan (waves, failure
 * threshold, wave timeout), `config` the software update payload applied to each
 * wave. `principal` is the starting user as the waves apply it later (id, name,
 * permissions, groups at the start). `currentWave` counts from 0.
 * `customerProduction`: a target is (or was, at the start) of class Customer
 * Production, so the rollout is hidden from users without the group (DESIGN §5).
 * `activityId` is the audit activity of the request that started it.
 */
export const rollouts = pgTable(
  'rollouts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    plan: jsonb('plan').$type<Record<string, unknown>>().notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by').notNull(),
    principal: jsonb('principal')
      .$type<{ userId: number; username: string; name: string; email: string; permissions: string[]; groups: string[] }>()
      .notNull(),
    customerProduction: boolean('customer_production').notNull().default(false),
    activityId: integer('activity_id').references(() => auditActivities.id),
    currentWave: integer('current_wave').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The engine's pass reads the Running rollouts only.
    index('rollouts_running_idx').on(t.id).where(sql`status = 'Running'`),
  ],
);

/**
 * One target (machine or account) of a rollout: its wave (from 0), `position` in
 * the order the request named it, `state` Pending, Deploying, Succeeded, Failed,
 * Skipped or NotApplied with its `detail`; `activityId` the RolloutWave activity
 * that applied it (null while Pending); `machineIds` the machines whose desired
 * versions that wave changed (what the target waits for).
 */
export const rolloutTargets = pgTable(
  'rollout_targets',
  {
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => rollouts.id, { onDelete: 'cascade' }),
    targetId: integer('target_id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    wave: integer('wave').notNull(),
    state: text('state').notNull(),
    detail: text('detail'),
    activityId: integer('activity_id').references(() => auditActivities.id),
    machineIds: integer('machine_ids').array().notNull().default(sql`'{}'::integer[]`),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.rolloutId, t.targetId] }), index('rollout_targets_wave_idx').on(t.rolloutId, t.wave, t.state)],
);

/**
 * The progress of one wave of a rollout: how many of its targets are in each
 * state, its `size` (all of them), `startedAt` (the time of the earliest
 * RolloutWave activity that applied one of its targets; null while none was
 * applied) and `lastChangeAt` (the latest `updated_at` of its targets). Kept
 * exact by the statement-level triggers of migration 0026 on `rollout_targets`,
 * in the transaction of each change, so `GET /rollouts/{id}` and the list read
 * these rows instead of counting the targets (`engine/rollouts/README.md`).
 */
export const rolloutWaves = pgTable(
  'rollout_waves',
  {
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => rollouts.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    pending: integer('pending').notNull().default(0),
    deploying: integer('deploying').notNull().default(0),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    notApplied: integer('not_applied').notNull().default(0),
    size: integer('size').notNull().default(0),
    startedAt: ts('started_at'),
    lastChangeAt: ts('last_change_at'),
  },
  (t) => [primaryKey({ columns: [t.rolloutId, t.wave] })],
);
