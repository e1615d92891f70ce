/**
 * Crash recovery of the task engine with the real server process (issue 4;
 * DESIGN §6 "a Running task whose worker died is retried or failed, never left
 * Running"; invariants in `README.md` beside this file).
 *
 * The test spawns `node --import tsx packages/server/src/main.ts` with
 * `ROLE=worker` on a fresh copy of the test template database and a simulated
 * cloud whose transitions take {@link SIM_DELAY_MS}. It queues a StartMachine
 * (stopped instance) and a CreateMachine (no instance) through the task queue,
 * waits until both are Running with their cloud call made (instances pending),
 * kills the worker with SIGKILL, starts a second worker, and expects:
 *
 * - both tasks end Completed (neither stays Running) within
 *   {@link RECOVERY_BOUND_MS} of the kill, resumed by the second worker
 *   (attempt 2);
 * - the cloud calls were not repeated: the started instance keeps the public
 *   address of its one start (each start from stopped gives a new one), and the
 *   created machine has exactly one instance, launched under the task's client
 *   token, running, with a credential issued.
 *
 * Recovery time with the engine defaults (heartbeat 5 s, stale after 30 s,
 * sweep every 10 s): about 30–45 s after the kill, so the test takes about a
 * minute; its timeout is {@link TEST_TIMEOUT_MS}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { connectDatabase, type Database } from '../../db/client.js';
import { cloudInstances, machineCredentials, machines, machineTasks } from '../../db/schema.js';
import { createTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../../test/db-url.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createTaskEvents } from '../push/events.js';
import { createTaskQueue, type TaskMachine } from './queue.js';

/** Duration of each simulated instance transition in the worker, ms: the window in which the worker is killed. */
const SIM_DELAY_MS = 5_000;
/** The bound: a task of a killed worker has ended this long after the kill, ms. */
const RECOVERY_BOUND_MS = 90_000;
/** Longest wait for a worker process to start its engine, ms. */
const START_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 180_000;

const root = new URL('../../../../../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Worker {
  child: ChildProcess;
  output: string[];
}

let created: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
const workers: Worker[] = [];

/** Spawns the real server as a worker on the test database; resolves once its engine has started. */
async function startWorker(): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: created.url,
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_KEY: TEST_DATA_KEY,
      SEED: 'none',
      SIM_CLOUD_DELAY_MS: String(SIM_DELAY_MS),
      DATABASE_POOL_SIZE: '5',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: Worker = { child, output: [] };
  workers.push(worker);
  child.stdout!.on('data', (d) => worker.output.push(String(d)));
  child.stderr!.on('data', (d) => worker.output.push(String(d)));
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
  const exited = new Promise((r) => worker.child.once('exit', r));
  worker.child.kill(signal);
  await Promise.race([exited, sleep(15_000)]);
}

const tasksOf = (ids: number[]) => database.db.select().from(machineTasks).where(inArray(machineTasks.id, ids));
const instancesOf = (machineId: number) => database.db.select().from(cloudInstances).where(eq(cloudInstances.machineId, machineId));

/** Polls until `check` answers a value, or fails after `timeoutMs` with `what`. */
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
});
afterAll(async () => {
  for (const w of workers) await kill(w, 'SIGKILL');
  await database?.close();
  await created?.drop();
});

describe('a worker killed in the middle of its tasks (issue 4)', () => {
  it(
    'ends them Completed after a restart, without repeating the cloud calls',
    async () => {
      const db = database.db;
      // Fixtures: a machine with a stopped instance, and one without an instance.
      const cloud = createSimulatedCloud({ db, delayMs: 0 });
      const account = await insertAccount(db, { name: 'Crash Fixture' });
      const asTaskMachine = (m: typeof machines.$inferSelect): TaskMachine => ({ id: m.id, name: m.name, accountId: account.id, classId: m.classId, accountClassId: account.classId });
      const toStart = await insertMachine(db, { accountId: account.id, instanceTypeId: 2, stop: false });
      const toCreate = await insertMachine(db, { accountId: account.id, instanceTypeId: 2 });
      const { cloudId } = await cloud.launch({ machineId: toStart.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `fixture-${toStart.id}` });
      await cloud.describe(cloudId);
      await cloud.stop(cloudId);
      expect((await cloud.describe(cloudId))!.status).toBe('stopped');

      const first = await startWorker();
      const queue = createTaskQueue({ events: createTaskEvents() });
      const queued = await db.transaction((tx) =>
        queue.enqueue(tx, [
          { machine: asTaskMachine(toStart), type: 'StartMachine' },
          { machine: asTaskMachine(toCreate), type: 'CreateMachine' },
        ]),
      );
      const [startId, createId] = queued.map((q) => q.task.id) as [number, number];

      // Mid-flight: both Running on the first worker, both cloud calls made, neither settled.
      const midFlight = await until('both tasks Running with pending instances', 30_000, async () => {
        const rows = await tasksOf([startId, createId]);
        if (!rows.every((r) => r.status === 'Running')) return undefined;
        const [started] = await instancesOf(toStart.id);
        const launched = await instancesOf(toCreate.id);
        if (started?.status !== 'pending' || launched.length !== 1 || launched[0]!.status !== 'pending') return undefined;
        return { startedAddress: started.ipAddress, launchedCloudId: launched[0]!.cloudId, firstWorker: rows[0]!.worker };
      });
      expect(midFlight.firstWorker).toContain(`:${first.child.pid}:`);

      await kill(first, 'SIGKILL');
      const killedAt = Date.now();
      expect(first.child.signalCode).toBe('SIGKILL');
      // Nobody finished them: the dead worker's tasks are still Running.
      expect((await tasksOf([startId, createId])).map((r) => r.status)).toEqual(['Running', 'Running']);

      const second = await startWorker();
      const ended = await until('both tasks ended', RECOVERY_BOUND_MS - (Date.now() - killedAt), async () => {
        const rows = await tasksOf([startId, createId]);
        return rows.every((r) => r.status !== 'New' && r.status !== 'Running') ? rows : undefined;
      });
      const recoveredInMs = Date.now() - killedAt;
      expect(recoveredInMs).toBeLessThan(RECOVERY_BOUND_MS);

      const byId = new Map(ended.map((r) => [r.id, r]));
      for (const id of [startId, createId]) {
        expect(byId.get(id), `task ${id}`).toMatchObject({ status: 'Completed', progress: 100, error: null, attempts: 2 });
        expect(byId.get(id)!.worker).toContain(`:${second.child.pid}:`);
      }

      // StartMachine: the one start stands (a second start from stopped would give a new public address).
      const [started] = await instancesOf(toStart.id);
      expect(started).toMatchObject({ cloudId, status: 'running', active: true, ipAddress: midFlight.startedAddress });
      expect((await db.select().from(machines).where(eq(machines.id, toStart.id)))[0]).toMatchObject({ stop: false });

      // CreateMachine: one instance, launched once under the task's client token, running, with a credential.
      const launched = await instancesOf(toCreate.id);
      expect(launched).toHaveLength(1);
      expect(launched[0]).toMatchObject({ cloudId: midFlight.launchedCloudId, clientToken: `task-${createId}`, status: 'running', active: true });
      expect(await db.select().from(machineCredentials).where(eq(machineCredentials.machineId, toCreate.id))).toHaveLength(1);

      console.info(`crash recovery: tasks ended ${(recoveredInMs / 1000).toFixed(1)} s after the SIGKILL`);
      await kill(second, 'SIGTERM');
    },
    TEST_TIMEOUT_MS,
  );
});
