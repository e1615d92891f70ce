/**
 * The task engine (DESIGN §6, §9; invariants in `README.md` beside this file):
 * runs machine tasks on pg-boss workers against the cloud provider and emits
 * TaskStarted, TaskProgress and TaskFinished.
 *
 * - Wake-ups: a queued task NOTIFYs its machine id on commit; the engine turns
 *   it into a pg-boss job `{ machineId }` on queue `machine-tasks` (policy
 *   `short`, singleton key = machine id: at most one waiting job per machine).
 *   A sweep every `sweepMs` wakes machines whose New tasks nobody picked up and
 *   machines whose Running task's heartbeat went stale (its worker died).
 * - A job drains its machine: claims the machine's next task (`claimNext`,
 *   serialised per machine), runs it, and claims again until none is runnable.
 *   A job that finds another worker running the machine's task leaves: that
 *   worker claims the next one when it finishes. Drains run in a pool of
 *   `maxDrains` slots; a job is done once its drain has started, so a machine
 *   with a long backlog never holds up the wake-ups fetched with it.
 * - While a task runs, its lease (attempt number) is renewed every
 *   `heartbeatMs`; a lease older than `staleMs` is resumed by another worker, up
 *   to `maxAttempts` attempts, then the task is Failed.
 *
 * `start()` needs the database's pg-boss schema (`pgboss`), which it creates on
 * first start. `stop()` lets running tasks end their current step, releases
 * their leases so the next engine resumes them at once, and returns once
 * pg-boss makes no more queries: the caller may then close the pool and stop
 * the database (pg-boss 10 completes jobs without awaiting, so a database
 * stopped under it ends in an unhandled 57P01 or 57P03).
 * A task whose database went away (stopped, unreachable) is left to be resumed,
 * not Failed: its lease is released at the first sweep that reaches the
 * database again, so a database restart delays it by a sweep, not by `staleMs`.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { TInstanceState, TTaskEventName, TTaskType } from '@fleet/contracts';
import { isDatabaseGone, type Db } from '../../db/client.js';
import { listenForMachines, type MachineNotificationListener } from '../notifications.js';
import { createHandedOverLeases } from '../handed-over-leases.js';
import type { CloudProvider } from '../cloud/provider.js';
import type { TaskEvents } from '../push/events.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { newCredential } from './credentials.js';
import { HANDLERS, TaskFailure, type TaskContext } from './handlers.js';
import { selectActiveCloudId, selectMachineContext, upsertCredential, type MachineContext } from './machine-state.repository.js';
import {
  claimNext,
  finishTask,
  heartbeat,
  mergeParams,
  releaseLease,
  selectMachinesNeedingWork,
  TASK_QUEUED_CHANNEL,
  toTask,
  updateProgress,
  type Lease,
  type TaskRow,
} from './tasks.repository.js';
import { ENGINE_DEFAULTS, type TaskEngineSettings } from './settings.js';

/** pg-boss queue of machine wake-ups. */
export const MACHINE_TASK_QUEUE = 'machine-tasks';

export interface TaskEngineOptions extends Partial<TaskEngineSettings> {
  db: Db;
  cloud: CloudProvider;
  events: TaskEvents;
  /** Seals the credentials of launched instances (DATA_KEY). */
  secrets: SecretBox;
  log?: Logger;
  /** Name of this worker in `machine_tasks.worker` (default host:pid:random). */
  workerName?: string;
}

export interface TaskEngine {
  readonly workerName: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Queues a pg-boss wake-up for each machine (coalesced per machine). */
  wake(machineIds: number[]): Promise<void>;
  /** One sweep now; answers the number of machines woken. */
  sweep(): Promise<number>;
  /** Runs the machine's runnable tasks in this process (what a job does). */
  drain(machineId: number): Promise<void>;
}

/** The lease was lost (another worker resumed the task) or the engine is stopping: stop working on it. */
class Abandon extends Error {}

const TRANSITIONAL = new Set<TInstanceState>(['pending', 'stopping', 'shutting-down']);

export function createTaskEngine(options: TaskEngineOptions): TaskEngine {
  const { db, cloud, events, secrets, log } = options;
  const s: TaskEngineSettings = { ...ENGINE_DEFAULTS };
  for (const key of Object.keys(ENGINE_DEFAULTS) as (keyof TaskEngineSettings)[]) s[key] = options[key] ?? ENGINE_DEFAULTS[key];
  const workerName = options.workerName ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let boss: PgBoss | undefined;
  let listener: MachineNotificationListener | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  const workerIds: string[] = [];
  const drains = new Set<Promise<void>>();
  /**
   * Drains waiting for a slot. A worker's batch hands its machines here and
   * fetches again as soon as they have all started, not when the slowest one
   * ends: a machine with a long backlog never holds up the wake-ups behind it.
   */
  const drainSlots = new PQueue({ concurrency: s.maxDrains });
  const leases = new Map<number, Lease>();
  /** Leases of tasks handed over while the database was away: released by the next sweep that reaches it. */
  const handedOver = createHandedOverLeases<Lease>({ what: 'task', id: (lease) => lease.taskId, releaseLease: (lease) => releaseLease(db, lease), log });
  const releaseLater = handedOver.later;
  /** Queries pg-boss has in flight; `stop()` waits for none. */
  let bossQueries = 0;

  /** A failure of background work: expected (debug) when the engine stops or the database went away while it does. */
  const report = (msg: string, err: unknown, fields: Record<string, unknown> = {}) => {
    const message = err instanceof Error ? err.message : String(err);
    if (stopping && isDatabaseGone(err)) log?.debug({ ...fields, err: message }, msg);
    else log?.warn({ ...fields, err: message }, msg);
  };

  const emit = (name: TTaskEventName, row: TaskRow, classIds: number[]) => events.emit({ name, task: toTask(row), classIds });
  /** Class ids deciding who may see a machine's events: the machine's and its account's. */
  const visibility = (machine: MachineContext | undefined) => (machine ? [machine.classId, machine.accountClassId] : []);

  /**
   * Runs a claimed task to its end; answers whether the machine had another New
   * task when it finished (false when the task was handed over or its lease lost).
   */
  async function runTask(row: TaskRow, machine: MachineContext | undefined): Promise<boolean> {
    const classIds = visibility(machine);
    const lease: Lease = { taskId: row.id, attempt: row.attempts };
    leases.set(row.id, lease);
    emit('TaskStarted', row, classIds);
    let lost = false;
    let progress = row.progress;
    const check = () => {
      if (lost || stopping) throw new Abandon();
    };
    const beat = setInterval(() => {
      heartbeat(db, lease)
        .then((held) => (lost ||= !held))
        .catch((err: unknown) => report('heartbeat failed', err, { taskId: row.id }));
    }, s.heartbeatMs);

    const handler = HANDLERS[row.type as TTaskType];
    let outcome: { status: 'Completed' } | { status: 'Failed'; error: string } = { status: 'Completed' };
    try {
      if (!handler) throw new TaskFailure(`Unknown task type ${row.type}`);
      if (!machine) throw new TaskFailure(`Machine ${row.machineId} does not exist`);
      const params = { ...row.params };
      let firstCloudId: string | null | undefined = machine.activeCloudId;
      const ctx: TaskContext = {
        task: { id: row.id, type: row.type as TTaskType, params },
        machine,
        cloud,
        db,
        async progress(value) {
          check();
          if (value <= progress) return;
          const updated = await updateProgress(db, lease, value);
          if (!updated) throw new Abandon();
          progress = updated.progress;
          emit('TaskProgress', updated, classIds);
        },
        async checkpoint(patch) {
          check();
          if (!(await mergeParams(db, lease, patch))) throw new Abandon();
          Object.assign(params, patch);
        },
        async activeInstance() {
          // The first look takes the cloud id read with the machine after the claim; later ones read it
          // again, since the handler may have launched or replaced the instance since.
          const cloudId = firstCloudId !== undefined ? firstCloudId : await selectActiveCloudId(db, machine.id);
          firstCloudId = undefined;
          return cloudId ? cloud.describe(cloudId) : undefined;
        },
        async waitFor(cloudId, state) {
          const deadline = Date.now() + s.waitTimeoutMs;
          for (;;) {
            check();
            const i = await cloud.describe(cloudId);
            if (!i) throw new TaskFailure(`Instance ${cloudId} no longer exists`);
            if (i.status === state) return i;
            if (!TRANSITIONAL.has(i.status)) throw new TaskFailure(`Instance ${cloudId} is ${i.status}, expected ${state}`);
            if (Date.now() > deadline) throw new TaskFailure(`Instance ${cloudId} did not reach state ${state} within ${s.waitTimeoutMs / 1000} s`);
            await sleep(cloud.pollIntervalMs);
          }
        },
        async issueCredential() {
          check();
          const { rdpPassword, sshPrivateKey } = await newCredential();
          await upsertCredential(db, machine.id, { rdpPasswordEnc: secrets.seal(rdpPassword), sshPrivateKeyEnc: secrets.seal(sshPrivateKey) });
        },
      };
      try {
        await handler.run(ctx);
      } catch (err) {
        if (err instanceof Abandon) throw err;
        // The database went away (stopping, unreachable): not the task's fault; the next engine resumes it.
        if (isDatabaseGone(err)) throw new Abandon(err instanceof Error ? err.message : String(err));
        outcome = { status: 'Failed', error: err instanceof Error ? err.message : String(err) };
        await handler.onFailure?.(ctx).catch((e: Error) => log?.warn({ err: e.message, taskId: row.id }, 'failure clean-up failed'));
      }
    } catch (err) {
      if (err instanceof Abandon) {
        log?.info({ taskId: row.id, lost }, lost ? 'task taken over by another worker' : 'task handed to the next engine');
        // Without the database the next sweep that reaches it releases the lease (or it goes stale after `staleMs`).
        if (!lost) {
          await releaseLease(db, lease)
            .catch(releaseLater(lease))
            .catch((e: unknown) => report('lease release failed', e, { taskId: row.id }));
        }
        return false;
      }
      outcome = { status: 'Failed', error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearInterval(beat);
      leases.delete(row.id);
    }
    // A finish the database did not take is handed over like an abandoned task: the handlers are idempotent.
    const finished = await finishTask(db, lease, outcome).catch(releaseLater(lease));
    if (!finished) return false;
    emit('TaskFinished', finished.task, classIds);
    return finished.more;
  }

  /** Runs the machine's tasks one after the other until none is New (or another worker runs one). */
  async function drain(machineId: number): Promise<void> {
    while (!stopping) {
      const claim = await claimNext(db, { machineId, worker: workerName, staleMs: s.staleMs, maxAttempts: s.maxAttempts });
      if (claim.kind === 'busy' || (claim.kind === 'idle' && claim.abandoned.length === 0)) return;
      // Read per task: the task before may have changed the machine (its instance type, its deletion). The common
      // claim read it after its lock, in its own statement.
      const machine = claim.kind === 'claimed' && claim.machine ? claim.machine.context : await selectMachineContext(db, machineId);
      for (const failed of claim.abandoned) emit('TaskFinished', failed, visibility(machine));
      if (claim.kind === 'idle') return;
      if (claim.resumed) log?.warn({ taskId: claim.task.id, attempt: claim.task.attempts }, 'resuming a task whose worker stopped');
      if (!(await runTask(claim.task, machine))) return;
    }
  }

  function tracked(machineId: number): Promise<void> {
    const p = drain(machineId).finally(() => drains.delete(p));
    drains.add(p);
    return p;
  }

  async function wake(machineIds: number[]): Promise<void> {
    if (!boss || stopping || machineIds.length === 0) return;
    await boss.insert(machineIds.map((machineId) => ({ name: MACHINE_TASK_QUEUE, data: { machineId }, singletonKey: String(machineId) })));
    for (const id of workerIds) boss.notifyWorker(id);
  }

  async function sweep(): Promise<number> {
    await handedOver.release();
    const machineIds = await selectMachinesNeedingWork(db, { staleMs: s.staleMs, orphanAfterMs: s.orphanAfterMs, limit: 1000 });
    await wake(machineIds);
    return machineIds.length;
  }

  /**
   * Machines notified and not yet woken. One wake-up insert runs at a time and
   * takes every machine notified while the one before ran: a burst of queued
   * tasks (one NOTIFY each) costs a few inserts, not one per task. A wake-up
   * lost here (the database away) is repaired by the sweep.
   */
  const notified = new Set<number>();
  let waking: Promise<void> | undefined;
  function wakeNotified(machineIds: number[]): void {
    for (const id of machineIds) notified.add(id);
    waking ??= (async () => {
      try {
        while (notified.size > 0) {
          const batch = [...notified];
          notified.clear();
          await wake(batch).catch((err: unknown) => report('wake-up failed', err));
        }
      } finally {
        waking = undefined;
      }
    })();
  }

  async function listen(): Promise<void> {
    listener = await listenForMachines({
      connection: db.$client.options,
      channel: TASK_QUEUED_CHANNEL,
      onMachines: wakeNotified,
      log,
      what: 'task',
    });
  }

  return {
    workerName,
    wake,
    sweep,
    drain: tracked,

    async start() {
      stopping = false;
      const pool = db.$client;
      boss = new PgBoss({
        db: {
          executeSql: async (text: string, values: unknown[]) => {
            bossQueries += 1;
            try {
              return await pool.query(text, values);
            } finally {
              bossQueries -= 1;
            }
          },
        },
        schedule: false,
        maintenanceIntervalSeconds: 60,
      });
      boss.on('error', (err: Error) => report('pg-boss error', err));
      await boss.start();
      await boss.createQueue(MACHINE_TASK_QUEUE, { name: MACHINE_TASK_QUEUE, policy: 'short', retryLimit: 3, retryDelay: 1, expireInSeconds: 3600 });
      for (let i = 0; i < s.workers; i++) {
        workerIds.push(
          await boss.work<{ machineId: number }>(
            MACHINE_TASK_QUEUE,
            { batchSize: s.batchSize, pollingIntervalSeconds: s.pollingIntervalSeconds },
            async (jobs) => {
              // The job is done once its drain has started: the rows are the truth, and a
              // drain that fails (database away) leaves its task for the sweep to wake.
              for (const job of jobs) {
                const machineId = job.data.machineId;
                void drainSlots.add(() => tracked(machineId)).catch((err: unknown) => report('drain failed', err, { machineId }));
              }
              await drainSlots.onEmpty();
              // A full batch means more may wait: fetch again at once instead of
              // after the polling interval (pg-boss only skips it when notified).
              if (jobs.length === s.batchSize) for (const id of workerIds) boss?.notifyWorker(id);
            },
          ),
        );
      }
      await listen();
      await sweep();
      sweepTimer = setInterval(() => {
        sweep().catch((err: unknown) => report('task sweep failed', err));
      }, s.sweepMs);
      log?.info({ worker: workerName }, 'task engine started');
    },

    async stop() {
      stopping = true;
      clearInterval(sweepTimer);
      await listener?.close();
      listener = undefined;
      drainSlots.clear();
      await Promise.race([Promise.allSettled([...drains]), sleep(s.stopTimeoutMs)]);
      // Tasks still inside a cloud call are handed over too: the next engine resumes them at once.
      for (const lease of [...leases.values(), ...handedOver.take()]) await releaseLease(db, lease).catch((err: unknown) => report('lease release failed', err));
      await boss?.stop({ graceful: false, close: false }).catch((err: unknown) => report('pg-boss stop failed', err));
      // A worker may have been fetching: its jobs come back, find the engine stopping, and are completed
      // without awaiting. Wait until pg-boss is quiet, so no query of it meets a closed pool.
      const quietBy = Date.now() + s.bossQuietTimeoutMs;
      for (let quietPolls = 0; quietPolls < 3 && Date.now() < quietBy; ) {
        quietPolls = bossQueries === 0 ? quietPolls + 1 : 0;
        await sleep(20);
      }
      boss = undefined;
      workerIds.length = 0;
    },
  };
}
