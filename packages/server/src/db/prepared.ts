/**
 * Named prepared statements for the hot read paths (issue 9 "The slow paths").
 *
 * The list statements (a page of machines with its instances, tasks and
 * operations; of operations, issues, states, cloud instances) take PostgreSQL
 * longer to plan than to run: EXPLAIN ANALYZE of `GET /machines` of a
 * 100-machine account on the scale fleet showed 5 to 15 ms of planning for 2 to
 * 3 ms of execution. A named statement is parsed once per pooled connection and
 * runs on the list pool (db/client.ts `LIST_SESSION_OPTIONS`), whose sessions
 * always use the generic plan, so it is planned once per connection.
 *
 * The name is a hash of the statement's text, so every shape of a query (which
 * filters it has, how many hidden classes) is its own statement and one name is
 * never bound to two texts (node-postgres refuses that). The shapes are few: the
 * callers pass lists as one array parameter, not one parameter per element.
 */
import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { listPoolOf, type Db, type DbOrTx } from './client.js';

const dialect = new PgDialect();

/** `q_` and 20 hex digits of the SHA-1 of the statement text. */
export function statementName(text: string): string {
  return `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/**
 * Runs a raw `sql` statement as a named prepared statement and returns its rows
 * as PostgreSQL types them (no mapping). Inside a transaction the statement runs
 * on the transaction's connection, unnamed.
 */
export async function queryPrepared<T extends pg.QueryResultRow>(db: DbOrTx, statement: SQL): Promise<T[]> {
  if (!('$client' in db)) return (await db.execute(statement)).rows as T[];
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return (await listPoolOf(db).query<T>({ name: statementName(text), text, values: params })).rows;
}

/**
 * A statement written once: its prepared statement's name, its text, and its
 * parameters, some of them placeholders (`sql.placeholder('accountId')`) given
 * at each run. Building a large statement with Drizzle's `sql` and writing it
 * out cost 0.13 ms of the server's CPU per request (the machines page), more
 * than a tenth of the request; a compiled statement costs nothing to reuse.
 */
export interface CompiledStatement {
  name: string;
  text: string;
  params: unknown[];
}

/** Writes `statement` out once (see {@link CompiledStatement}). */
export function compileStatement(statement: SQL): CompiledStatement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { name: statementName(text), text, params };
}

/**
 * The node-postgres query of a compiled statement, as a named prepared
 * statement, with `values` for its placeholders (by name; a value the
 * statement has no placeholder for is left out). Throws when a placeholder has
 * no value.
 */
export function compiledQuery(statement: CompiledStatement, values: Record<string, unknown>): pg.QueryConfig {
  return { name: statement.name, text: statement.text, values: fillPlaceholders(statement.params, values) };
}

/**
 * Runs a compiled statement as a named prepared statement with `values` for its
 * placeholders, and returns its rows as PostgreSQL types them, each an array
 * of its columns in the select list's order (node-postgres `rowMode: 'array'`):
 * no object with named keys is made per row, which cost the machines page a
 * fifth of the server's CPU per request (3,600 fields a page). The caller maps
 * positions to names. Throws when a placeholder has no value. On the pool only:
 * a transaction's connection is not reachable through Drizzle's handle.
 */
export async function queryCompiledArrays(db: Db, statement: CompiledStatement, values: Record<string, unknown>): Promise<unknown[][]> {
  const result = await listPoolOf(db).query<unknown[]>({ ...compiledQuery(statement, values), rowMode: 'array' });
  return result.rows;
}
