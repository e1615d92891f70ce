/**
 * The table of the templates module (spec 1 §2 Manage Templates dialog, §3
 * Template): `templates`. Written by `templates.repository.ts` and the seed.
 *
 * Invariants: `values` holds the flattened settings of the template's `type`;
 * a private template (`isPublic` false) is its owner's (`ownerId`, a user).
 */
import { boolean, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { users } from '../auth/auth.schema.js';

export const templates = pgTable('templates', {
  id: serial('id').primaryKey(),
  type: text('type').notNull(),
  name: text('name').notNull(),
  isPublic: boolean('is_public').notNull().default(true),
  ownerId: integer('owner_id').references(() => users.id),
  values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
