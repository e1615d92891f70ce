/**
 * Connection pool, Drizzle handle and migrations.
 */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.js';
import { releaseFailedTransactionClients } from './pool-transactions.js';

/** The Drizzle handle; `$client` is its pool (the task engine's pg-boss and LISTEN use it). */
export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A Drizzle transaction handle, as passed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: what repositories take. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Session settings of the pool that runs the list pages' prepared statements
 * (db/prepared.ts): generic plans, no parallel workers.
 *
 * Every list page is a statement with `offset $n limit $m`. PostgreSQL plans a
 * parameter limit as a tenth of the table, so the generic plan of a fleet-wide
 * page looked dearer than a custom one and the plan cache planned the
 * statement again at every call (3 ms of the database's CPU for the Machines
 * viewer's first page, pg_stat_statements: as many plans as calls), or chose a
 * parallel plan that starts a worker process per call. Their generic plans walk
 * the list's index in order and stop at the page (0.5 ms); forcing them took
 * the Machines viewer from 457 to 882 requests a second at 20 clients. The
 * rest of the server keeps PostgreSQL's own choice: its statements are not
 * paged and some filter on skewed columns (a task's status), where a custom
 * plan is the right one.
 */
export const LIST_SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0';

/** The list pool of each Drizzle handle made by {@link connectDatabase}. */
const listPools = new WeakMap<object, pg.Pool>();

/** The pool for list pages' prepared statements ({@link LIST_SESSION_OPTIONS}) of `db`, or its own pool. */
export function listPoolOf(db: Db): pg.Pool {
  return listPools.get(db) ?? db.$client;
}

export function connectDatabase(url: string, opts: { max?: number; onError?: (err: Error) => void } = {}): Database {
  // drizzle 0.45 leaks the pool client of a transaction whose BEGIN fails (a database that went away).
  releaseFailedTransactionClients({ isGone: isDatabaseGone });
  const newPool = (options?: string) => {
    const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 20, options });
    // An idle client whose server went away (restart, shutdown) must not crash the
    // process; the pool drops it and the next query opens a fresh connection.
    pool.on('error', (err) => opts.onError?.(err));
    // pg-pool listens for errors of idle clients only: a socket error on a client
    // checked out between two statements of a transaction (the database stopping
    // under the engines' claims) would be an uncaught 'error' event and kill the
    // process. With this listener the transaction's next query fails instead
    // ("not queryable", which isDatabaseGone knows) and the pool drops the client.
    pool.on('connect', (client) => client.on('error', (err) => opts.onError?.(err)));
    return pool;
  };
  const pool = newPool();
  const db = drizzle(pool, { schema });
  // Its connections are opened when a list is first read.
  const lists = newPool(LIST_SESSION_OPTIONS);
  listPools.set(db, lists);
  return { db, pool, close: async () => void (await Promise.all([pool.end(), lists.end()])) };
}

/**
 * True for the error a connection gets when PostgreSQL shuts down or restarts
 * (SQLSTATE 57P01, admin_shutdown): expected at Ctrl-C, when the embedded server
 * stops with the process, so callers log it quietly.
 */
export function isAdminShutdown(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '57P01';
}

/** SQLSTATEs and socket codes of a database that stopped, is stopping or cannot be reached. */
const GONE_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);
/** What node-postgres says when the connection or the pool itself is gone. */
const GONE_MESSAGE = /Connection terminated|Cannot use a pool after calling end|Client has encountered a connection error|Client was closed/i;

/**
 * True when `err` says the database went away rather than that a statement
 * failed: an admin, crash or starting/stopping shutdown (57P01, 57P02, 57P03),
 * a refused or reset connection, a Unix-domain socket gone with its server, or
 * a pool already ended. During a graceful
 * stop these are expected and logged at debug; for a running task they mean
 * "resume it later", not "the task failed".
 */
export function isDatabaseGone(err: unknown): boolean {
  // Drizzle wraps the driver's error ("Failed query: …") and keeps it as `cause`.
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, syscall } = e as { code?: unknown; message?: unknown; syscall?: unknown };
    if ((typeof code === 'string' && GONE_CODES.has(code)) || (typeof message === 'string' && GONE_MESSAGE.test(message))) return true;
    // The Unix-domain socket of a stopped server is removed with it: its connect fails with ENOENT.
    if (code === 'ENOENT' && syscall === 'connect') return true;
  }
  return false;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the checked-in migrations not applied yet; safe to call at every start. */
export async function runMigrations(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** True for a Drizzle transaction handle (one checked-out connection), false for the database (its pool, `$client`). */
export const isTransaction = (db: DbOrTx): db is Tx => !('$client' in db);

/**
 * Runs `reads` (functions that each start one read) at once on the pool, and one after the other on a transaction;
 * answers their results in order, like `Promise.all`. A transaction is one connection: node-postgres queues a
 * query given to a client that is still running one, a use it deprecates (`Calling client.query() when the client
 * is already executing a query`; pg 9 refuses it), and the reads could not have run side by side there anyway.
 * A read that fails fails the whole, as with `Promise.all` (on a transaction, the later reads do not start).
 */
export async function readAll<const T extends readonly (() => PromiseLike<unknown>)[]>(
  db: DbOrTx,
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Results = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!isTransaction(db)) return (await Promise.all(reads.map((read) => read()))) as Results;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as Results;
}
