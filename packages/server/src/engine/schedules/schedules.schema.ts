/**
 * Tables of the scheduler (DESIGN §13; invariants in `README.md` beside this
 * file): `schedule_due`, `schedule_plans`. Written by `schedules.repository.ts`.
 *
 * Invariants: each due time runs once, however many workers run; an account is
 * re-planned when its settings versions or liveness change.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { accounts } from '../../modules/accounts/accounts.schema.js';

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
