/**
 * `readAll` (db/client.ts): reads at once on the pool, one after the other on a
 * transaction (its one connection), results in order either way.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness.js';
import { readAll, type DbOrTx } from './client.js';

const database = useTestDatabase({ max: 3 });

/** Two reads that note when they start and end; each answers its name after a short sleep in PostgreSQL. */
function noted(db: DbOrTx, events: string[]) {
  const read = (name: string) => async () => {
    events.push(`${name} started`);
    const { rows } = await db.execute<{ name: string }>(sql`select ${name}::text as name from pg_sleep(0.05)`);
    events.push(`${name} ended`);
    return rows[0]!.name;
  };
  return [read('first'), read('second')] as const;
}

describe('readAll', () => {
  it('runs the reads at once on the pool, and answers their results in order', async () => {
    const events: string[] = [];
    const results = await readAll(database.db, noted(database.db, events));
    expect(results).toEqual(['first', 'second']);
    expect(events.slice(0, 2)).toEqual(['first started', 'second started']);
  });

  it('runs them one after the other in a transaction, never giving its connection a second query while one runs', async () => {
    const events: string[] = [];
    const results = await database.db.transaction((tx) => readAll(tx, noted(tx, events)));
    expect(results).toEqual(['first', 'second']);
    expect(events).toEqual(['first started', 'first ended', 'second started', 'second ended']);
  });

  it('fails as Promise.all does when a read fails, and a transaction starts no read after it', async () => {
    const started: string[] = [];
    /** A read that fails, then one that would answer 2; each notes that it started. */
    const failingFirst = () =>
      [
        async () => {
          started.push('first');
          throw new Error('refused');
        },
        async () => {
          started.push('second');
          return 2;
        },
      ] as const;
    await expect(readAll(database.db, failingFirst())).rejects.toThrow('refused');
    expect(started).toEqual(['first', 'second']);

    started.length = 0;
    await expect(database.db.transaction((tx) => readAll(tx, failingFirst()))).rejects.toThrow('refused');
    expect(started).toEqual(['first']);
  });
});
