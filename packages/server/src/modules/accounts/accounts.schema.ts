/**
 * Tables of the accounts module (spec 1 §3 Account, Launcher login, §2 Accounts
 * list; DESIGN §5, §6 machine status filter values): `accounts` and what the
 * accounts list reads instead of scanning it, `account_search`,
 * `account_search_prefixes`, `account_machine_status`, `account_count_deltas`;
 * and `launcher_logins`. `accounts` is written by `accounts.repository.ts`
 * (and the account settings, drafts and updater modules); the other list tables
 * by the triggers of the migrations named below, never by the application.
 *
 * Invariants: the account properties carry `propertiesVersion`, so that a stale
 * push is refused with 409 (DESIGN §5; the other sections' versions are on
 * `account_settings`). A live account (`deleted_at` null) has a unique
 * URL-friendly name. The search, status and count tables equal what they copy
 * in the transaction of each change (statement-level triggers).
 */
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, real, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, tsvector } from '../../db/schema-types.js';

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
    // The SaaS images list counts each image's live accounts of the visible classes
    // (spec 3 §2.3): an index-only scan of these entries, not of every account row.
    index('accounts_live_image_idx').on(t.vmImageName, t.classId).where(sql`deleted_at is null and vm_image_name is not null`),
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
