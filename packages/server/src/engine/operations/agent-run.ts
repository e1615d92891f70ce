/**
 * One attempt of a claimed operation in the operation engine (DESIGN §12;
 * README.md beside this file, Design 5 and the Leases invariant): the agent
 * runs it with an effect context (`effects.ts`): output and deployer log lines
 * (timestamped, buffered until the next step, checkpoint, heartbeat or the
 * finish), `checkpoint`, `fenced`, `work(ms)` scaled by `simDelayMs` (real ms
 * per nominal second) and an abort signal. Its lease is renewed every
 * `heartbeatMs` (ms) with the lines written since; the signal fires at its
 * timeout (`remainingMs`), on a lost lease, when a lease write finds it decided
 * CANCEL (issue 27: a running operation is cancelled at its next heartbeat),
 * or when the engine stops.
 *
 * Outcomes: the agent resolves, SUCCESS; it throws, FAILURE with its message
 * (counted); the timeout, FAILURE "Timed out" (counted); a cancel, FAILURE
 * "Cancelled by X" (not counted); each goes to the
 * engine's batched finish. A lost lease ends nothing (the operation was taken
 * over, timed out or reset elsewhere); a stop or a database that went away
 * hands the operation to the next engine: its lease is released, or, when the
 * database is away, kept in the engine's `handedOver` for its next pass that
 * reaches the database. A finish the database did not take is handed over the
 * same way. A failed finish is reported, not thrown.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { isDatabaseGone, type Db } from '../../db/client.js';
import type { CloudProvider } from '../cloud/provider.js';
import type { HandedOverLeases } from '../handed-over-leases.js';
import type { EffectMachine, OperationEffectContext } from './effects.js';
import type { OperationRow } from './operations.repository.js';
import { appendLogs, lockLease, logLine, mergeOperationParams, releaseOperationLease, renewLease, type OperationLease } from './agent.repository.js';
import { cancelledOutcome, timedOut, type CancelDecision, type EndedOperation, type OperationFinish, type OperationOutcome } from './agent-finish.repository.js';
import type { ReportFailure } from './agent-finish.js';
import type { MachineAgent } from './agent.js';

/** Why a running operation is aborted. */
export class Abort extends Error {
  constructor(readonly kind: 'timeout' | 'lost' | 'stopping' | 'cancelled') {
    super(`operation aborted: ${kind}`);
  }
}

export interface OperationRunOptions {
  db: Db;
  cloud: CloudProvider;
  agent: MachineAgent;
  log?: Logger;
  report: ReportFailure;
  /** The engine's settings it reads: `heartbeatMs` (ms) and `simDelayMs` (real ms per nominal second). */
  settings: { heartbeatMs: number; simDelayMs: number };
  /** How to abort each operation running in this process, by id: a run is in it while its effect runs (`stop()` aborts them). */
  running: Map<number, (kind: Abort['kind']) => void>;
  /** Leases the database was away for, released by the engine's next pass that reaches it. */
  handedOver: HandedOverLeases<OperationLease>;
  /** The engine's batched finish (`agent-finish.ts`). */
  finish(item: OperationFinish): Promise<EndedOperation | undefined>;
}

/**
 * Runs one claimed operation `row` to its end: `remainingMs` before its
 * timeout, `machines` the claim's machines by id (a failed read fails the
 * operation). Resolves once its finish is written and announced, or once it
 * was handed on.
 */
export async function runOperation(
  { db, cloud, agent, log, report, settings: s, running, handedOver, finish }: OperationRunOptions,
  { row, remainingMs, machines }: { row: OperationRow; remainingMs: number; machines: Promise<Map<number, EffectMachine>> },
): Promise<void> {
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
  /** An operator's CANCEL the last lease write found (the run stops). */
  let cancel: CancelDecision = { decidedBy: null, decisionReason: null };
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
      else if (held.decision === 'CANCEL') {
        cancel = held;
        abort('cancelled');
      }
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
    } else if (reason?.kind === 'cancelled') {
      outcome = cancelledOutcome(cancel);
    } else if (reason?.kind === 'lost') {
      log?.info({ operationId: row.id }, 'operation taken over, timed out or reset elsewhere');
      return;
    } else if (reason?.kind === 'stopping' || isDatabaseGone(err)) {
      // Not the operation's fault: the next engine resumes it once the lease is released,
      // without the database at the next pass that reaches it (or once it is stale after `staleMs`).
      log?.info({ operationId: row.id }, 'operation handed to the next engine');
      await serial(() => releaseOperationLease(db, lease))
        .catch(handedOver.later(lease))
        .catch((e: unknown) => report('lease release failed', e, { operationId: row.id }));
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
    // A finish the database did not take is handed over like an abandoned operation: the effects are idempotent.
    ended = await finish({ lease, outcome, output: o, deployerLog: d }).catch(handedOver.later(lease));
  } catch (err) {
    report('operation finish failed', err, { operationId: row.id });
    return;
  }
  if (!ended) log?.info({ operationId: row.id }, 'operation ended elsewhere before its finish');
}
