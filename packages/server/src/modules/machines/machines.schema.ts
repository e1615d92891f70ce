/**
 * The table of the machines module (spec 2 §3 Machine, §2.2 Machines panel, §2.7
 * Machines viewer; DESIGN §6, §12): `machines`. Written by
 * `machines.repository.ts`, at creation from a draft, by the updater and the
 * machine configs (desired versions, overrides, configs) and by the engine
 * (`engine/tasks` machine state, `engine/desired-state` deploy effects).
 *
 * Invariants: `obsolete` is derived by the database (current versions differ
 * from desired ones); a deleted machine keeps its row (`deleted_at`), and every
 * list index below covers live machines only. Statement-level triggers keep
 * `account_machine_status` (accounts.schema.ts) equal to the live machines.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { accounts } from '../accounts/accounts.schema.js';
import { auditActivities } from '../audit/audit.schema.js';
import { instanceTypes } from '../catalogues/catalogues.schema.js';
import { sites } from '../sites/sites.schema.js';

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
    // The same order for the machines of each status chip (issue 24 point 4: the chips open the Machines viewer
    // filtered to what they count): a page and its capped total walk only the machines of that status.
    index('machines_needs_admin_order_idx').on(t.accountId, t.isLauncher.desc(), t.name, t.id).where(sql`deleted_at is null and needs_admin`),
    index('machines_turbo_order_idx').on(t.accountId, t.isLauncher.desc(), t.name, t.id).where(sql`deleted_at is null and turbo`),
    index('machines_unmanaged_order_idx').on(t.accountId, t.isLauncher.desc(), t.name, t.id).where(sql`deleted_at is null and not managed`),
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
