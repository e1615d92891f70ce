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
  real,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, ts, tsvector } from './schema-types.js';
import { auditActivities } from '../modules/audit/audit.schema.js';
import { users } from '../modules/auth/auth.schema.js';
import { instanceTypes } from '../modules/catalogues/catalogues.schema.js';
import { mmaClasses } from '../modules/mma/mma.schema.js';

export * from '../modules/auth/auth.schema.js';
export * from '../modules/audit/audit.schema.js';
export * from '../modules/mma/mma.schema.js';
export * from '../modules/catalogues/catalogues.schema.js';
export * from '../modules/images/images.schema.js';
export * from '../modules/library/library.schema.js';
export * from '../modules/config-catalogues/config-catalogues.schema.js';
export * from '../modules/templates/templates.schema.js';

// ---------------------------------------------------------------- accounts and machines

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    urlFriendlyName: text('url_friendly_name').notNull(),
    description: text('description').notNull().default(''),
    customer: text('customer').notNull().default(''),
    creator: text('creator').notNull(),
    creationTime: ts('creation_time').notNull().defaultNow(),
    expirationTime: ts('expiration_time'),
    classId: integer('class_id').notNull(),
    parentId: integer('parent_id'),
    managed: boolean('managed').notNull().default(true),
    autoTest: boolean('auto_test').notNull().default(false),
    autoTestBranch: text('auto_test_branch'),
    whiteGlove: boolean('white_glove').notNull().default(false),
    maintainer: text('maintainer').notNull(),
    contactName: text('contact_name').notNull().default(''),
    contactEmail: text('contact_email').notNull().default(''),
    contactPhone1: text('contact_phone1'),
    contactPhone2: text('contact_phone2'),
    billingPeriod: text('billing_period').notNull().default('Biweekly'),
    billingAmount: doublePrecision('billing_amount').notNull().default(10),
    instancePolicy: text('instance_policy').notNull().default('AllInOne'),
    bundleVersion: text('bundle_version'),
    vmImageName: text('vm_image_name'),
    isTemplate: boolean('is_template').notNull().default(false),
    propertiesVersion: integer('properties_version').notNull().default(1),
    deletedAt: ts('deleted_at'),
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('simple', coalesce("name", '')), 'A') || setweight(to_tsvector('simple', coalesce("url_friendly_name", '')), 'A') || setweight(to_tsvector('simple', coalesce("customer", '')), 'B') || setweight(to_tsvector('simple', coalesce("creator", '')), 'B')`,
      ),
  },
  (t) => [
    uniqueIndex('accounts_url_name_live_idx').on(t.urlFriendlyName).where(sql`deleted_at is null`),
    index('accounts_name_idx').on(t.name),
    index('accounts_class_idx').on(t.classId),
    // Index-only scans for the accounts list: the count by class, and the walk to a
    // page in name order (a deep page reads index entries, not wide rows).
    index('accounts_live_name_idx').on(t.name, t.id, t.classId).where(sql`deleted_at is null`),
    index('accounts_live_class_idx').on(t.classId, t.id).where(sql`deleted_at is null`),
  ],
);

/**
 * The search vector of each live account, with what the ranked list orders and
 * filters by (name, class), in rows of four columns. Kept by statement-level
 * triggers on `accounts` (migration `0010_account_search`) in the transaction
 * that changes the account: a copy of the generated `accounts.search` of every
 * live account, no row for a deleted one.
 *
 * Why apart: a search ranks every matching account (`ts_rank`) and counts them,
 * and reading the vector out of the wide `accounts` row cost about five times
 * as much as out of this one; a short prefix (`a`) matches half the fleet.
 */
export const accountSearch = pgTable(
  'account_search',
  {
    accountId: integer('account_id').primaryKey().references(() => accounts.id),
    classId: integer('class_id').notNull(),
    name: text('name').notNull(),
    search: tsvector('search').notNull(),
  },
  (t) => [index('account_search_idx').using('gin', t.search)],
);

/** Longest search word served from {@link accountSearchPrefixes}; a longer one is ranked live. */
export const SEARCH_PREFIX_MAX_LENGTH = 6;

/**
 * The relevance of each live account for each one-word prefix search it
 * matches: per account, every prefix of 1 to {@link SEARCH_PREFIX_MAX_LENGTH}
 * ASCII letters and digits of each of its lexemes, with `rank` =
 * `ts_rank('{0.1, 0.2, 0.5, 1.0}', search, '<prefix>:*')`: the very value a
 * live ranking computes. Kept by statement-level triggers on `account_search`
 * (migration `0024_account_search_prefixes`) in the transaction of the change.
 *
 * Why: a one-word search ranks and counts every match, and a short word matches
 * much of the fleet (`a` 4,853 of the scale fleet's 10,000 accounts, `admin`
 * 2,718); ranking them live cost 2–4 ms of database time per request. From the
 * index below, the page is its first entries and the count an index-only scan.
 * About 29 rows per account.
 */
export const accountSearchPrefixes = pgTable(
  'account_search_prefixes',
  {
    prefix: text('prefix').notNull(),
    accountId: integer('account_id').notNull(),
    classId: integer('class_id').notNull(),
    rank: real('rank').notNull(),
    name: text('name').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.prefix] }),
    index('account_search_prefixes_rank_idx').on(t.prefix, t.rank.desc(), t.name, t.accountId, t.classId),
  ],
);

/**
 * The settings sections of an account (spec 1 §3 licenseConfig, machineConfig,
 * backupConfig, idleSchedules), each with its own version for stale-push
 * detection. Kept apart from `accounts` so that the accounts list scans narrow rows.
 */
export const accountSettings = pgTable('account_settings', {
  accountId: integer('account_id').primaryKey().references(() => accounts.id),
  licenseConfig: jsonb('license_config').$type<Record<string, unknown>>().notNull().default({}),
  machineConfig: jsonb('machine_config').$type<Record<string, unknown>>().notNull().default({}),
  backupConfig: jsonb('backup_config').$type<Record<string, unknown>>().notNull().default({}),
  idleSchedules: jsonb('idle_schedules').$type<{ stopAt: string; resumeAfter: number }[]>().notNull().default([]),
  licenseVersion: integer('license_version').notNull().default(1),
  instanceVersion: integer('instance_version').notNull().default(1),
  backupVersion: integer('backup_version').notNull().default(1),
  idleVersion: integer('idle_version').notNull().default(1),
});

/**
 * A draft account (spec 1 §2 Create account, §4): the flattened creation payload
 * and the planned sites and machines shown by the preview, until
 * create-from-draft turns it into an account.
 */
export const draftAccounts = pgTable('draft_accounts', {
  id: serial('id').primaryKey(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  planned: jsonb('planned').$type<Record<string, unknown>>().notNull().default({}),
  createdBy: integer('created_by').notNull().references(() => users.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  accountId: integer('account_id').references(() => accounts.id),
});

export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    name: text('name').notNull(),
    urlFriendlyName: text('url_friendly_name').notNull(),
    domainName: text('domain_name').notNull(),
    port: integer('port').notNull().default(8080),
  },
  (t) => [index('sites_account_idx').on(t.accountId)],
);

export const machines = pgTable(
  'machines',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    siteId: integer('site_id').references(() => sites.id),
    name: text('name').notNull(),
    classId: integer('class_id').notNull(),
    isLauncher: boolean('is_launcher').notNull().default(false),
    isSiteMaster: boolean('is_site_master').notNull().default(false),
    needsAdmin: boolean('needs_admin').notNull().default(false),
    failCounter: integer('fail_counter').notNull().default(0),
    operationMode: integer('operation_mode').notNull().default(1),
    managed: boolean('managed').notNull().default(true),
    manualMaintenance: boolean('manual_maintenance').notNull().default(false),
    turbo: boolean('turbo').notNull().default(false),
    runSmokeTest: boolean('run_smoke_test').notNull().default(false),
    overseeTermination: boolean('oversee_termination').notNull().default(false),
    stop: boolean('stop').notNull().default(false),
    idle: boolean('idle').notNull().default(false),
    terminate: boolean('terminate').notNull().default(false),
    instanceTypeId: integer('instance_type_id').references(() => instanceTypes.id),
    bundleVersion: text('bundle_version'),
    currentVersions: jsonb('current_versions').$type<Record<string, string>>().notNull().default({}),
    desiredVersions: jsonb('desired_versions').$type<Record<string, string>>().notNull().default({}),
    /**
     * The audit activity that last changed `desiredVersions` (an instance settings
     * push, a followed commit): the UpdateSoftware the deploy controller queues for
     * it carries this activity (DESIGN §12 one trail). Null when unknown.
     */
    desiredActivityId: integer('desired_activity_id').references(() => auditActivities.id),
    /**
     * The updater's machine mode (DESIGN §12, §15; spec 3 §2.8): per software, a
     * version mode and version that override the account's machineConfig for this
     * machine only (`software → {mode, version}`, modes None, Latest, LatestBuild,
     * Select, versions stored as the push stores them). Empty: the account's config.
     * An account-mode update clears the softwares it sets.
     */
    versionOverrides: jsonb('version_overrides').$type<Record<string, { mode: string; version: string }>>().notNull().default({}),
    /** Derived by the database: the current version state differs from the desired one (DESIGN §6). */
    obsolete: boolean('obsolete')
      .notNull()
      .generatedAlwaysAs(sql`current_versions is distinct from desired_versions`),
    sampleData: text('sample_data').notNull().default('None'),
    sampleDataFile: text('sample_data_file'),
    componentConfig: jsonb('component_config').$type<Record<string, unknown>>().notNull().default({}),
    deployerConfig: jsonb('deployer_config').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('machines_account_idx').on(t.accountId),
    index('machines_class_idx').on(t.classId),
    // The deploy controller's pass (engine/desired-state) reads the obsolete live machines only.
    index('machines_obsolete_idx').on(t.id).where(sql`obsolete and deleted_at is null`),
    // The desired-state resolution reads the overridden live machines of an account (engine/desired-state).
    index('machines_overrides_idx').on(t.accountId).where(sql`version_overrides <> '{}'::jsonb and deleted_at is null`),
    // The order of GET /machines (account, launcher first, name): the Machines viewer walks it to a page of the whole fleet.
    index('machines_list_order_idx').on(t.accountId, t.isLauncher.desc(), t.name, t.id).where(sql`deleted_at is null`),
    // Live machines' ids with what visibility needs, for lists that join many rows to their machine
    // (the request statistics count): an index-only walk instead of the wide machine rows.
    index('machines_live_idx').on(t.id, t.accountId, t.classId).where(sql`deleted_at is null`),
    // The order of GET /lookup/machines (name, id): a page of the selector reads `limit` entries of the fleet, a
    // name search filters while it walks (a substring ILIKE cannot use a btree; a page stops at `limit` matches).
    index('machines_live_name_idx').on(t.name, t.id).where(sql`deleted_at is null`),
    // The probe tick selects live machines by their phase in the interval (`engine/probes`, PROBE_PHASE: the same expression).
    index('machines_probe_phase_idx')
      .on(sql`(((id / 8)::float8 * 0.6180339887498949) - floor((id / 8)::float8 * 0.6180339887498949))`)
      .where(sql`deleted_at is null`),
  ],
);

/**
 * Per-account counts of live machines by status, kept by statement-level triggers
 * on `machines` (migrations `0001_account_machine_status`, `0002_…_triggers`) in the
 * transaction that changes the machines; one row per account (an accounts trigger
 * of migration `0008_account_counts` inserts it with the account and keeps `classId`
 * and `live` equal to the account's class and liveness). The accounts list filters
 * and shows alert icons from it without scanning machines.
 *
 * `statusFlags` is the bitmask of the statuses with at least one machine, bit per
 * status in {@link STATUS_BITS} order (needsAdmin 1, unmanaged 2, manualMaintenance 4,
 * stopped 8, turbo 16, obsolete 32, idle 64).
 */
export const accountMachineStatus = pgTable(
  'account_machine_status',
  {
    accountId: integer('account_id').primaryKey().references(() => accounts.id),
    classId: integer('class_id').notNull(),
    live: boolean('live').notNull().default(true),
    machines: integer('machines').notNull().default(0),
    needsAdmin: integer('needs_admin').notNull().default(0),
    unmanaged: integer('unmanaged').notNull().default(0),
    manualMaintenance: integer('manual_maintenance').notNull().default(0),
    stopped: integer('stopped').notNull().default(0),
    turbo: integer('turbo').notNull().default(0),
    obsolete: integer('obsolete').notNull().default(0),
    idle: integer('idle').notNull().default(0),
    statusFlags: smallint('status_flags')
      .notNull()
      .generatedAlwaysAs(
        sql`((needs_admin > 0)::int | ((unmanaged > 0)::int << 1) | ((manual_maintenance > 0)::int << 2) | ((stopped > 0)::int << 3) | ((turbo > 0)::int << 4) | ((obsolete > 0)::int << 5) | ((idle > 0)::int << 6))::smallint`,
      ),
  },
);

/** The bit of each machine status in `account_machine_status.status_flags` (the generated column's order). */
export const STATUS_BITS = {
  needsAdmin: 1,
  unmanaged: 2,
  manualMaintenance: 4,
  stopped: 8,
  turbo: 16,
  obsolete: 32,
  idle: 64,
} as const;

/**
 * Live accounts counted by (class, status flags), as insert-only deltas: a trigger
 * on `account_machine_status` (migration `0009_account_counts_row_triggers`) adds +1/-1 rows when
 * an account appears, leaves, changes class or changes flags, so concurrent writers
 * never wait on a shared counter row; `compactAccountCounts` folds them into one
 * row per bucket. The accounts list's total for class and status filters is a sum
 * over these few rows instead of a scan of every account.
 */
export const accountCountDeltas = pgTable('account_count_deltas', {
  classId: integer('class_id').notNull(),
  statusFlags: smallint('status_flags').notNull(),
  n: integer('n').notNull(),
});

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
 * Notifications to the users of a machine (spec 2 §2.3 Notification, §7
 * Notifications): one row per target machine; pending until `deliveredAt`.
 */
export const notificationMessages = pgTable(
  'notification_messages',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    title: text('title').notNull(),
    body: text('body').notNull(),
    priority: text('priority').notNull(),
    sentBy: text('sent_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [index('notification_messages_pending_idx').on(t.createdAt).where(sql`delivered_at is null`)],
);

/** Launcher logins of an account; the password is AES-256-GCM under DATA_KEY. */
export const launcherLogins = pgTable(
  'launcher_logins',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    userName: text('user_name').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordEnc: text('password_enc').notNull(),
  },
  (t) => [index('launcher_logins_account_idx').on(t.accountId)],
);

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
 * Key pairs of an account (spec 1 §2 Instance Settings card: Download Keys,
 * Download CAA Key; §7 `POST /accounts/{id}/generate-keys`, `/files/keys`,
 * `/files/caa-key`, `/files/license-keys`; DESIGN §5 secrets). One row per
 * account and kind (`encryption`, `caa`, `license`, see
 * `modules/account-keys`); the private key is PEM sealed with AES-256-GCM under
 * DATA_KEY, the public key PEM (SPKI) in clear. `fingerprint` is the SHA-256 hex
 * of the public key's SPKI DER. Made on first download, replaced by generate-keys.
 */
export const accountKeys = pgTable(
  'account_keys',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    kind: text('kind').notNull(),
    algorithm: text('algorithm').notNull(),
    publicKeyPem: text('public_key_pem').notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_keys_account_kind_idx').on(t.accountId, t.kind)],
);

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

// ---------------------------------------------------------------- updater

/**
 * Saved target selections of the Updater (spec 3 §2.8; contracts `updater.ts`):
 * an accounts list query (`query`, the query string of `/accounts`) or a list
 * of ids (`ids`) of machines or accounts (`kind`). Visible to every user with
 * write; deleted by its owner or an admin.
 */
export const updaterSelections = pgTable(
  'updater_selections',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    query: text('query'),
    ids: integer('ids').array().notNull().default(sql`'{}'`),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('updater_selections_created_idx').on(t.createdAt, t.id)],
);

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
