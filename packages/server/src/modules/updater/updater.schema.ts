/**
 * The table of the updater module (spec 3 §2.8 Updater; DESIGN §15):
 * `updater_selections`. Written by `updater.repository.ts`.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { users } from '../auth/auth.schema.js';

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
