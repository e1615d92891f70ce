/**
 * Table of the fleet freeze (issue 25 point 5; `freeze.service.ts`):
 * `fleet_freeze`, one row (id 1) saying whether the fleet is frozen, why, by
 * whom and since when, and who released the last freeze.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

export const fleetFreeze = pgTable(
  'fleet_freeze',
  {
    id: integer('id').primaryKey().default(1),
    frozen: boolean('frozen').notNull().default(false),
    reason: text('reason'),
    frozenBy: text('frozen_by'),
    frozenAt: ts('frozen_at'),
    releasedBy: text('released_by'),
    releasedAt: ts('released_at'),
  },
  (t) => [check('fleet_freeze_one_row', sql`${t.id} = 1`)],
);

/** SQL that is true while the fleet is frozen (the start rule of UpdateSoftware, the rollout engine). */
export const FLEET_FROZEN = sql`exists (select 1 from fleet_freeze ff where ff.frozen)`;
