/**
 * The machine management agent's engine (DESIGN §12; invariants in `README.md`
 * beside this file): runs queued operations on their machines through a
 * {@link MachineAgent} (the simulated one by default, `simulated-agent.ts`) and
 * emits OperationStarted and OperationFinished.
 *
 * - Wake-ups: a queued operation, a PROCEED or a CANCEL NOTIFYs its machine id
 *   on `fleet_operation_queued`; the engine adds the machine to its wanted set.
 *   A level-driven pass every `passMs` finds the machines that need it anyway (a
 *   lost notification, a machine that became startable: instance started,
 *   standby off, notBefore reached, Panic cleared; a cancel; a dead worker's
 *   operation).
 * - Claims are batched: one claim transaction (`claimOperations`, under the
 *   machines' claim locks shared with the task engine) takes up to `batchSize`
 *   wanted machines that fit in the free slots (`concurrency` operations at once
 *   in this process) and claims the next operation of each; one claim is in
 *   flight at a time. OperationStarted of the whole claim is one read. Each
 *   claimed operation then runs on its own; when it has ended, its machine is
 *   wanted again (its next operation). Several processes may run engines side
 *   by side.
 * - While an operation runs its lease is renewed every `heartbeatMs` (with the
 *   output lines written since the last write); a lease older than `staleMs` is
 *   resumed by another worker, up to `maxAttempts` attempts. An operation past
 *   its timeout is aborted and ends FAILURE.
 * - Finishes are batched too: an operation that ended waits for the finish
 *   transaction in flight (at most one per process) and goes with the others
 *   in the next one (`finishOperations`: one fenced UPDATE for all, the
 *   failCounter rule per operation, Panic at `panicFailures`), then one read
 *   for their OperationFinished, then the anomaly rule of each class with a
 *   counted failure; only then is its slot free.
 * - Each pass also delivers the pending notification messages of machines that
 *   run managed (`deliverPendingMessages`: exactly once across engines).
 *
 * `stop()` aborts running operations, releases their leases (the next engine
 * resumes them at once; so does a claim that commits while stopping) and
 * returns once no claim, operation or finish is in flight; the caller may
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
import type { EffectMachine, OperationEffectContext } from './effects.js';
import { OPERATION_QUEUED_CHANNEL, type OperationRow } from './operations.repository.js';
import {
  appendLogs,
  claimOperations,
  deliverPendingMessages,
  finishOperations,
  lockLease,
  logLine,
  mergeOperationParams,
  releaseOperationLease,
  renewLease,
  selectEffectMachines,
  selectMachinesNeedingAgent,
  selectOperationEvents,
  switchStandbyOnAnomaly,
  timedOut,
  type EndedOperation,
  type OperationFinish,
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
  /** Operations this process runs at once (a claim reserves a slot per machine it claims for). */
  concurrency: 64,
  /** Machines one claim transaction claims for at most; finishes are batched up to the same number. */
  batchSize: 64,
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
  /** Machines to claim for, in the order they were woken; a machine holding a slot stays here until it frees it. */
  const wanted = new Set<number>();
  /** Machines holding a slot: in a claim in flight, or running an operation here until its finish is announced. */
  const slots = new Set<number>();
  /** A claim transaction is in flight (one at a time per process; it takes many machines). */
  let claiming = false;
  /** Work in flight that `stop()` waits for: the claim, the running operations (through their finish). */
  const inFlight = new Set<Promise<unknown>>();
  const running = new Map<number, (kind: Abort['kind']) => void>();

  /** A failure of background work: expected (debug) when the engine stops or the database went away while it does. */
  const report = (msg: string, err: unknown, fields: Record<string, unknown> = {}) => {
    const message = err instanceof Error ? err.message : String(err);
    if (stopping && isDatabaseGone(err)) log?.debug({ ...fields, err: message }, msg);
    else log?.warn({ ...fields, err: message }, msg);
  };

  /** Adds work (whose errors are already handled) to what `stop()` waits for. */
  const track = (p: Promise<unknown>) => {
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
  };

  /** Emits `name` for the operations `ids` (one read for all of them). */
  async function announce(name: TOperationEventName, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      for (const e of await selectOperationEvents(db, ids)) events.emit({ name, operation: e.operation, classIds: e.classIds });
    } catch (err) {
      report('operation event failed', err, { name, operations: ids.length });
    }
  }

  /** After operations ended: OperationFinished, then the anomaly rule of each class with a counted failure. */
  async function afterEnded(ended: EndedOperation[]): Promise<void> {
    if (ended.length === 0) return;
    await announce('OperationFinished', ended.map((e) => e.id));
    for (const e of ended) if (e.panicked) log?.warn({ machineId: e.machineId, failCounter: e.failCounter }, 'machine in Panic after repeated operation failures');
    for (const classId of new Set(ended.filter((e) => e.counted).map((e) => e.classId))) {
      try {
        const standby = await switchStandbyOnAnomaly(db, { classId, failures: s.anomalyFailures, windowMinutes: s.anomalyWindowMinutes });
        if (standby) log?.warn({ classId, ...standby }, 'anomaly: class switched to standby');
      } catch (err) {
        report('anomaly rule failed', err, { classId });
      }
    }
  }

  // ---- Finishes, batched: the operations that ended while a batch was being written go in the next one.
  const finishQueue: { finish: OperationFinish; resolve(ended: EndedOperation | undefined): void; reject(err: unknown): void }[] = [];
  let finishing = false;

  /** Ends the operation (fenced) in the next finish batch; resolves once it is written and announced (undefined: lease lost). */
  function finish(item: OperationFinish): Promise<EndedOperation | undefined> {
    return new Promise((resolve, reject) => {
      finishQueue.push({ finish: item, resolve, reject });
      flushFinishes();
    });
  }

  function flushFinishes(): void {
    if (finishing || finishQueue.length === 0) return;
    finishing = true;
    const batch = finishQueue.splice(0, s.batchSize);
    writeFinishes(batch)
      // Settles every item whatever happened (settling one twice is a no-op).
      .catch((err: unknown) => batch.forEach((b) => b.reject(err)))
      .finally(() => {
        finishing = false;
        flushFinishes();
      });
  }

  async function writeFinishes(batch: typeof finishQueue): Promise<void> {
    const opts = { panicFailures: s.panicFailures };
    let results: (EndedOperation | undefined | Error)[];
    try {
      results = await finishOperations(db, batch.map((b) => b.finish), opts);
    } catch (err) {
      if (batch.length === 1 || isDatabaseGone(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      // One operation's trouble (a deadlock with another writer of its machine) does not hold back the others.
      report('operation finish batch failed; finishing one by one', err, { operations: batch.length });
      results = [];
      for (const b of batch) {
        results.push(await finishOperations(db, [b.finish], opts).then((r) => r[0], (e: unknown) => (e instanceof Error ? e : new Error(String(e)))));
      }
    }
    await afterEnded(results.filter((r): r is EndedOperation => r !== undefined && !(r instanceof Error)));
    batch.forEach((b, i) => {
      const r = results[i];
      if (r instanceof Error) b.reject(r);
      else b.resolve(r);
    });
  }

  async function runOperation(row: OperationRow, remainingMs: number, machines: Promise<Map<number, EffectMachine>>): Promise<void> {
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

    let outcome: OperationOutcome;
    try {
      const machine = (await machines).get(row.machineId);
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
      ended = await finish({ lease, outcome, output: o, deployerLog: d });
    } catch (err) {
      report('operation finish failed', err, { operationId: row.id });
      return;
    }
    if (!ended) log?.info({ operationId: row.id }, 'operation ended elsewhere before its finish');
  }

  /**
   * One claim for `machineIds` (their slots are held): runs what it claimed,
   * frees the slots of the machines it claimed nothing for, and announces what
   * it ended. A machine whose operation ends is wanted again (its next one).
   */
  async function claim(machineIds: number[]): Promise<void> {
    let claims;
    try {
      claims = await claimOperations(db, {
        machineIds,
        worker: workerName,
        staleMs: s.staleMs,
        maxAttempts: s.maxAttempts,
        panicFailures: s.panicFailures,
      });
    } catch (err) {
      // The level-driven pass finds these machines again.
      for (const id of machineIds) slots.delete(id);
      throw err;
    }
    const claimedMachines = new Set(claims.claimed.map((c) => c.operation.machineId));
    for (const id of machineIds) if (!claimedMachines.has(id)) slots.delete(id);
    await afterEnded(claims.ended);
    if (claims.claimed.length === 0) return;
    for (const c of claims.claimed) {
      if (c.resumed) log?.warn({ operationId: c.operation.id, attempt: c.operation.attempts }, 'resuming an operation whose worker stopped');
    }
    if (stopping) {
      // Stopped while claiming: hand the operations to the next engine rather than start them.
      for (const c of claims.claimed) {
        await releaseOperationLease(db, { operationId: c.operation.id, attempt: c.operation.attempts }).catch((e: unknown) =>
          report('lease release failed', e, { operationId: c.operation.id }),
        );
        slots.delete(c.operation.machineId);
      }
      return;
    }
    const machines = selectEffectMachines(db, [...claimedMachines]);
    machines.catch(() => undefined); // each operation sees the failure (and fails with it)
    await announce('OperationStarted', claims.claimed.map((c) => c.operation.id));
    for (const c of claims.claimed) {
      const machineId = c.operation.machineId;
      track(
        runOperation(c.operation, c.remainingMs, machines)
          .catch((err: unknown) => report('operation run failed', err, { operationId: c.operation.id }))
          .finally(() => {
            slots.delete(machineId);
            if (!stopping) wanted.add(machineId);
            pump();
          }),
      );
    }
  }

  /** Starts a claim for the wanted machines that fit in the free slots, unless one is in flight. */
  function pump(): void {
    if (stopping || claiming) return;
    const room = Math.min(s.concurrency - slots.size, s.batchSize);
    if (room <= 0) return;
    const batch: number[] = [];
    for (const machineId of wanted) {
      if (batch.length >= room) break;
      if (slots.has(machineId)) continue;
      wanted.delete(machineId);
      batch.push(machineId);
    }
    if (batch.length === 0) return;
    for (const id of batch) slots.add(id);
    claiming = true;
    const p = claim(batch)
      .catch((err: unknown) => report('operation claim failed', err, { machines: batch.length }))
      .finally(() => {
        claiming = false;
        pump();
      });
    track(p);
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
      const deadline = Date.now() + s.stopTimeoutMs;
      // A claim in flight hands its operations back; each running operation is aborted and releases its lease.
      while (inFlight.size > 0 && Date.now() < deadline) {
        for (const abort of running.values()) abort('stopping');
        const timeout = new AbortController();
        await Promise.race([
          Promise.allSettled([...inFlight]),
          sleep(deadline - Date.now(), undefined, { signal: timeout.signal }).catch(() => undefined),
        ]);
        timeout.abort();
      }
    },
  };
}
