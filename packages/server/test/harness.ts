/**
 * API test harness: a fresh copy of the demo-seeded template database and the real
 * Fastify app on it, with helpers to sign in and call the API through `inject`.
 *
 * Use: `const t = await startTestApp(); afterAll(t.close);`
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import type { ObjectStore } from '../src/storage/object-store.js';
import { createLocalObjectStore } from '../src/storage/local-store.js';
import { connectDatabase, type Database } from '../src/db/client.js';
import { TEMPLATE_DB, TEST_DATA_KEY, TEST_JWT_SECRET, withDatabase } from './db-url.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The app's object store (library files): `opts.store`, else a local one in a temporary folder removed on close. */
  store: ObjectStore;
  /** Signs in and returns the bearer token. */
  login(username: string, password?: string): Promise<string>;
  /** `inject` with the token of `as` (a demo username) or none. */
  call(opts: {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    as?: string;
    token?: string;
    body?: unknown;
    query?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject('serverUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** `store`: the object store of library files (default: a local one in a temporary folder). */
export async function startTestApp(opts: { tokenLifetimeSeconds?: number; store?: ObjectStore } = {}): Promise<TestApp> {
  const created = await createTestDatabase();
  const storeRoot = opts.store ? undefined : await mkdtemp(join(tmpdir(), 'fleet-test-objects-'));
  const store = opts.store ?? createLocalObjectStore({ root: storeRoot! });
  const database = connectDatabase(created.url, { max: 5 });
  const app = await buildApp({
    db: database.db,
    // Limits no test reaches by accident (security-headers.test.ts tests them with low ones).
    config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 } },
    tokenLifetimeSeconds: opts.tokenLifetimeSeconds,
    store,
  });
  await app.ready();
  const tokens = new Map<string, string>();

  const login: TestApp['login'] = async (username, password = username) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { accessToken: { token: string } }).accessToken.token;
  };

  return {
    app,
    database,
    store,
    login,
    async call({ method, url, as, token, body, query }) {
      let bearer = token;
      if (!bearer && as) {
        bearer = tokens.get(as) ?? (await login(as));
        tokens.set(as, bearer);
      }
      return app.inject({
        method,
        url: url.startsWith('/api') ? url : `/api/v1${url}`,
        query,
        payload: body as never,
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
    },
    async close() {
      await app.close();
      await database.close();
      await created.drop();
      if (storeRoot) await rm(storeRoot, { recursive: true, force: true });
    },
  };
}
