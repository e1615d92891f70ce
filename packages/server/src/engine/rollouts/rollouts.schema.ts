/**
 * Tables of the rollout engine (DESIGN §15; invariants in `README.md` beside this
 * file): `rollouts`, `rollout_targets`, `rollout_waves`. Written by `start.ts`
 * and the engine (`rollouts.repository.ts`), `rollout_waves` by the triggers of
 * migration 0026; the rollouts module reads them.
 *
 * Invariants: a target belongs to one wave; the wave rows equal the counts of
 * their targets in the transaction of each change.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { auditActivities } from '../../modules/audit/audit.schema.js';

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
 * `rollbackOf` (issue 25 point 3): the rollout this one rolls back (its targets
 * then carry `restore`); the rolled-back rollout finds its rollback by it (unique:
 * a rollout is rolled back once).
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
    rollbackOf: integer('rollback_of').references((): AnyPgColumn => rollouts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The engine's pass reads the Running rollouts only.
    index('rollouts_running_idx').on(t.id).where(sql`status = 'Running'`),
    uniqueIndex('rollouts_rollback_of_idx').on(t.rollbackOf),
  ],
);

/**
 * One target (machine or account) of a rollout: its wave (from 0), `position` in
 * the order the request named it, `state` Pending, Deploying, Succeeded, Failed,
 * Skipped or NotApplied with its `detail`; `activityId` the RolloutWave activity
 * that applied it (null while Pending); `machineIds` the machines whose desired
 * versions that wave changed (what the target waits for).
 * `previous` (issue 25 point 3): the desired versions the target had before its
 * wave changed them (`TRolloutRestore`: machine overrides, or the account's
 * machineConfig fields and its machines' overrides), written with the apply;
 * `restore`: on a rollback's target, the versions it puts back.
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
    previous: jsonb('previous').$type<Record<string, unknown>>(),
    restore: jsonb('restore').$type<Record<string, unknown>>(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.rolloutId, t.targetId] }),
    index('rollout_targets_wave_idx').on(t.rolloutId, t.wave, t.state),
    // The deploy controller finds the wave (and its approval) of a machine's desired-version activity.
    index('rollout_targets_activity_idx').on(t.activityId),
  ],
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
    awaitingApproval: integer('awaiting_approval').notNull().default(0),
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

/**
 * The approval decision on a wave of a rollout (issue 25 point 1; `README.md`
 * Approvals): `wave` from 0, `decision` Approved or Rejected, by whom
 * (`decidedBy`: a username, or `Rollout` for an approval that timed out), why,
 * when, and the audit activity that recorded it. One decision per wave: the
 * first one stands (a later Approve wave proceeds what waits since, and is
 * audited, without changing it).
 */
export const rolloutWaveDecisions = pgTable(
  'rollout_wave_decisions',
  {
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => rollouts.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    decision: text('decision').notNull(),
    decidedBy: text('decided_by').notNull(),
    reason: text('reason').notNull(),
    decidedAt: ts('decided_at').notNull().defaultNow(),
    activityId: integer('activity_id').references(() => auditActivities.id),
  },
  (t) => [primaryKey({ columns: [t.rolloutId, t.wave] })],
);

/**
 * The bake of a wave of a rollout (issue 25 point 2; `bake.ts`, `README.md`
 * Bake): from `startedAt` (every target of the wave final) to `endsAt`, its
 * `result` once over (Passed, Failed), and how many targets it found
 * `unhealthy`. Inserted once per wave (primary key), so a bake starts once
 * however many passes and workers see the wave ready.
 */
export const rolloutWaveBakes = pgTable(
  'rollout_wave_bakes',
  {
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => rollouts.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    startedAt: ts('started_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    result: text('result'),
    unhealthy: integer('unhealthy').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.rolloutId, t.wave] })],
);

