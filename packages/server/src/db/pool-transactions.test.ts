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

describe('a transaction whose connection died under it (drizzle-team/drizzle-orm#6241)', () => {
  it('gives its pool client back, so the pool goes on serving and ends', async () => {
    const db = database.db;
    let beginFailed = 0;
    for (let round = 0; round < 20 && beginFailed < 3; round++) {
      const [{ pid }] = (await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows as [{ pid: number }];
      // The idle client's backend ends; the pool has not heard of it yet when the transaction takes the client.
      await admin.query('select pg_terminate_backend($1)', [pid]);
      const outcome = await within(
        5_000,
        db.transaction(async (tx) => tx.execute(sql`select 1`)).then(
          () => 'committed',
          (err: unknown) => (isDatabaseGone(err) ? 'gone' : `other: ${String(err)}`),
        ),
      );
      expect(['committed', 'gone']).toContain(outcome);
      if (outcome === 'gone') beginFailed += 1;
      // The one connection is usable again (a fresh one): nothing leaked.
      expect((await within(5_000, db.execute(sql`select 1 as one`))).rows).toEqual([{ one: 1 }]);
    }
    expect(beginFailed).toBeGreaterThan(0);
    await within(5_000, database.close());
  });
});
