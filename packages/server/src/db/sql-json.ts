/**
 * SQL fragments that build API answers as JSON inside PostgreSQL, for lists whose
 * rows carry nested arrays (a machine's recent tasks and operations): one
 * statement per page instead of a query per row.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_CLASSES } from '@fleet/contracts';

/**
 * A timestamp as `Date.prototype.toISOString` writes it (UTC, milliseconds), or
 * SQL null when the column is null.
 */
export const isoTime = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A string as an SQL literal (for constants of the code, never for input). */
const literal = (s: string) => sql.raw(`'${s.replace(/'/g, "''")}'`);

/**
 * The name of the class whose id is `classId`, as `className` of the contracts
 * names it (the account classes' names, else `Class {id}`): a `case` over
 * literals, so that the statement's text stays the same for every call.
 */
export const classNameOf = (classId: SQL) =>
  sql`(case ${classId} ${sql.join(
    ACCOUNT_CLASSES.map((c) => sql`when ${sql.raw(String(c.id))} then ${literal(c.name)}`),
    sql` `,
  )} else 'Class ' || ${classId} end)`;

/** A list of constant strings as an SQL `text[]` literal (same text every call). */
export const textArrayOf = (items: readonly string[]) => sql`array[${sql.join(items.map(literal), sql`, `)}]::text[]`;
