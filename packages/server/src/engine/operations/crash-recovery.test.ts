/**
 * Crash recovery of the operation agent with the real server process (issue 10
 * "a worker killed mid-operation leaves nothing RUNNING for ever and never runs
 * an operation's effect twice"; invariants in `README.md` beside this file).
 *
 * The test spawns `node --import tsx packages/server/src/main.ts` with
 * `ROLE=worker` on a fresh copy of the test template database, the simulated
 * agent at {@link SIM_AGENT_DELAY_MS} and the simulated cloud at
 * {@link SIM_CLOUD_DELAY_MS} (an image takes five delays). It queues a
 * CreateJumpStartAmi, a Populate and an ApplyConfig on three machines and a
 * SmokeTest behind the Populate, waits until the three run and the image
 * has been asked of the cloud (pending), kills the worker with SIGKILL, starts
 * a second one, and expects:
 *
 * - every operation ends SUCCESS or FAILURE (none stays RUNNING or queued)
 *   within {@link RECOVERY_BOUND_MS} of the kill; the three that ran were
 *   resumed by the second worker (attempt 2);
 * - the CreateJumpStartAmi made exactly one cloud image (its client token's)
 *   and exactly one jump-start SaaS image.
 *
 * Then a graceful stop with an operation in flight: SIGTERM to the second
 * worker exits 0 with nothing on stderr, the operation's lease is released
 * (still RUNNING, heartbeat at the epoch), and a third worker resumes it at
 * once and ends it SUCCESS.
 *
 * Recovery time with the defaults (heartbeat 5 s, stale after 30 s, pass every
 * 5 s): about 30–40 s after the kill; the test takes about a minute.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { OPERATION_MODE_STABLE } from '@fleet/contracts';
import { connectDatabase, type Database } from '../../db/client.js';
import { cloudImages, irmnVersions, machines, operations, saasImages } from '../../db/schema.js';
import { createTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../../test/db-url.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createOperationQueue, type OperationMachine } from './queue.js';

/** Real ms per nominal second of agent work in the workers: a Populate runs several seconds. */
const SIM_AGENT_DELAY_MS = 100;
/** Simulated cloud transitions in the workers; an image is available after five of them (10 s). */
const SIM_CLOUD_DELAY_MS = 2_000;
/** The bound: every operation of the killed worker has ended this long after the kill, ms. */
const RECOVERY_BOUND_MS = 90_000;
const START_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 240_000;

const root = new URL('../../../../../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Worker {
  child: ChildProcess;
  output: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

let created: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
const workers: Worker[] = [];
/** The workers' DATA_DIR (their object store), removed afterwards. */
let dataDir = '';

async function startWorker(): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: created.url,
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_KEY: TEST_DATA_KEY,
      SEED: 'none',
      SIM_CLOUD_DELAY_MS: String(SIM_CLOUD_DELAY_MS),
      SIM_AGENT_DELAY_MS: String(SIM_AGENT_DELAY_MS),
      DATABASE_POOL_SIZE: '5',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: Worker = { child, output: [], stderr: [], exited: new Promise((r) => child.once('exit', (code) => r(code))) };
  workers.push(worker);
  child.stdout!.on('data', (d) => worker.output.push(String(d)));
  child.stderr!.on('data', (d) => {
    worker.output.push(String(d));
    worker.stderr.push(String(d));
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!worker.output.join('').includes('worker started')) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${worker.output.join('')}`);
    if (Date.now() > deadline) throw new Error(`worker did not start within ${START_TIMEOUT_MS} ms:\n${worker.output.join('')}`);
    await sleep(100);
  }
  return worker;
}

async function kill(worker: Worker, signal: NodeJS.Signals): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill(signal);
  await Promise.race([worker.exited, sleep(20_000)]);
}

const operationsOf = (ids: number[]) => database.db.select().from(operations).where(inArray(operations.id, ids)).orderBy(operations.id);

async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const logs = workers.map((w, i) => `--- worker ${i + 1} ---\n${w.output.join('')}`).join('\n');
      throw new Error(`${what} not reached within ${timeoutMs} ms\n${logs}`);
    }
    await sleep(100);
  }
}

beforeAll(async () => {
  created = await createTestDatabase();
  database = connectDatabase(created.url, { max: 3 });
  // The seeded fleet's obsolete machines would get UpdateSoftware from the deploy
  // controller and fill the agent's slots: only this test's machines are managed.
  await database.db.update(machines).set({ managed: false });
  dataDir = await mkdtemp(join(tmpdir(), 'fleet-crash-ops-'));
});
afterAll(async () => {
  for (const w of workers) await kill(w, 'SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await database?.close();
  await created?.drop();
});

describe('a worker killed in the middle of its operations (issue 10)', () => {
  it(
    'ends every operation SUCCESS or FAILURE after a restart, and the image is made once',
    async () => {
      const db = database.db;
      const cloud = createSimulatedCloud({ db, delayMs: 0 });
      const account = await insertAccount(db, { name: 'Agent Crash Fixture' });
      const machine = async (): Promise<OperationMachine> => {
        const m = await insertMachine(db, { accountId: account.id, instanceTypeId: 2, isLauncher: true, isSiteMaster: true });
        const { cloudId } = await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `fixture-${m.id}` });
        await cloud.describe(cloudId);
        return { id: m.id, accountId: account.id, classId: m.classId, accountClassId: account.classId, operationMode: OPERATION_MODE_STABLE, failCounter: 0 };
      };
      const [imaged, updated, configured] = [await machine(), await machine(), await machine()];
      const [irmn] = await db.select({ name: irmnVersions.name }).from(irmnVersions).limit(1);

      const first = await startWorker();
      const queue = createOperationQueue({ announce: () => undefined });
      const queued = await db.transaction((tx) =>
        queue.enqueue(tx, [
          { machine: imaged, typeName: 'CreateJumpStartAmi', user: 'admin', activityId: null, params: { name: 'js-crash', description: 'crash test', irmnVersion: irmn!.name } },
          { machine: updated, typeName: 'Populate', user: 'admin', activityId: null, params: { populateLauncher: true, populateSiteMaster: true, altString: '' } },
          { machine: configured, typeName: 'ApplyConfig', user: 'admin', activityId: null },
          { machine: updated, typeName: 'SmokeTest', user: 'admin', activityId: null },
        ]),
      );
      const ids = queued.map((q) => q.operation.id);
      const [amiId] = ids as [number];
      const ran = ids.slice(0, 3);

      // Mid-flight: the three RUNNING on the first worker, the image asked of the cloud and not available yet.
      await until('three operations RUNNING with the image pending', 30_000, async () => {
        const rows = await operationsOf(ran);
        if (!rows.every((r) => r.status === 'RUNNING')) return undefined;
        const images = await db.select().from(cloudImages).where(eq(cloudImages.clientToken, `operation-${amiId}`));
        return images.length === 1 && images[0]!.status === 'pending' ? true : undefined;
      });
      expect((await operationsOf(ran)).every((r) => r.worker!.includes(`:${first.child.pid}:`))).toBe(true);

      await kill(first, 'SIGKILL');
      const killedAt = Date.now();
      expect(first.child.signalCode).toBe('SIGKILL');
      expect((await operationsOf(ran)).map((r) => r.status)).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);

      const second = await startWorker();
      const ended = await until('every operation ended', RECOVERY_BOUND_MS - (Date.now() - killedAt), async () => {
        const rows = await operationsOf(ids);
        return rows.every((r) => r.finishedAt !== null) ? rows : undefined;
      });
      const recoveredInMs = Date.now() - killedAt;
      expect(recoveredInMs).toBeLessThan(RECOVERY_BOUND_MS);
      for (const r of ended) expect(['SUCCESS', 'FAILURE'], `operation ${r.id}: ${r.output}`).toContain(r.status);
      for (const r of ended.filter((e) => ran.includes(e.id))) {
        expect(r, `operation ${r.id}`).toMatchObject({ status: 'SUCCESS', attempts: 2 });
        expect(r.worker).toContain(`:${second.child.pid}:`);
        expect(r.output).toMatch(/Resumed on .* \(attempt 2\)/);
      }

      const images = await db.select().from(cloudImages).where(eq(cloudImages.name, 'js-crash'));
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ clientToken: `operation-${amiId}`, status: 'available' });
      const registered = await db.select().from(saasImages).where(eq(saasImages.name, 'js-crash'));
      expect(registered).toHaveLength(1);
      expect(registered[0]).toMatchObject({ cloudImage: images[0]!.imageId, jumpStart: true });
      console.info(`operation crash recovery: operations ended ${(recoveredInMs / 1000).toFixed(1)} s after the SIGKILL`);

      // A graceful stop with an operation in flight hands it over at once.
      const [inFlight] = await db.transaction((tx) => queue.enqueue(tx, [{ machine: updated, typeName: 'Populate', user: 'admin', activityId: null, params: { populateLauncher: true, populateSiteMaster: true, altString: '' } }]));
      const handedId = inFlight!.operation.id;
      await until('the operation RUNNING', 30_000, async () => ((await operationsOf([handedId]))[0]!.status === 'RUNNING' ? true : undefined));
      await kill(second, 'SIGTERM');
      expect(await second.exited).toBe(0);
      expect(second.stderr.join('')).toBe('');
      const [handed] = await operationsOf([handedId]);
      expect(handed).toMatchObject({ status: 'RUNNING', attempts: 1 });
      expect(handed!.heartbeatAt!.getTime()).toBe(0);
      const third = await startWorker();
      const resumedAt = Date.now();
      const done = await until('the handed-over operation ended', 30_000, async () => {
        const [r] = await operationsOf([handedId]);
        return r!.finishedAt ? r : undefined;
      });
      expect(done).toMatchObject({ status: 'SUCCESS', attempts: 2 });
      expect(done!.worker).toContain(`:${third.child.pid}:`);
      // Released, not stale: resumed at the first pass, well before a lease would go stale (30 s).
      expect(Date.now() - resumedAt).toBeLessThan(20_000);
      expect((await db.select().from(machines).where(eq(machines.id, updated.id)))[0]!.failCounter).toBe(0);
      await kill(third, 'SIGTERM');
    },
    TEST_TIMEOUT_MS,
  );
});
