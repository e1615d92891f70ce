/**
 * SQL fragments that build API answers as JSON inside PostgreSQL, for lists whose
 * rows carry nested arrays (a machine's recent tasks and operations): one
 * statement per page instead of a query per row.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * A timestamp as `Date.prototype.toISOString` writes it (UTC, milliseconds), or
 * SQL null when the column is null.
 */
export const isoTime = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
