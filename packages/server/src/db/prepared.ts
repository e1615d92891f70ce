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
import { fillPlaceholders, getTableColumns, type SQL, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { isTransaction, listPoolOf, type Db, type DbOrTx } from './client.js';

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
  if (isTransaction(db)) return (await db.execute(statement)).rows as T[];
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return (await listPoolOf(db).query<T>({ name: statementName(text), text, values: params })).rows;
}

/**
 * Runs a raw `sql` statement as a named prepared statement on the pool, or on
 * a transaction's own connection, and returns its rows as PostgreSQL types them
 * (no mapping). PostgreSQL parses and plans it once per connection: for a
 * statement that runs on every call of a hot route (the task queue's insert of
 * a task with its activity), not for one whose text varies with its values.
 */
export async function executeNamed<T extends pg.QueryResultRow>(db: DbOrTx, statement: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return (await connectionOf(db).query<T>({ name: statementName(text), text, values: params })).rows;
}

/** The pool, or the connection a Drizzle transaction runs on (its session's client). */
function connectionOf(db: DbOrTx): pg.Pool | pg.PoolClient {
  if (!isTransaction(db)) return db.$client;
  return (db as unknown as { session: { client: pg.PoolClient } }).session.client;
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
 * placeholders, on the pool or on a transaction's own connection, and returns
 * its rows as PostgreSQL types them (no mapping). Throws when a placeholder has
 * no value.
 */
export async function queryCompiled<T extends pg.QueryResultRow>(db: DbOrTx, statement: CompiledStatement, values: Record<string, unknown>): Promise<T[]> {
  return (await connectionOf(db).query<T>(compiledQuery(statement, values))).rows;
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

/**
 * One Drizzle prepared query per database handle, built at its first use:
 * `const byId = preparedPerDb((db) => db.select()....where(eq(t.id, sql.placeholder('id'))).prepare('t_by_id'))`,
 * then `await byId(db).execute({ id })`. The query is written out once, not on
 * every call (Drizzle's builder was a fifth of the task engine's CPU), and runs
 * as a named prepared statement, planned once per pooled connection. For
 * statements on the pool: a transaction's handle prepares its own.
 */
export function preparedPerDb<D extends object, Q>(prepare: (db: D) => Q): (db: D) => Q {
  const byDb = new WeakMap<D, Q>();
  return (db) => {
    let query = byDb.get(db);
    if (query === undefined) {
      query = prepare(db);
      byDb.set(db, query);
    }
    return query;
  };
}

/**
 * Maps a row of `table` as node-postgres answers a raw query (`select * from
 * a_function_returning_the_table(...)`, keys the column names) to the row
 * Drizzle would answer (keys the fields, values through each column's
 * mapping). For statements Drizzle's builder cannot write, such as a select
 * from a set-returning function.
 */
export function tableRowMapper<T extends Table>(table: T): (raw: Record<string, unknown>) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table));
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [field, column] of columns) {
      const value = raw[column.name];
      row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  };
}
