/**
 * Named prepared statements (db/prepared.ts): one name per statement text, the
 * same rows as an unprepared run, in and out of a transaction; a statement
 * compiled once answers each run with that run's placeholder values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { compileStatement, executeNamed, preparedPerDb, queryCompiled, queryCompiledArrays, queryPrepared, statementName, tableRowMapper } from './prepared.js';
import { machines, mmaClasses } from './schema.js';
import { insertAccount, insertMachine } from '../../test/fixtures.js';

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

  it("runs named statements on a transaction's own connection: they see its uncommitted rows, and its rollback", async () => {
    const db = t.database.db;
    const name = `prepared-test-${Date.now()}`;
    const byName = compileStatement(sql`select id from mma_classes where name = ${sql.placeholder('name')}`);
    await db
      .transaction(async (tx) => {
        await tx.insert(mmaClasses).values({ id: 9_001, name });
        expect(await queryCompiled(tx, byName, { name })).toEqual([{ id: 9_001 }]);
        expect(await executeNamed(tx, sql`select id from mma_classes where name = ${name}`)).toEqual([{ id: 9_001 }]);
        // Not yet on the pool's other connections.
        expect(await queryCompiled(db, byName, { name })).toEqual([]);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    expect(await executeNamed(db, sql`select id from mma_classes where name = ${name}`)).toEqual([]);
  });

  it("maps a raw row of a table as Drizzle's select does (fields, timestamps, json)", async () => {
    const db = t.database.db;
    const account = await insertAccount(db, { name: 'Prepared Mapper' });
    const { id } = await insertMachine(db, { accountId: account.id, name: 'prepared-mapper', componentConfig: { a: { b: 1 } } });
    const [drizzle] = await db.select().from(machines).where(sql`${machines.id} = ${id}`);
    const [raw] = await executeNamed<Record<string, unknown>>(db, sql`select * from machines where id = ${id}`);
    expect(tableRowMapper(machines)(raw!)).toEqual(drizzle);
    expect(drizzle!.createdAt).toBeInstanceOf(Date);
  });

  it('prepares a Drizzle query once per database handle', () => {
    let built = 0;
    const query = preparedPerDb((handle: object) => ({ handle, n: ++built }));
    const a = {};
    const b = {};
    expect(query(a)).toBe(query(a));
    expect(query(b).handle).toBe(b);
    expect(built).toBe(2);
  });
});
