/**
 * Crash recovery of the operation agent with the real server process (issue 10
 * "a worker killed mid-operation leaves nothing RUNNING for ever and never runs
 * an operation's effect twice"; invariants in `README.md` beside this file).
 *
 * The test spawns the server (`packages/server/src/main.ts`, `server-command.ts`) with
 * `ROLE=worker` on a fresh copy of the test template database (its operations
 * run by the engine's simulated agent, then by the MMAs in process:
 * `SIM_MMA=engine` and `protocol`), the simulated
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
 * once and ends it SUCCESS. The third worker has the default leases (30 s), so
 * a lease left to go stale would not be resumed within the test's 20 s.
 *
 * The first two workers' leases are short ({@link SHORT_LEASES}: an operation
 * lease of 6 s, so a heartbeat every second and a pass every 2 s; an MMA's
 * lease of 10 s, its least): the operations end about 15–20 s after the kill
 * (30–40 s with the defaults), and the test takes about half a minute per mode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { OPERATION_MODE_STABLE } from '@fleet/contracts';
import { cloudImages, irmnVersions, machines, operations, saasImages } from '../../db/schema.js';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { workerProcesses } from '../../../test/worker-processes.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createOperationQueue, type OperationMachine } from './queue.js';

/** Real ms per nominal second of agent work in the workers: a Populate runs several seconds. */
const SIM_AGENT_DELAY_MS = 100;
/** Simulated cloud transitions in the workers; an image is available after five of them (10 s). */
const SIM_CLOUD_DELAY_MS = 2_000;
/** The bound: every operation of the killed worker has ended this long after the kill, ms. */
const RECOVERY_BOUND_MS = 90_000;
const TEST_TIMEOUT_MS = 240_000;
/**
 * The leases of the first two workers, s (`OPERATION_LEASE_S`, `MMA_LEASE_S`: the MMAs in process's; its least,
 * 10): short, so that the killed worker's operations are resumed soon. The third worker has {@link DEFAULT_LEASES}.
 */
const SHORT_LEASES = { operation: 6, mma: 10 };
/** The defaults' 30 s, and an MMA's lease as long (its own default, 60 s, would leave the bound under 20 s). */
const DEFAULT_LEASES = { operation: 30, mma: 30 };
/** The leases of the next worker started. */
let leases = SHORT_LEASES;

// First: its afterAll (dropping the database) runs after the workers were killed.
const database = useTestDatabase({ max: 3 });
const workers = workerProcesses(() => ({
  DATABASE_URL: database.url,
  DATA_DIR: dataDir,
  SIM_CLOUD_DELAY_MS: String(SIM_CLOUD_DELAY_MS),
  SIM_AGENT_DELAY_MS: String(SIM_AGENT_DELAY_MS),
  SIM_MMA: simMma,
  OPERATION_LEASE_S: String(leases.operation),
  MMA_LEASE_S: String(leases.mma),
}));
/** Who runs the workers' operations in the test running now: the engine's simulated agent, or the MMAs in process. */
let simMma: 'engine' | 'protocol' = 'engine';
/** The workers' DATA_DIR (their object store), removed afterwards. */
let dataDir = '';

/** The operation's worker is process `pid`: the engine's `host:pid:random`, or an MMA in process's `mma-agent:0@host:pid`. */
const ranBy = (worker: string | null, pid: number | undefined) => new RegExp(`:${pid}(:|$)`).test(worker ?? '');

const operationsOf = (ids: number[]) => database.db.select().from(operations).where(inArray(operations.id, ids)).orderBy(operations.id);

beforeAll(async () => {
  // The seeded fleet's obsolete machines would get UpdateSoftware from the deploy
  // controller and fill the agent's slots: only this test's machines are managed.
  await database.db.update(machines).set({ managed: false });
  dataDir = await mkdtemp(join(tmpdir(), 'fleet-crash-ops-'));
});
afterAll(async () => {
  await workers.killAll();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe.each(['engine', 'protocol'] as const)('a worker killed in the middle of its operations (issue 10; SIM_MMA=%s)', (mode) => {
  it(
    'ends every operation SUCCESS or FAILURE after a restart, and the image is made once',
    async () => {
      simMma = mode;
      leases = SHORT_LEASES;
      const db = database.db;
      const cloud = createSimulatedCloud({ db, delayMs: 0 });
      const account = await insertAccount(db, { name: `Agent Crash Fixture ${mode}` });
      const machine = async (): Promise<OperationMachine> => {
        const m = await insertMachine(db, { accountId: account.id, instanceTypeId: 2, isLauncher: true, isSiteMaster: true });
        const { cloudId } = await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `fixture-${m.id}` });
        await cloud.describe(cloudId);
        return { id: m.id, accountId: account.id, classId: m.classId, accountClassId: account.classId, operationMode: OPERATION_MODE_STABLE, failCounter: 0 };
      };
      const [imaged, updated, configured] = [await machine(), await machine(), await machine()];
      const [irmn] = await db.select({ name: irmnVersions.name }).from(irmnVersions).limit(1);

      const first = await workers.start();
      const queue = createOperationQueue({ announce: () => undefined });
      const queued = await db.transaction((tx) =>
        queue.enqueue(tx, [
          { machine: imaged, typeName: 'CreateJumpStartAmi', user: 'admin', activityId: null, params: { name: `js-crash-${mode}`, description: 'crash test', irmnVersion: irmn!.name } },
          { machine: updated, typeName: 'Populate', user: 'admin', activityId: null, params: { populateLauncher: true, populateSiteMaster: true, altString: '' } },
          { machine: configured, typeName: 'ApplyConfig', user: 'admin', activityId: null },
          { machine: updated, typeName: 'SmokeTest', user: 'admin', activityId: null },
        ]),
      );
      const ids = queued.map((q) => q.operation.id);
      const [amiId] = ids as [number];
      const ran = ids.slice(0, 3);

      // Mid-flight: the three RUNNING on the first worker, the image asked of the cloud and not available yet.
      await workers.until('three operations RUNNING with the image pending', 30_000, async () => {
        const rows = await operationsOf(ran);
        if (!rows.every((r) => r.status === 'RUNNING')) return undefined;
        const images = await db.select().from(cloudImages).where(eq(cloudImages.clientToken, `operation-${amiId}`));
        return images.length === 1 && images[0]!.status === 'pending' ? true : undefined;
      });
      expect((await operationsOf(ran)).every((r) => ranBy(r.worker, first.child.pid))).toBe(true);

      await workers.kill(first, 'SIGKILL');
      const killedAt = Date.now();
      expect(first.child.signalCode).toBe('SIGKILL');
      expect((await operationsOf(ran)).map((r) => r.status)).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);

      const second = await workers.start();
      const ended = await workers.until('every operation ended', RECOVERY_BOUND_MS - (Date.now() - killedAt), async () => {
        const rows = await operationsOf(ids);
        return rows.every((r) => r.finishedAt !== null) ? rows : undefined;
      });
      const recoveredInMs = Date.now() - killedAt;
      expect(recoveredInMs).toBeLessThan(RECOVERY_BOUND_MS);
      for (const r of ended) expect(['SUCCESS', 'FAILURE'], `operation ${r.id}: ${r.output}`).toContain(r.status);
      for (const r of ended.filter((e) => ran.includes(e.id))) {
        expect(r, `operation ${r.id}`).toMatchObject({ status: 'SUCCESS', attempts: 2 });
        expect(ranBy(r.worker, second.child.pid), r.worker!).toBe(true);
        expect(r.output).toMatch(/Resumed on .* \(attempt 2\)/);
      }

      const images = await db.select().from(cloudImages).where(eq(cloudImages.name, `js-crash-${mode}`));
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ clientToken: `operation-${amiId}`, status: 'available' });
      const registered = await db.select().from(saasImages).where(eq(saasImages.name, `js-crash-${mode}`));
      expect(registered).toHaveLength(1);
      expect(registered[0]).toMatchObject({ cloudImage: images[0]!.imageId, jumpStart: true });
      console.info(`operation crash recovery: operations ended ${(recoveredInMs / 1000).toFixed(1)} s after the SIGKILL`);

      // A graceful stop with an operation in flight hands it over at once.
      const [inFlight] = await db.transaction((tx) => queue.enqueue(tx, [{ machine: updated, typeName: 'Populate', user: 'admin', activityId: null, params: { populateLauncher: true, populateSiteMaster: true, altString: '' } }]));
      const handedId = inFlight!.operation.id;
      await workers.until('the operation RUNNING', 30_000, async () => ((await operationsOf([handedId]))[0]!.status === 'RUNNING' ? true : undefined));
      await workers.kill(second, 'SIGTERM');
      expect(await second.exited).toBe(0);
      expect(second.stderr.join('')).toBe('');
      const [handed] = await operationsOf([handedId]);
      expect(handed).toMatchObject({ status: 'RUNNING', attempts: 1 });
      expect(handed!.heartbeatAt!.getTime()).toBe(0);
      leases = DEFAULT_LEASES;
      const third = await workers.start();
      const resumedAt = Date.now();
      const done = await workers.until('the handed-over operation ended', 30_000, async () => {
        const [r] = await operationsOf([handedId]);
        return r!.finishedAt ? r : undefined;
      });
      expect(done).toMatchObject({ status: 'SUCCESS', attempts: 2 });
      expect(ranBy(done!.worker, third.child.pid), done!.worker!).toBe(true);
      // Released, not stale: resumed at the third worker's first pass, well before its lease would go stale (30 s).
      expect(Date.now() - resumedAt).toBeLessThan(20_000);
      expect((await db.select().from(machines).where(eq(machines.id, updated.id)))[0]!.failCounter).toBe(0);
      await workers.kill(third, 'SIGTERM');
    },
    TEST_TIMEOUT_MS,
  );
});
