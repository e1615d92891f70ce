/**
 * The table of the library module (spec 3 §2.6 Library Manager, §3 Library
 * file): `library_files`. Written by `library.repository.ts` and the seed; the
 * bytes are objects of the object store (`library-objects.ts`) when `inS3`.
 */
import { boolean, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

export const libraryFiles = pgTable('library_files', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  url: text('url').notNull(),
  package: text('package').notNull(),
  type: text('type').notNull(),
  version: text('version').notNull(),
  inS3: boolean('in_s3').notNull().default(true),
  addedBy: text('added_by').notNull(),
  date: ts('date').notNull(),
});
