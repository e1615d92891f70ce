/**
 * API test harness: a fresh copy of the demo-seeded template database and the real
 * Fastify app on it, with helpers to sign in and call the API through `inject`.
 *
 * Use: `const t = await startTestApp(); afterAll(t.close);`, or for a test of
 * the engines or repositories without the app: `const database = useTestDatabase({ max: 4 });`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import { DEFAULT_AGENT, type Config } from '../src/config.js';
import type { ObjectStore } from '../src/storage/object-store.js';
import { createLocalObjectStore } from '../src/storage/local-store.js';
import { connectDatabase, type Database } from '../src/db/client.js';
import { TEMPLATE_DB, TEST_DATA_KEY, TEST_JWT_SECRET, withDatabase } from './db-url.js';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
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

/**
 * Creates a fresh copy of the migrated, demo-seeded template database on the
 * run's PostgreSQL server (`inject('serverUrl')`, global-setup.ts). `drop()`
 * removes it, closing whatever connections are left (`with (force)`).
 */
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

/** A fresh copy of the template database and a connection pool on it. */
export interface TestDatabase extends Database {
  /** The copy's connection URL: for worker processes and a test's own clients. */
  readonly url: string;
}

/** A {@link TestDatabase} its opener removes. */
export interface OpenedTestDatabase extends TestDatabase {
  /** Closes the pool (unless the test closed it) and drops the copy. */
  dispose(): Promise<void>;
}

/** `max`: the pool's connections (default 5); `onError`: as for {@link connectDatabase}. */
export interface TestDatabaseOptions {
  max?: number;
  onError?: (err: Error) => void;
}

/**
 * Creates a fresh copy of the template database ({@link createTestDatabase})
 * and connects a pool of `opts.max` connections to it. The caller disposes of
 * it; in a test file, {@link useTestDatabase} does that in its hooks.
 */
export async function openTestDatabase(opts: TestDatabaseOptions = {}): Promise<OpenedTestDatabase> {
  const created = await createTestDatabase();
  const database = connectDatabase(created.url, { max: opts.max ?? 5, onError: opts.onError });
  let closed = false;
  const close = () => {
    closed = true;
    return database.close();
  };
  return {
    db: database.db,
    pool: database.pool,
    url: created.url,
    close,
    async dispose() {
      if (!closed) await close();
      await created.drop();
    },
  };
}

/**
 * A fresh copy of the template database for the test file (or the `describe`)
 * it is called in: it registers a `beforeAll` that opens it
 * ({@link openTestDatabase}) and an `afterAll` that closes its pool and drops
 * it. The answer reads the open database: its `db`, `pool` and `url` throw
 * before the `beforeAll` ran. `close()` closes the pool early (a test of
 * closing); the `afterAll` then only drops the copy.
 *
 * Call it before the file's own hooks: Vitest runs `beforeAll` hooks in the
 * order they were registered and `afterAll` hooks in the reverse order, so the
 * engines, workers or apps the file starts in its hooks find the database open
 * and are stopped in their `afterAll` before it is dropped.
 */
export function useTestDatabase(opts: TestDatabaseOptions = {}): TestDatabase {
  let opened: OpenedTestDatabase | undefined;
  beforeAll(async () => {
    opened = await openTestDatabase(opts);
  });
  afterAll(async () => {
    await opened?.dispose();
    opened = undefined;
  });
  const current = () => {
    if (!opened) throw new Error('useTestDatabase: the database is open from its beforeAll to its afterAll only');
    return opened;
  };
  return {
    get db() {
      return current().db;
    },
    get pool() {
      return current().pool;
    },
    get url() {
      return current().url;
    },
    close: () => current().close(),
  };
}

/** `store`: the object store of library files (default: a local one in a temporary folder); `sso`: single sign-on (default off). */
export async function startTestApp(
  opts: {
    tokenLifetimeSeconds?: number;
    store?: ObjectStore;
    events?: AppOptions['events'];
    metrics?: AppOptions['metrics'];
    sso?: AppOptions['config']['sso'];
    /** Engine settings over `DEFAULT_AGENT` (`Config.agent`). */
    agent?: Partial<Config['agent']>;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase({ max: 5 });
  const storeRoot = opts.store ? undefined : await mkdtemp(join(tmpdir(), 'fleet-test-objects-'));
  const store = opts.store ?? createLocalObjectStore({ root: storeRoot! });
  const app = await buildApp({
    db: database.db,
    // Limits no test reaches by accident (security-headers.test.ts tests them with low ones).
    config: {
      jwtSecret: TEST_JWT_SECRET,
      dataKey: TEST_DATA_KEY,
      webDist: '/nonexistent',
      rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 },
      sso: opts.sso,
      agent: opts.agent && { ...DEFAULT_AGENT, ...opts.agent },
    },
    tokenLifetimeSeconds: opts.tokenLifetimeSeconds,
    store,
    events: opts.events,
    metrics: opts.metrics,
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
      await database.dispose();
      if (storeRoot) await rm(storeRoot, { recursive: true, force: true });
    },
  };
}
