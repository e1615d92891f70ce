/**
 * Vitest global set-up: starts one PostgreSQL for the run (embedded under a temp
 * folder, or the server of `DATABASE_URL`), builds the template database
 * `fleet_template` (migrations plus the demo seed) and hands its URL to the tests.
 * Bundles the server for the tests that spawn it (`server-command.ts`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase, runMigrations } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { seedIfEmpty } from '../src/seed/index.js';
import { TEST_DATA_KEY, TEMPLATE_DB, withDatabase } from './db-url.js';
import { bundleServer } from './server-command.js';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
  }
}

export default async function setup(project: TestProject) {
  let serverUrl = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  if (!serverUrl) {
    dir = await mkdtemp(join(tmpdir(), 'fleet-test-'));
    const embedded = await startEmbeddedPostgres({ dataDir: dir, password: 'test' });
    serverUrl = embedded.url;
    stop = embedded.stop;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  const template = connectDatabase(withDatabase(serverUrl, TEMPLATE_DB), { max: 4 });
  await runMigrations(template.db);
  await seedIfEmpty(template.db, { kind: 'demo', dataKey: TEST_DATA_KEY });
  await template.close();
  await admin.end();

  const removeBundle = await bundleServer();
  project.provide('serverUrl', serverUrl);
  return async () => {
    await removeBundle();
    await stop?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}
