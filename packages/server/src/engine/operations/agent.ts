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
 * One attempt of an operation runs in `agent-run.ts`, the batched finishes and
 * the events in `agent-finish.ts`; their SQL is in the `agent*.repository.ts`
 * files beside this one.
 *
 * `stop()` aborts running operations, releases their leases (the next engine
 * resumes them at once; so does a claim that commits while stopping) and
 * returns once no claim, operation or finish is in flight; the caller may
 * then close the pool. An operation whose database went away is left RUNNING
 * for the next engine, not failed: if its lease could not be released (or its
 * finish was not taken), the first pass that reaches the database again
 * releases it (`../handed-over-leases.ts`), so a database restart delays it by
 * a pass, not by `staleMs`.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { SQL } from 'drizzle-orm';
import { MMA_LEASE_S_DEFAULT } from '@fleet/contracts';
import { isDatabaseGone, type Db } from '../../db/client.js';
import type { CloudProvider } from '../cloud/provider.js';
import type { TaskEvents } from '../push/events.js';
import { listenForMachines, type MachineNotificationListener } from '../notifications.js';
import { createHandedOverLeases } from '../handed-over-leases.js';
import type { OperationEffectContext } from './effects.js';
import { OPERATION_QUEUED_CHANNEL } from './operations.repository.js';
import { releaseOperationLease, selectEffectMachines, type OperationLease } from './agent.repository.js';
import { claimOperations } from './agent-claim.repository.js';
import { deliverPendingMessages, selectMachinesNeedingAgent } from './agent-pass.repository.js';
import { createOperationFinisher } from './agent-finish.js';
import { runOperation, type Abort } from './agent-run.js';

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
  /** A remote MMA's lease without a heartbeat, s (MMA_LEASE_S, issue 27): the pass ends or frees a lost MMA's operations after it. */
  mmaLeaseSeconds: MMA_LEASE_S_DEFAULT,
  /** Remote leases count from this time at the earliest (the server process's start; `RemoteLease.graceFrom`). */
  mmaLeaseGraceFrom: new Date(0),
};

export type OperationEngineSettings = typeof AGENT_ENGINE_DEFAULTS;

/**
 * The lease settings of an operation lease of `seconds` (`OPERATION_LEASE_S`, `config.ts`): stale after it, a
 * heartbeat every sixth of it and a pass every third, each at most its default (5 s). As `TASK_LEASE_S` does for
 * tasks (`engine/tasks/settings.ts`).
 */
export function operationLeaseSettings(seconds: number): Pick<OperationEngineSettings, 'staleMs' | 'heartbeatMs' | 'passMs'> {
  const staleMs = seconds * 1000;
  return {
    staleMs,
    heartbeatMs: Math.min(AGENT_ENGINE_DEFAULTS.heartbeatMs, Math.floor(staleMs / 6)),
    passMs: Math.min(AGENT_ENGINE_DEFAULTS.passMs, Math.floor(staleMs / 3)),
  };
}

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
  /**
   * The operations this engine starts (SQL on the machine `m`): by default those of the classes that are not
   * remote (`inProcessClass`); `sql\`false\``: none, when the worker's MMAs in process start them (`SIM_MMA=protocol`,
   * `modules/mma-protocol/in-process-mmas.ts`). Cancels and timeouts it ends whatever the scope.
   */
  scope?: SQL;
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

export function createOperationEngine(options: OperationEngineOptions): OperationEngine {
  const { db, cloud, agent, events, log } = options;
  const s = Object.fromEntries(
    Object.entries(AGENT_ENGINE_DEFAULTS).map(([key, fallback]) => [key, options[key as keyof OperationEngineSettings] ?? fallback]),
  ) as OperationEngineSettings;
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
  const remoteLease = { leaseMs: s.mmaLeaseSeconds * 1000, graceFrom: s.mmaLeaseGraceFrom };
  const running = new Map<number, (kind: Abort['kind']) => void>();
  /** Leases of operations handed over while the database was away: released by the next pass that reaches it. */
  const handedOver = createHandedOverLeases<OperationLease>({
    what: 'operation',
    id: (lease) => lease.operationId,
    releaseLease: (lease) => releaseOperationLease(db, lease),
    log,
  });

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

  const { announce, afterEnded, finish } = createOperationFinisher({ db, events, log, report, settings: s });
  const runs = { db, cloud, agent, log, report, settings: s, running, handedOver, finish };

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
        remoteLease,
        scope: options.scope,
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
        runOperation(runs, { row: c.operation, remainingMs: c.remainingMs, machines })
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
    // First, so that the machines of the operations handed over are found stale below and resumed now.
    await handedOver.release();
    const machineIds = await selectMachinesNeedingAgent(db, { staleMs: s.staleMs, limit: s.passLimit, remoteLease, scope: options.scope });
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
      // Operations handed over while the database was away, should it be back by now.
      for (const lease of handedOver.take()) {
        await releaseOperationLease(db, lease).catch((err: unknown) => report('lease release failed', err, { operationId: lease.operationId }));
      }
    },
  };
}
