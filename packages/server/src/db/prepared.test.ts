/**
 * Named prepared statements (db/prepared.ts): one name per statement text, the
 * same rows as an unprepared run, in and out of a transaction; a statement
 * compiled once answers each run with that run's placeholder values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { compileStatement, queryCompiledArrays, queryPrepared, statementName } from './prepared.js';
import { mmaClasses } from './schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('prepared statements', () => {
  it('names a statement by its text', () => {
    expect(statementName('select 1')).toBe(statementName('select 1'));
    expect(statementName('select 1')).not.toBe(statementName('select 2'));
    expect(statementName('select 1')).toMatch(/^q_[0-9a-f]{20}$/);
  });

  it('answers like an unprepared statement, with parameters, in and out of a transaction', async () => {
    const db = t.database.db;
    const statement = (n: number) => sql`select id, name from mma_classes where id <> all(${sql.param([n])}::int[]) order by id`;
    const plain = (await db.execute(statement(1))).rows;
    expect(plain.length).toBeGreaterThan(0);
    for (let i = 0; i < 8; i++) expect(await queryPrepared(db, statement(1))).toEqual(plain);
    expect(await queryPrepared(db, statement(2))).not.toEqual(plain);
    await db.transaction(async (tx) => expect(await queryPrepared(tx, statement(1))).toEqual(plain));
  });

  it('runs a compiled statement with the values of each run, a placeholder used twice filled twice', async () => {
    const db = t.database.db;
    const compiled = compileStatement(
      sql`select id from mma_classes where id <> all(${sql.placeholder('hidden')}::int[]) and id >= ${sql.placeholder('from')}
        and ${sql.placeholder('from')}::int > 0 order by id`,
    );
    const ids = async (hidden: number[], from: number) => (await queryCompiledArrays(db, compiled, { hidden, from })).map((r) => r[0]);
    const all = (await db.select({ id: mmaClasses.id }).from(mmaClasses).orderBy(mmaClasses.id)).map((r) => r.id);
    expect(await ids([], 1)).toEqual(all);
    expect(await ids([all[0]!], 1)).toEqual(all.slice(1));
    expect(await ids([], all[2]!)).toEqual(all.slice(2));
    expect(await ids([], -1)).toEqual([]);
    await expect(queryCompiledArrays(db, compiled, { hidden: [] })).rejects.toThrow(/from/);
  });
});
