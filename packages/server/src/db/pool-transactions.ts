/**
 * Pool clients of failed transactions go back to the pool, or out of it
 * (issue 23 "The process survives its database").
 *
 * drizzle-orm 0.45's node-postgres `transaction()` on a pool checks a client
 * out and runs BEGIN before the try/finally that releases it
 * (drizzle-team/drizzle-orm#6241, #6114). When BEGIN fails (the connection
 * died right after checkout, as when PostgreSQL restarts under the server) the
 * client is never released: the pool loses a slot for good, and `pool.end()`
 * then waits for ever (a server stop hung for 30 s after a database restart).
 * It also gives a client whose ROLLBACK failed back to the pool as if healthy.
 *
 * {@link releaseFailedTransactionClients} wraps `NodePgSession.transaction`:
 * on a pool it checks the client out itself, runs drizzle's own transaction
 * on that client (BEGIN, COMMIT, ROLLBACK unchanged), and releases it on every
 * path; a client whose transaction failed because the database went away
 * (`isGone`: `isDatabaseGone` of `client.ts`) is released with the error, so
 * the pool discards it.
 *
 * Known limitations: a patch of drizzle's prototype, for every pool of the
 * process; remove it once drizzle releases the fix (`pool-transactions.test.ts`
 * shows the leak without it).
 */
import { NodePgSession } from 'drizzle-orm/node-postgres';
import pg from 'pg';

interface SessionInternals {
  client: pg.Pool | pg.PoolClient | pg.Client;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}

type Transaction = NodePgSession<Record<string, unknown>, never>['transaction'];

let installed = false;

/** drizzle's own test for a pool (`instanceof Pool`, or a class named like one). */
const isPool = (client: SessionInternals['client']): client is pg.Pool =>
  client instanceof pg.Pool || Object.getPrototypeOf(client).constructor.name.includes('Pool');

/** Installs the wrapper (see the module docstring); once per process, later calls do nothing. */
export function releaseFailedTransactionClients({ isGone }: { isGone(err: unknown): boolean }): void {
  if (installed) return;
  installed = true;
  const prototype = NodePgSession.prototype as unknown as { transaction: Transaction };
  const original = prototype.transaction;
  prototype.transaction = async function (this: SessionInternals, transaction, config) {
    if (!isPool(this.client)) return original.call(this as never, transaction, config);
    const client = await this.client.connect();
    let failure: unknown;
    try {
      // On a checked-out client drizzle neither checks out nor releases: that is done here.
      const session = new NodePgSession(client, this.dialect, this.schema, this.options);
      return await session.transaction(transaction as never, config);
    } catch (err) {
      failure = err;
      throw err;
    } finally {
      client.release(failure !== undefined && isGone(failure) ? (failure as Error) : undefined);
    }
  } as Transaction;
}
