/**
 * Walks every route of the OpenAPI document: without a token nothing but the
 * public routes answers; as `viewer` (no write) no mutation succeeds and nothing
 * answers 500 (DESIGN §5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let routes: { method: string; path: string }[];
const PUBLIC = new Set(['POST /api/v1/auth/login', 'GET /api/v1/health']);
/** Mutations of the user's own session or password, allowed without write. */
const SELF_SERVICE = new Set(['POST /api/v1/auth/logout', 'PUT /api/v1/user/password']);

beforeAll(async () => {
  t = await startTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  expect(doc.openapi).toBe('3.1.0');
  routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
  );
});
afterAll(() => t.close());

const concrete = (path: string, id: number) => path.replace(/\{[^}]+\}/g, String(id));

const snapshot = async () =>
  (
    await t.database.db.execute(sql`
    select (select count(*) from accounts where deleted_at is null)::int as accounts,
           (select count(*) from machine_tasks)::int as tasks,
           (select count(*) from machines where terminate)::int as terminating`)
  ).rows[0];

describe('every route of the OpenAPI document', () => {
  it('documents the routes of this build with an operationId each', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(routes.length).toBeGreaterThan(10);
    for (const ops of Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const op of Object.values(ops)) expect(op.operationId).toBeTruthy();
    }
  });

  it('answers 401 without a token, except the public routes', async () => {
    for (const r of routes) {
      const res = await t.app.inject({ method: r.method as 'GET', url: concrete(r.path, 1), payload: r.method === 'GET' ? undefined : {} });
      if (PUBLIC.has(`${r.method} ${r.path}`)) expect(res.statusCode, `${r.method} ${r.path}`).not.toBe(401);
      else expect(res.statusCode, `${r.method} ${r.path}`).toBe(401);
    }
  });

  it('lets no mutation succeed for a viewer, and never answers 500', async () => {
    const token = await t.login('viewer');
    const before = await snapshot();
    const { rows } = await t.database.db.execute<{ id: number }>(sql`select id from accounts where class_id <> 5 and deleted_at is null order by id limit 1`);
    const realId = rows[0]?.id ?? 1;
    for (const r of routes) {
      if (SELF_SERVICE.has(`${r.method} ${r.path}`) || PUBLIC.has(`${r.method} ${r.path}`)) continue;
      const res = await t.call({ method: r.method as 'GET', url: concrete(r.path, realId), token, body: r.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${r.method} ${r.path}: ${res.body}`).toBeLessThan(500);
      if (r.method !== 'GET') expect(res.statusCode, `${r.method} ${r.path}`).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });
});
