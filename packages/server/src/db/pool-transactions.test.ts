import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness.js';
import { isDatabaseGone } from './client.js';

// One connection: a client the pool lost would leave nothing to run the next statement on.
// The test closes it; the afterAll then only drops the database.
const database = useTestDatabase({ max: 1, onError: () => undefined });
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
});

/** Answers within `ms` or rejects: a pool whose only client leaked never answers. */
const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

/** pg's client keeps its socket as `connection.stream` (not in its typings). */
const socketOf = (client: pg.PoolClient) => (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream;

describe('a transaction whose connection died under it (drizzle-team/drizzle-orm#6241)', () => {
  it('gives its pool client back, so the pool goes on serving and ends', async () => {
    const { db, pool } = database;
    let idle: pg.PoolClient | undefined;
    pool.on('release', (_err: Error | undefined, client: pg.PoolClient) => (idle = client));
    for (let round = 0; round < 3; round++) {
      const [{ pid }] = (await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows as [{ pid: number }];
      // The idle client does not read its socket, so the pool cannot hear of the death
      // before the transaction takes the client: BEGIN always runs on the dead connection.
      const socket = socketOf(idle!);
      socket.pause();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      while ((await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      pool.once('acquire', (client: pg.PoolClient) => socketOf(client).resume());
      const outcome = await within(
        5_000,
        db.transaction(async (tx) => tx.execute(sql`select 1`)).then(
          () => 'committed',
          (err: unknown) => (isDatabaseGone(err) ? 'gone' : `other: ${String(err)}`),
        ),
      );
      expect(outcome).toBe('gone');
      // The one connection is usable again (a fresh one): nothing leaked.
      expect((await within(5_000, db.execute(sql`select 1 as one`))).rows).toEqual([{ one: 1 }]);
    }
    await within(5_000, database.close());
  });
});
