/**
 * The OpenAPI document (`/api/v1/openapi.json`, DESIGN §5) as `buildApp` makes it,
 * without a database: the pool of a Drizzle handle connects at its first query, and
 * building the app and its document runs none.
 *
 * Used by `dump-openapi.ts` (writes `fixtures/openapi.json`) and by
 * `openapi-contract.test.ts` (the document changes only on purpose).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { connectDatabase } from '../src/db/client.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from './db-url.js';

/** An app on a database it never reaches (nothing listens on port 1); close it and `close()` after use. */
export async function buildAppWithoutDatabase(): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const database = connectDatabase('postgres://unused:unused@127.0.0.1:1/unused', { max: 1 });
  const app = await buildApp({
    db: database.db,
    config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 } },
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The document as plain JSON (what `GET /api/v1/openapi.json` sends), with each
 * `default` that is a timestamp written as its distance from now in whole days
 * (`<now + 365 days>`): a few contract defaults are computed when the document is
 * made (a license's expiry a year ahead), so the raw value differs at every run.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const { app, close } = await buildAppWithoutDatabase();
  try {
    const now = Date.now();
    return JSON.parse(JSON.stringify(app.swagger()), (key, value: unknown) =>
      key === 'default' && typeof value === 'string' && ISO_TIMESTAMP.test(value) ? `<now + ${Math.round((Date.parse(value) - now) / DAY_MS)} days>` : value,
    ) as Record<string, unknown>;
  } finally {
    await close();
  }
}

/**
 * The document as the fixture stores it: one line per top-level key, per path and
 * per tag, so that a diff names the path that changed and no line is a megabyte.
 */
export function documentText(doc: Record<string, unknown>): string {
  const entries = (value: Record<string, unknown>) => Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const lines = Object.entries(doc).map(([key, value]) => {
    if (key === 'paths') return `"paths": {\n  ${entries(value as Record<string, unknown>).join(',\n  ')}\n}`;
    if (key === 'tags') return `"tags": [\n  ${(value as unknown[]).map((t) => JSON.stringify(t)).join(',\n  ')}\n]`;
    return `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}
