import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../../test/db-url.js';

let t: TestApp;
/** The same app on a database nobody listens for (stopped, restarting). */
let away: { app: FastifyInstance; database: Database };

beforeAll(async () => {
  t = await startTestApp();
  const database = connectDatabase(`postgres://postgres:x@127.0.0.1:${await getPort()}/fleet`, { max: 2, onError: () => undefined });
  const app = await buildApp({
    db: database.db,
    config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 } },
  });
  await app.ready();
  away = { app, database };
});
afterAll(async () => {
  await away?.app.close();
  await away?.database.close();
  await t?.close();
});

describe('GET /health (issue 23)', () => {
  it('answers 200 database ok while PostgreSQL answers', async () => {
    const res = await t.call({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', version: '0.1.0' });
  });

  it('answers 503 database down with Retry-After while it does not', async () => {
    const res = await away.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ status: 'unavailable', database: 'down', version: '0.1.0' });
  });
});

describe('calls while the database is away (issue 23)', () => {
  it('answer 503 problem details with Retry-After, not 500: a signed-in read, a mutation, a sign-in', async () => {
    const token = await t.login('admin');
    const calls = [
      { method: 'GET' as const, url: '/api/v1/accounts', headers: { authorization: `Bearer ${token}` } },
      { method: 'POST' as const, url: '/api/v1/machines/1/stop', headers: { authorization: `Bearer ${token}` } },
      { method: 'POST' as const, url: '/api/v1/auth/login', payload: { username: 'admin', password: 'admin' } },
    ];
    for (const call of calls) {
      const res = await away.app.inject(call);
      expect(res.statusCode, `${call.method} ${call.url}: ${res.body}`).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        type: 'https://fleet-console.dev/problems/database-unavailable',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The database is not available right now; send the request again in a few seconds',
      });
    }
  });
});
