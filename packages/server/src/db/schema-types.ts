/**
 * Column types shared by the schema files (`modules/<name>/<name>.schema.ts`,
 * `engine/<part>/<part>.schema.ts`; index in `schema.ts`): PostgreSQL types
 * Drizzle has no builder for, and the one timestamp shape every table uses.
 */
import { customType, timestamp } from 'drizzle-orm/pg-core';

/** A full-text search vector (`tsvector`), read and written as its text form. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** Raw bytes (`bytea`). */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
/** A `timestamp with time zone` read as a `Date`. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
