import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { StartFailure } from '../lib/start-failure.js';
import { postgresProcessesOf } from './leftover-postgres.js';
import { restartBackoffMs, superviseEmbeddedPostgres, type SupervisedPostgres } from './supervisor.js';

const dirs: string[] = [];
const supervised: SupervisedPostgres[] = [];
afterAll(async () => {
  for (const s of supervised) await s.stop().catch(() => undefined);
  for (const dir of dirs) {
    for (const pid of postgresProcessesOf(join(dir, 'pg'))) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A logger whose messages the test reads. */
function recordingLog() {
  const messages: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        messages.push((JSON.parse(String(chunk)) as { msg: string }).msg);
        done();
      },
    }),
  );
  return { log, messages };
}

const postmasterOf = (dataDir: string) => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('superviseEmbeddedPostgres', () => {
  it('backs off 0, 1, 2, 4, 8 s, at most 15 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartBackoffMs(n))).toEqual([0, 1000, 2000, 4000, 8000, 15000, 15000]);
  });

  it('starts a SIGKILLed postmaster again on the same port, with its data, and logs the loss and the recovery', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fleet-supervised-'));
    dirs.push(dataDir);
    const { log, messages } = recordingLog();
    const gaveUp: StartFailure[] = [];
    const db = await superviseEmbeddedPostgres({ dataDir, password: 'test-password', log, onGiveUp: (err) => gaveUp.push(err) });
    supervised.push(db);
    await query(db.url, 'create table kept (v int); insert into kept values (42)');
    // A client inside a long query when the postmaster dies: its backend outlives it and holds the shared memory.
    const long = new pg.Client({ connectionString: db.url });
    long.on('error', () => undefined);
    await long.connect();
    const running = long.query('select count(*) from generate_series(1, 2000000000)').catch(() => 'ended');

    const killed = postmasterOf(dataDir);
    process.kill(killed, 'SIGKILL');
    await expect.poll(() => messages.includes('the embedded PostgreSQL is back'), { timeout: 60_000 }).toBe(true);
    expect(await running).toBe('ended');
    await long.end().catch(() => undefined);
    expect(postmasterOf(dataDir)).not.toBe(killed);
    expect(await query(db.url, 'select v from kept')).toEqual([{ v: 42 }]);
    expect(messages).toContain('the embedded PostgreSQL stopped (killed by SIGKILL); restarting it');
    expect(gaveUp).toEqual([]);

    await db.stop();
    expect(postgresProcessesOf(join(dataDir, 'pg'))).toEqual([]);
  }, 120_000);

  it('gives up after the restarts fail in a row, with PostgreSQL\'s own words', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fleet-supervised-'));
    dirs.push(dataDir);
    const { log, messages } = recordingLog();
    let gaveUp: (err: StartFailure) => void = () => undefined;
    const given = new Promise<StartFailure>((resolve) => (gaveUp = resolve));
    const db = await superviseEmbeddedPostgres({ dataDir, password: 'test-password', log, onGiveUp: gaveUp, maxFailures: 3, firstBackoffMs: 10 });
    supervised.push(db);
    // A setting PostgreSQL does not know: every start refuses the configuration.
    appendFileSync(join(dataDir, 'pg', 'postgresql.auto.conf'), "\nfleet_no_such_setting = 'x'\n");
    process.kill(postmasterOf(dataDir), 'SIGKILL');

    const failure = await given;
    expect(failure.message).toMatch(/^the embedded PostgreSQL stopped and 3 restarts in a row failed; the last: the embedded PostgreSQL did not start: .*(fleet_no_such_setting|postgresql\.auto\.conf" contains errors)/);
    expect(failure.hint).not.toBe('');
    expect(messages.filter((m) => m === 'restarting the embedded PostgreSQL failed')).toHaveLength(3);
    expect(messages).not.toContain('the embedded PostgreSQL is back');
  }, 120_000);
});
