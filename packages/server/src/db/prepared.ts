/**
 * Named prepared statements for the hot read paths (issue 9 "The slow paths").
 *
 * The list statements (a page of machines with its recent tasks, operations and
 * instance; a page of operations; a page of accounts) take PostgreSQL longer to
 * plan than to run: EXPLAIN ANALYZE of `GET /machines` of a 100-machine account
 * on the scale fleet showed 5 to 15 ms of planning for 2 to 3 ms of execution.
 * A named statement is parsed and planned once per pooled connection; after five
 * runs PostgreSQL keeps a generic plan when it is no worse than the custom ones
 * (its plan cache's own rule), so planning all but disappears.
 *
 * The name is a hash of the statement's text, so every shape of a query (which
 * filters it has, how many hidden classes) is its own statement and one name is
 * never bound to two texts (node-postgres refuses that). The shapes are few: the
 * callers pass lists as one array parameter, not one parameter per element.
 */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DbOrTx } from './client.js';

const dialect = new PgDialect();

/** `q_` and 20 hex digits of the SHA-1 of the statement text. */
export function statementName(text: string): string {
  return `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/**
 * Runs a Drizzle query builder (select) as a named prepared statement and
 * returns what its `execute()` returns (the mapped rows).
 */
export function executePrepared<R>(query: { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<R> } }): Promise<R> {
  return query.prepare(statementName(query.toSQL().sql)).execute();
}

/**
 * Runs a raw `sql` statement as a named prepared statement and returns its rows
 * as PostgreSQL types them (no mapping). Inside a transaction the statement runs
 * on the transaction's connection, unnamed.
 */
export async function queryPrepared<T extends pg.QueryResultRow>(db: DbOrTx, statement: SQL): Promise<T[]> {
  if (!('$client' in db)) return (await db.execute(statement)).rows as T[];
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return (await db.$client.query<T>({ name: statementName(text), text, values: params })).rows;
}
