/**
 * The machine management agent's engine (DESIGN §12; invariants in `README.md`
 * beside this file): runs queued operations on their machines through a
 * {@link MachineAgent} (the simulated one by default, `simulated-agent.ts`) and
 * emits OperationStarted and OperationFinished.
 *
 * - Wake-ups: a queued operation, a PROCEED or a CANCEL NOTIFYs its machine id
 *   on `fleet_operation_queued`; the engine drains that machine. A level-driven
 *   pass every `passMs` finds the machines that need it anyway (a lost
 *   notification, a machine that became startable: instance started, standby
 *   off, notBefore reached, Panic cleared; a cancel; a dead worker's operation).
 * - A drain claims the machine's next operation (`claimNextOperation`, under the
 *   machine's claim lock shared with the task engine), runs it, and claims again
 *   until nothing is startable. At most `concurrency` machines drain at once in
 *   this process; several processes may run engines side by side.
 * - While an operation runs its lease is renewed every `heartbeatMs` (with the
 *   output lines written since the last write); a lease older than `staleMs` is
 *   resumed by another worker, up to `maxAttempts` attempts. An operation past
 *   its timeout is aborted and ends FAILURE.
 * - The finish applies the failCounter rule (SUCCESS resets it, a failure
 *   raises it, Panic at `panicFailures`) and then the anomaly rule of its class.
 * - Each pass also delivers the pending notification messages of machines that
 *   run managed (`deliverPendingMessages`: exactly once across engines).
 *
 * `stop()` aborts running operations, releases their leases (the next engine
 * resumes them at once) and returns once no drain is in flight; the caller may
 * then close the pool. An operation whose database went away is left RUNNING
 * for the next engine, not failed.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { TOperationEventName } from '@fleet/contracts';
import { isDatabaseGone, type Db } from '../../db/client.js';
import type { CloudProvider } from '../cloud/provider.js';
import type { TaskEvents } from '../push/events.js';
import { listenForMachines, type MachineNotificationListener } from '../notifications.js';
import type { OperationEffectContext } from './effects.js';
import { OPERATION_QUEUED_CHANNEL, type OperationRow } from './operations.repository.js';
import {
  appendLogs,
  claimNextOperation,
  deliverPendingMessages,
  finishOperation,
  lockLease,
  logLine,
  mergeOperationParams,
  releaseOperationLease,
  renewLease,
  selectEffectMachine,
  selectMachinesNeedingAgent,
  selectOperationEvents,
  switchStandbyOnAnomaly,
  timedOut,
  type EndedOperation,
  type OperationLease,
  type OperationOutcome,
} from './agent.repository.js';

/**
 * What the engine asks of a machine agent: run one attempt of an operation on
 * its machine. The context carries the operation, the machine, the logs, the
 * lease-fenced writes and the abort signal (timeout, lost lease, shutdown).
 * Resolve for SUCCESS; throw {@link OperationFailure} (or any error) for
 * FAILURE. A real agent (an SSH deployer, an agent daemon on the machine)
 * would take the simulated one's place behind this interface.
 */
export interface MachineAgent {
  readonly name: string;
  run(ctx: OperationEffectContext): Promise<void>;
}

export const AGENT_ENGINE_DEFAULTS = {
  /** Lease renewal (and log write) of a running operation, ms. */
  heartbeatMs: 5_000,
  /** A lease not renewed for this long belongs to a dead worker, ms. Also the grace past a timeout. */
  staleMs: 30_000,
  /** Level-driven pass interval, ms. A dead worker's operation is resumed within about staleMs + passMs. */
  passMs: 5_000,
  /** Machines one pass wakes at most. */
  passLimit: 2_000,
  /** Attempts of an operation whose workers keep dying before it ends FAILURE. */
  maxAttempts: 3,
  /** Machines this process drains at once. */
  concurrency: 16,
  /** Real ms per nominal second of simulated work (SIM_AGENT_DELAY_MS). */
  simDelayMs: 200,
  /** Counted failures in a row that put a machine in Panic (PANIC_FAILURES). */
  panicFailures: 3,
  /** Counted failures of one class within the window that switch its standby on (ANOMALY_FAILURES). */
  anomalyFailures: 5,
  /** ANOMALY_WINDOW_MINUTES. */
  anomalyWindowMinutes: 10,
  /** How long `stop()` waits for running operations, ms. */
  stopTimeoutMs: 10_000,
};

export type OperationEngineSettings = typeof AGENT_ENGINE_DEFAULTS;

export interface OperationEngineOptions extends Partial<OperationEngineSettings> {
  db: Db;
  cloud: CloudProvider;
  agent: MachineAgent;
  events: TaskEvents;
  log?: Logger;
  /** Name of this worker in `operations.worker` (default host:pid:random). */
  workerName?: string;
  /** The clock of delivery times (tests control it); default the system clock. */
  now?: () => Date;
}

export interface OperationEngine {
  readonly workerName: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Drains these machines soon (coalesced per machine). */
  wake(machineIds: number[]): void;
  /** One level-driven pass now; answers the number of machines woken. */
  pass(): Promise<number>;
  /** Delivers the pending messages of running managed machines (part of each pass); answers how many. */
  deliverMessages(): Promise<number>;
}

/** Why a running operation is aborted. */
class Abort extends Error {
  constructor(readonly kind: 'timeout' | 'lost' | 'stopping') {
    super(`operation aborted: ${kind}`);
  }
}

export function createOperationEngine(options: OperationEngineOptions): OperationEngine {
  const { db, cloud, agent, events, log } = options;
  const s: OperationEngineSettings = { ...AGENT_ENGINE_DEFAULTS };
  for (const key of Object.keys(AGENT_ENGINE_DEFAULTS) as (keyof OperationEngineSettings)[]) s[key] = options[key] ?? AGENT_ENGINE_DEFAULTS[key];
  const workerName = options.workerName ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const now = options.now ?? (() => new Date());
  let listener: MachineNotificationListener | undefined;
  let passTimer: NodeJS.Timeout | undefined;
  let stopping = true;
  /** Machines to drain; a machine draining now stays here until its drain ends. */
  const wanted = new Set<number>();
  const active = new Map<number, Promise<void>>();
  const running = new Map<number, (kind: Abort['kind']) => void>();

  /** A failure of background work: expected (debug) when the engine stops or the database went away while it does. */
  const report = (msg: string, err: unknown, fields: Record<string, unknown> = {}) => {
    const message = err instanceof Error ? err.message : String(err);
    if (stopping && isDatabaseGone(err)) log?.debug({ ...fields, err: message }, msg);
    else log?.warn({ ...fields, err: message }, msg);
  };

  async function announce(name: TOperationEventName, ids: number[]): Promise<void> {
    try {
      for (const e of await selectOperationEvents(db, ids)) events.emit({ name, operation: e.operation, classIds: e.classIds });
    } catch (err) {
      report('operation event failed', err, { name, ids });
    }
  }

  /** After operations ended: OperationFinished, then the anomaly rule of each class with a counted failure. */
  async function afterEnded(ended: EndedOperation[]): Promise<void> {
    if (ended.length === 0) return;
    await announce('OperationFinished', ended.map((e) => e.id));
    for (const e of ended) if (e.panicked) log?.warn({ machineId: e.machineId, failCounter: e.failCounter }, 'machine in Panic after repeated operation failures');
    for (const classId of new Set(ended.filter((e) => e.counted).map((e) => e.classId))) {
      const standby = await switchStandbyOnAnomaly(db, { classId, failures: s.anomalyFailures, windowMinutes: s.anomalyWindowMinutes });
      if (standby) log?.warn({ classId, ...standby }, 'anomaly: class switched to standby');
    }
  }

  async function runOperation(row: OperationRow, remainingMs: number): Promise<void> {
    const lease: OperationLease = { operationId: row.id, attempt: row.attempts };
    const controller = new AbortController();
    const abort = (kind: Abort['kind']) => {
      if (!controller.signal.aborted) controller.abort(new Abort(kind));
    };
    running.set(row.id, abort);
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
    });
    aborted.catch(() => undefined);
    const check = () => {
      if (controller.signal.aborted) throw controller.signal.reason as Error;
    };

    // Lines wait here until the next step, checkpoint, heartbeat or the finish;
    // every write of this lease goes through `serial`, so lines keep their order.
    let output = '';
    let deployerLog = '';
    let chain: Promise<unknown> = Promise.resolve();
    const serial = <T>(fn: () => Promise<T>): Promise<T> => {
      const p = chain.then(fn, fn);
      chain = p.catch(() => undefined);
      return p;
    };
    const write = () =>
      serial(async () => {
        const [o, d] = [output, deployerLog];
        output = deployerLog = '';
        const held = o || d ? await appendLogs(db, lease, o, d) : await renewLease(db, lease);
        if (!held) abort('lost');
      });
    const beat = setInterval(() => write().catch((err: unknown) => report('operation heartbeat failed', err, { operationId: row.id })), s.heartbeatMs);
    const timer = setTimeout(() => abort('timeout'), Math.max(0, remainingMs));

    await announce('OperationStarted', [row.id]);
    let outcome: OperationOutcome;
    try {
      const machine = await selectEffectMachine(db, row.machineId);
      if (!machine) throw new Error(`Machine ${row.machineId} does not exist`);
      const params = { ...row.params };
      const ctx: OperationEffectContext = {
        db,
        cloud,
        operation: { ...row, params },
        machine,
        signal: controller.signal,
        async output(line) {
          check();
          output += logLine(line);
        },
        async deployerLog(line) {
          check();
          deployerLog += logLine(line);
        },
        async checkpoint(patch) {
          check();
          await write();
          if (!(await serial(() => mergeOperationParams(db, lease, patch)))) abort('lost');
          check();
          Object.assign(params, patch);
        },
        async work(ms) {
          check();
          const realMs = (ms * s.simDelayMs) / 1000;
          if (realMs <= 0) return;
          await write();
          check();
          await sleep(realMs, undefined, { signal: controller.signal });
        },
        async fenced(work) {
          check();
          await write();
          return db.transaction(async (tx) => {
            if (!(await lockLease(tx, lease))) abort('lost');
            check();
            return work(tx);
          });
        },
      };
      const run = agent.run(ctx);
      run.catch(() => undefined); // an aborted run may still reject later
      await Promise.race([run, aborted]);
      outcome = { status: 'SUCCESS' };
    } catch (err) {
      const reason = controller.signal.aborted ? (controller.signal.reason as Abort) : undefined;
      if (reason?.kind === 'timeout') {
        outcome = timedOut(row.timeoutSeconds);
      } else if (reason?.kind === 'lost') {
        log?.info({ operationId: row.id }, 'operation taken over, timed out or reset elsewhere');
        return;
      } else if (reason?.kind === 'stopping' || isDatabaseGone(err)) {
        // Not the operation's fault: the next engine resumes it (at once when the lease is released).
        log?.info({ operationId: row.id }, 'operation handed to the next engine');
        if (!isDatabaseGone(err)) await serial(() => releaseOperationLease(db, lease)).catch((e: unknown) => report('lease release failed', e, { operationId: row.id }));
        return;
      } else {
        outcome = { status: 'FAILURE', message: err instanceof Error ? err.message : String(err), counts: true };
      }
    } finally {
      clearInterval(beat);
      clearTimeout(timer);
      running.delete(row.id);
      await chain;
    }
    const [o, d] = [output, deployerLog];
    output = deployerLog = '';
    let ended: EndedOperation | undefined;
    try {
      ended = await finishOperation(db, lease, outcome, { panicFailures: s.panicFailures, output: o, deployerLog: d });
    } catch (err) {
      report('operation finish failed', err, { operationId: row.id });
      return;
    }
    if (ended) await afterEnded([ended]);
    else log?.info({ operationId: row.id }, 'operation ended elsewhere before its finish');
  }

  async function drain(machineId: number): Promise<void> {
    while (!stopping) {
      const claim = await claimNextOperation(db, {
        machineId,
        worker: workerName,
        staleMs: s.staleMs,
        maxAttempts: s.maxAttempts,
        panicFailures: s.panicFailures,
      });
      await afterEnded(claim.ended);
      if (claim.kind !== 'claimed') return;
      if (claim.resumed) log?.warn({ operationId: claim.operation.id, attempt: claim.operation.attempts }, 'resuming an operation whose worker stopped');
      await runOperation(claim.operation, claim.remainingMs);
    }
  }

  function pump(): void {
    for (const machineId of wanted) {
      if (stopping || active.size >= s.concurrency) return;
      if (active.has(machineId)) continue;
      wanted.delete(machineId);
      const p = drain(machineId)
        .catch((err: unknown) => report('operation drain failed', err, { machineId }))
        .finally(() => {
          active.delete(machineId);
          pump();
        });
      active.set(machineId, p);
    }
  }

  function wake(machineIds: number[]): void {
    if (stopping) return;
    for (const id of machineIds) wanted.add(id);
    pump();
  }

  async function deliverMessages(): Promise<number> {
    const delivered = await deliverPendingMessages(db, { at: now(), limit: s.passLimit });
    if (delivered.length > 0) log?.debug({ messages: delivered.length }, 'notification messages delivered');
    return delivered.length;
  }

  async function pass(): Promise<number> {
    const machineIds = await selectMachinesNeedingAgent(db, { staleMs: s.staleMs, limit: s.passLimit });
    wake(machineIds);
    // Level-driven like the rest of the pass: a message waits until its machine runs managed.
    await deliverMessages().catch((err: unknown) => report('notification delivery failed', err));
    return machineIds.length;
  }

  return {
    workerName,
    wake,
    pass,
    deliverMessages,

    async start() {
      stopping = false;
      listener = await listenForMachines({
        connection: db.$client.options,
        channel: OPERATION_QUEUED_CHANNEL,
        onMachines: wake,
        log,
        what: 'operation',
      });
      await pass();
      passTimer = setInterval(() => {
        pass().catch((err: unknown) => report('operation pass failed', err));
      }, s.passMs);
      log?.info({ worker: workerName, agent: agent.name }, 'operation agent started');
    },

    async stop() {
      stopping = true;
      clearInterval(passTimer);
      await listener?.close();
      listener = undefined;
      wanted.clear();
      for (const abort of running.values()) abort('stopping');
      await Promise.race([Promise.allSettled([...active.values()]), sleep(s.stopTimeoutMs)]);
    },
  };
}
