/**
 * Crash recovery of the task engine with the real server process (issue 4;
 * DESIGN §6 "a Running task whose worker died is retried or failed, never left
 * Running"; invariants in `README.md` beside this file).
 *
 * The test spawns the server (`packages/server/src/main.ts`, `server-command.ts`) with
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
 * The workers run with a task lease of {@link TASK_LEASE_S} (`TASK_LEASE_S`:
 * heartbeat 1 s, stale after 6 s, sweep every 2 s) instead of the default 30 s
 * (about 30–45 s to recover), so the test takes about 20 s instead of a
 * minute; its timeout is {@link TEST_TIMEOUT_MS}.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { cloudInstances, machineCredentials, machines, machineTasks } from '../../db/schema.js';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { workerProcesses } from '../../../test/worker-processes.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createTaskEvents } from '../push/events.js';
import { createTaskQueue, type TaskMachine } from './queue.js';

/** Duration of each simulated instance transition in the worker, ms: the window in which the worker is killed. */
const SIM_DELAY_MS = 5_000;
/** The bound: a task of a killed worker has ended this long after the kill, ms. */
const RECOVERY_BOUND_MS = 90_000;
const TEST_TIMEOUT_MS = 180_000;



// First: its afterAll (dropping the database) runs after the workers were killed.
const database = useTestDatabase({ max: 3 });
/** The workers' task lease, seconds (`TASK_LEASE_S`; the default is 30). */
const TASK_LEASE_S = 6;
const workers = workerProcesses(() => ({ DATABASE_URL: database.url, SIM_CLOUD_DELAY_MS: String(SIM_DELAY_MS), TASK_LEASE_S: String(TASK_LEASE_S) }));

const tasksOf = (ids: number[]) => database.db.select().from(machineTasks).where(inArray(machineTasks.id, ids));
const instancesOf = (machineId: number) => database.db.select().from(cloudInstances).where(eq(cloudInstances.machineId, machineId));

afterAll(async () => {
  await workers.killAll();
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

      const first = await workers.start();
      const queue = createTaskQueue({ events: createTaskEvents() });
      const queued = await db.transaction((tx) =>
        queue.enqueue(tx, [
          { machine: asTaskMachine(toStart), type: 'StartMachine' },
          { machine: asTaskMachine(toCreate), type: 'CreateMachine' },
        ]),
      );
      const [startId, createId] = queued.map((q) => q.task.id) as [number, number];

      // Mid-flight: both Running on the first worker, both cloud calls made, neither settled.
      const midFlight = await workers.until('both tasks Running with pending instances', 30_000, async () => {
        const rows = await tasksOf([startId, createId]);
        if (!rows.every((r) => r.status === 'Running')) return undefined;
        const [started] = await instancesOf(toStart.id);
        const launched = await instancesOf(toCreate.id);
        if (started?.status !== 'pending' || launched.length !== 1 || launched[0]!.status !== 'pending') return undefined;
        return { startedAddress: started.ipAddress, launchedCloudId: launched[0]!.cloudId, firstWorker: rows[0]!.worker };
      });
      expect(midFlight.firstWorker).toContain(`:${first.child.pid}:`);

      await workers.kill(first, 'SIGKILL');
      const killedAt = Date.now();
      expect(first.child.signalCode).toBe('SIGKILL');
      // Nobody finished them: the dead worker's tasks are still Running.
      expect((await tasksOf([startId, createId])).map((r) => r.status)).toEqual(['Running', 'Running']);

      const second = await workers.start();
      const ended = await workers.until('both tasks ended', RECOVERY_BOUND_MS - (Date.now() - killedAt), async () => {
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
      await workers.kill(second, 'SIGTERM');
    },
    TEST_TIMEOUT_MS,
  );
});
