/**
 * The table of the deploy controller (DESIGN §12, §14; spec 2 §3 Version state,
 * §2.8 States viewer; `README.md` beside this file): `version_states`. Written
 * by the deploy effects (`deploy-effects.ts`) when an UpdateSoftware or
 * TestLatestCode succeeds; read by the version states module.
 *
 * Invariants: at most one current state per machine; an operation writes at most
 * one state.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { machines } from '../../modules/machines/machines.schema.js';
import { operations } from '../operations/operations.schema.js';

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
