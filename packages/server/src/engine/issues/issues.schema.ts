/**
 * Tables of issues (DESIGN §14; spec 2 §3 Issue, Issue log, §2.5 Issue viewer;
 * invariants in `README.md` beside this file): `issues`, `issue_logs`, and
 * `engine_checks` (when a periodic engine check last ran). Raised by
 * `raise.ts`; the issues module reads and resolves them.
 *
 * Invariants: one issue per (machine, source, fingerprint); the newest
 * `ISSUE_LOG_RETAINED` logs of an issue are kept; a periodic check runs once
 * per interval however many workers run.
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { machines } from '../../modules/machines/machines.schema.js';

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
    // The viewer's other orders (issue 24 point 7): first occurrence and count, either way. An
    // occurrence already changes an indexed column (the last occurrence), so these cost no HOT update.
    index('issues_first_idx').on(t.firstOccurrenceTime.desc(), t.id.desc()),
    index('issues_count_idx').on(t.count.desc(), t.id.desc()),
    index('issues_tags_idx').using('gin', t.tags),
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
