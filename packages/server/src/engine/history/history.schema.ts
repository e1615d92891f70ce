/**
 * Table of the history retention (issue 25 point 6; `README.md` beside this
 * file): `history_cursors`, how far the retention has pruned a table walked in
 * an index's order (operations' outputs: by finish time and id).
 */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

/** Per pruned list (`name`), the key of the last row pruned: its time and id. */
export const historyCursors = pgTable('history_cursors', {
  name: text('name').primaryKey(),
  through: ts('through').notNull(),
  lastId: integer('last_id').notNull(),
});
