/**
 * An external PostgreSQL (`DATABASE_URL`) stopped and started again under load
 * (issue 23 "The process survives its database").
 *
 * The test runs its own PostgreSQL (`startEmbeddedPostgres`, as a stand-in for
 * a database server the console does not own) and the real server against it
 * (`DATABASE_URL`, `JWT_SECRET`, `DATA_KEY`, demo seed). With StopMachine and
 * StartMachine tasks and manual Backups running and four clients reading
 * (`GET /machines/{id}`, `GET /accounts`, `GET /health`) in a loop, it stops
 * PostgreSQL (fast shutdown, as an operator's restart does), and expects:
 *
 * - while it is down: `GET /health` 503 `database: down`, reads and a
 *   mutation 503 problem details with `Retry-After` (the mutation queues
 *   nothing), never 500;
 * - once it is started again on its port: the console answers within 30 s,
 *   every task ends Completed and every Backup SUCCESS exactly once
 *   (`database-loss.ts`) within 60 s of that (`ENDED_WITHIN_MS`; the
 *   hand-over at the engines' first sweep or pass that reaches the database,
 *   not once its lease is stale, is proven by
 *   `engine/operations/database-loss.test.ts`), and a task queued after the
 *   restart runs too (the engine's LISTEN connections are back);
 * - the load saw only 200 and 503; a SIGTERM stops the server with exit 0.
 *
 * Duration: PostgreSQL's first start and the demo seed (15–40 s); the work
 * ended about 10 s after the restart when measured (2 shared cores): about
 * 25 s in all.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET, withDatabase } from './db-url.js';
import {
  abandon,
  BACK_WITHIN_MS,
  call,
  ENDED_WITHIN_MS,
  expectEachEndedOnce,
  expectGracefulStop,
  queueWork,
  spawnServer,
  startWork,
  unavailableMistakes,
  until,
  untilEnded,
  untilServing,
  type ServerProcess,
} from './database-loss.js';

const PASSWORD = 'loss-test';
/** Requests of the load at most (a bound, should the test hang). */
const LOAD_LIMIT = 20_000;

let pgDir = '';
let dataDir = '';
let postgres: EmbeddedDatabase | undefined;
let server: ServerProcess | undefined;
let observer: pg.Pool | undefined;

afterAll(async () => {
  await abandon(server, observer);
  await postgres?.stop().catch(() => undefined);
  for (const dir of [pgDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** Four clients reading in a loop until `stop()`; counts the answers by kind and status, keeps the wrong ones. */
function startLoad(port: number, token: string, machineId: number) {
  const counts = new Map<string, number>();
  const mistakes: string[] = [];
  let running = true;
  let sent = 0;
  const reads = [`/machines/${machineId}`, '/accounts?limit=20', '/health'];
  const client = async (n: number) => {
    for (let i = n; running && sent < LOAD_LIMIT; i++, sent++) {
      const path = reads[i % reads.length]!;
      const res = await call(port, 'GET', path, { token }).catch((err: Error) => ({ status: 0, error: err.message }) as const);
      const kind = path === '/health' ? 'health' : 'api';
      counts.set(`${kind} ${res.status}`, (counts.get(`${kind} ${res.status}`) ?? 0) + 1);
      if ('error' in res) mistakes.push(`${path}: ${res.error}`);
      else mistakes.push(...unavailableMistakes(res, kind).map((m) => `${path}: ${m}`));
    }
  };
  const clients = Promise.all([0, 1, 2, 3].map(client));
  return {
    counts,
    mistakes,
    async stop() {
      running = false;
      await clients;
    },
  };
}

describe('an external PostgreSQL restarted under load (issue 23)', () => {
  it(
    'answers 503 while it is down, again within 30 s of its return, and every task and operation ends exactly once',
    async () => {
      pgDir = await mkdtemp(join(tmpdir(), 'fleet-dbloss-pg-'));
      dataDir = await mkdtemp(join(tmpdir(), 'fleet-dbloss-external-'));
      postgres = await startEmbeddedPostgres({ dataDir: pgDir, password: PASSWORD });
      const port = postgres.port;
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('create database fleet_loss');
      await admin.end();
      const url = withDatabase(postgres.url, 'fleet_loss');

      server = spawnServer(await getPort(), { DATABASE_URL: url, JWT_SECRET: TEST_JWT_SECRET, DATA_KEY: TEST_DATA_KEY, DATA_DIR: dataDir });
      const token = await untilServing(server, 120_000);
      observer = new pg.Pool({ connectionString: url, max: 2 });
      observer.on('error', () => undefined); // its server is stopped under it
      const { work, finishes } = await startWork(server, token, observer);
      const [first, spare] = [...work.tasks.values()].map((t) => t.machineId);
      const load = startLoad(server.port, token, first!);
      const answered = (key: string, n: number) => async () => ((load.counts.get(key) ?? 0) >= n ? true : undefined);
      await until(server, 'the load served 20 reads', 20_000, answered('api 200', 20));

      await postgres.stop();
      const stoppedAt = Date.now();
      const down = await until(server, 'health 503 while PostgreSQL is stopped', 10_000, async () => {
        const res = await call(server!.port, 'GET', '/health');
        return res.status === 503 ? res : undefined;
      });
      expect(down.body).toMatchObject({ status: 'unavailable', database: 'down' });
      const read = await call(server.port, 'GET', `/machines/${first}`, { token });
      expect(unavailableMistakes(read, 'api')).toEqual([]);
      expect(read.status).toBe(503);
      // A mutation meets the database away: 503, and nothing is queued.
      const refused = await call(server.port, 'POST', `/machines/${spare}/start`, { token });
      expect(unavailableMistakes(refused, 'api')).toEqual([]);
      expect(refused.status).toBe(503);

      await until(server, 'the load met 20 answers 503', 20_000, answered('api 503', 20));
      postgres = await startEmbeddedPostgres({ dataDir: pgDir, password: PASSWORD, port });
      const restartedAt = Date.now();
      await until(server, 'health 200 after the restart', BACK_WITHIN_MS, async () => ((await call(server!.port, 'GET', '/health')).status === 200 ? true : undefined));
      const backInMs = Date.now() - restartedAt;
      await until(server, 'the load served 20 reads after the restart', 20_000, answered('api 200', (load.counts.get('api 200') ?? 0) + 20));
      await load.stop();
      expect(load.mistakes.slice(0, 20)).toEqual([]);

      const endedInMs = await untilEnded(server, observer, work, ENDED_WITHIN_MS);
      const { resumed } = await expectEachEndedOnce(observer, work, finishes);
      const { rows: refusedTasks } = await observer.query(`select id from machine_tasks where machine_id = $1 and queued_at >= to_timestamp($2 / 1000.0)`, [spare, stoppedAt]);
      expect(refusedTasks).toEqual([]);

      // After the restart the engine hears new work again.
      const later = await queueWork(server.port, token, observer, 1, 0);
      const laterInMs = await untilEnded(server, observer, later, 60_000);
      finishes.socket.disconnect();
      console.info(
        `database loss (external): down ${((restartedAt - stoppedAt) / 1000).toFixed(1)} s; answering ${(backInMs / 1000).toFixed(1)} s after the restart; ` +
          `load ${JSON.stringify(Object.fromEntries(load.counts))}; all work ended ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart ` +
          `(${(endedInMs / 1000).toFixed(1)} s after health); ${resumed} of ${work.tasks.size + work.backups.size} resumed; a task queued afterwards ended in ${(laterInMs / 1000).toFixed(1)} s`,
      );

      await observer.end();
      observer = undefined;
      await expectGracefulStop(server);
    },
    240_000,
  );
});
