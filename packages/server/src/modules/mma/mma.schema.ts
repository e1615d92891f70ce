/**
 * Tables of the MMA module (spec 3 §2.7 MMA Classes, §3 MMA class; DESIGN §6
 * class ids, §12 the machine management agent): `mma_classes`, `mma_instances`.
 * Written by `mma.repository.ts` and the seed.
 *
 * Invariants: class ids are fixed (DESIGN §6: 1 Experimental … 5 Customer
 * Production, 6 On Premise, 200 Add-on Account); a class has at most one MMA
 * instance (unique `class_id`); an instance's `mode` is 'simulated' or 'remote'
 * (a check constraint).
 */
import { boolean, check, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { TChangeWindow, TMmaInstanceMode } from '@fleet/contracts';
import { ts } from '../../db/schema-types.js';

export const mmaClasses = pgTable('mma_classes', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  image: text('image'),
  isProduction: boolean('is_production').notNull().default(false),
  /**
   * Issue 25 point 5: when a rollout's wave may start on this class's machines,
   * a list of windows `{days: 1–7 (ISO, Monday 1), start: 'HH:mm', end: 'HH:mm',
   * timeZone: IANA}` (ZChangeWindow); empty: any time. Written only through
   * `PUT /mma/classes/{id}`, which validates it.
   */
  changeWindows: jsonb('change_windows').$type<TChangeWindow[]>().notNull().default([]),
});

export const mmaInstances = pgTable('mma_instances', {
  id: serial('id').primaryKey(),
  classId: integer('class_id').notNull().references(() => mmaClasses.id).unique(),
  commitHash: text('commit_hash').notNull(),
  commitTimestamp: ts('commit_timestamp').notNull(),
  deployerVer: text('deployer_ver').notNull(),
  deployerBranch: text('deployer_branch').notNull().default('master'),
  deployerVerUpdatedAt: ts('deployer_ver_updated_at'),
  standby: boolean('standby').notNull().default(false),
  priorityGroup: integer('priority_group').notNull().default(0),
  caaHost: text('caa_host'),
  /**
   * Issue 27 point 1 (DESIGN §17): 'simulated' (the worker runs the class's
   * operations) or 'remote' (registered MMA processes claim them,
   * `modules/mma-agents`). Written only through `PUT /mma/classes/{id}`.
   */
  mode: text('mode').$type<TMmaInstanceMode>().notNull().default('simulated'),
}, (t) => [check('mma_instances_mode_check', sql`${t.mode} in ('simulated', 'remote')`)]);
