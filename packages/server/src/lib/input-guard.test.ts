/**
 * The input guards behind the schemas (issue 9, DESIGN §5): NUL characters named
 * by their field, and the backstop that answers a PostgreSQL data exception as
 * 400 problem details instead of a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { useTestDatabase } from '../../test/harness.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../test/db-url.js';
import { isDatabaseInputError, nulByteErrors } from './input-guard.js';

describe('nulByteErrors', () => {
  it('names body fields by their path and parameters by their name', () => {
    expect(nulByteErrors({ a: { b: ['ok', 'x\u0000'] } }, { topLevelOnly: false })).toEqual([
      { propertyName: 'a.b.1', errorMessage: 'Must not contain a NUL character' },
    ]);
    expect(nulByteErrors({ ids: ['1', '2\u0000'] }, { topLevelOnly: true })).toEqual([
      { propertyName: 'ids', errorMessage: 'Must not contain a NUL character' },
    ]);
    expect(nulByteErrors({ ['k\u0000']: 1 }, { topLevelOnly: false })[0]?.propertyName).toBe('k\u0000');
    expect(nulByteErrors('\u0000', { topLevelOnly: false })[0]?.propertyName).toBe('body');
    expect(nulByteErrors({ fine: 'text', n: 1, none: null }, { topLevelOnly: false })).toEqual([]);
  });

  it('walks a body nested 100,000 levels deep without exhausting the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(nulByteErrors(deep, { topLevelOnly: false })).toHaveLength(1);
  });
});

describe('the database input backstop', () => {
  // First: its afterAll (dropping the database) runs after the app closed.
  const database = useTestDatabase({ max: 2 });
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp({ db: database.db, config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1000, perAddress: 1000 } } });
    // A route whose schema forgot the bound: its value reaches PostgreSQL as is.
    app.get('/probe/:value', async (req) => {
      await database.db.execute(sql`select ${(req.params as { value: string }).value}::int`);
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers an integer out of range as 400 problem details, not 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/2147483648' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 400, type: 'https://fleet-console.dev/problems/database-input', errors: [{ propertyName: 'request' }] });
    expect((await app.inject({ method: 'GET', url: '/probe/12' })).statusCode).toBe(200);
  });

  it('recognises a data exception also when Drizzle wraps it, and nothing else', () => {
    expect(isDatabaseInputError({ code: '22003' })).toBe(true);
    expect(isDatabaseInputError({ cause: { code: '22P02' } })).toBe(true);
    expect(isDatabaseInputError({ code: '23505' })).toBe(false);
    expect(isDatabaseInputError(new Error('22003'))).toBe(false);
  });
});
