import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded.js';
import { postgresProcessesOf } from './leftover-postgres.js';

const dataDir = mkdtempSync(join(tmpdir(), 'fleet-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('startEmbeddedPostgres stop', () => {
  it('returns when PostgreSQL got the stop signal first and has already ended (SIGINT to the process group)', async () => {
    const db = await startEmbeddedPostgres({ dataDir, password: 'test-password' });
    const databaseDir = join(dataDir, 'pg');
    const postmaster = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    // What a terminal's Ctrl-C does: the signal reaches PostgreSQL too, and it shuts down on its own.
    process.kill(postmaster, 'SIGINT');
    await expect.poll(() => postgresProcessesOf(databaseDir).length, { timeout: 20_000 }).toBe(0);
    const started = Date.now();
    await db.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);
});
