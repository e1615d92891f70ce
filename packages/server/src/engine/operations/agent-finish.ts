/**
 * The operation engine's finishes and events (DESIGN §12; README.md beside this
 * file, Design 6 and the Events invariant). An operation that ended joins the
 * queue of finishes; one finish transaction is in flight at a time and takes up
 * to `batchSize` of them (`finishOperations`: one fenced UPDATE for all, the
 * failCounter rule per operation, Panic at `panicFailures`). If a batch fails
 * (a deadlock with another writer of a machine), its operations are finished
 * one by one; a database that went away fails the whole batch. After the
 * commit, OperationFinished of each (its payload read in the finish's own
 * transaction, so a committed finish is always announced), then the anomaly
 * rule runs for each class with a counted failure (`anomalyFailures` within
 * `anomalyWindowMinutes`); only then does each finish resolve, so that the
 * engine frees its machine's slot after its events.
 *
 * Failures of the OperationStarted read and of the anomaly rule are reported, not thrown:
 * the operation has ended all the same.
 */
import type { Logger } from 'pino';
import type { TOperationEventName } from '@fleet/contracts';
import { isDatabaseGone, type Db } from '../../db/client.js';
import type { TaskEvents } from '../push/events.js';
import { selectOperationEvents } from './agent.repository.js';
import { finishOperations, switchStandbyOnAnomaly, type EndedOperation, type OperationFinish } from './agent-finish.repository.js';

/** Logs a failure of background work (the engine's: debug when it stops and the database went away, else warn). */
export type ReportFailure = (msg: string, err: unknown, fields?: Record<string, unknown>) => void;

export interface OperationFinisherOptions {
  db: Db;
  events: TaskEvents;
  log?: Logger;
  report: ReportFailure;
  /** The engine's settings it reads: the batch size and the Panic and anomaly thresholds. */
  settings: { batchSize: number; panicFailures: number; anomalyFailures: number; anomalyWindowMinutes: number };
}

export interface OperationFinisher {
  /** Emits `name` for the operations `ids` (one read for all of them). */
  announce(name: TOperationEventName, ids: number[]): Promise<void>;
  /** After operations ended: OperationFinished, then the anomaly rule of each class with a counted failure. */
  afterEnded(ended: EndedOperation[]): Promise<void>;
  /** Ends the operation (fenced) in the next finish batch; resolves once it is written and announced (undefined: lease lost). */
  finish(item: OperationFinish): Promise<EndedOperation | undefined>;
}

export function createOperationFinisher({ db, events, log, report, settings: s }: OperationFinisherOptions): OperationFinisher {
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
    for (const e of ended) events.emit({ name: 'OperationFinished', ...e.event });
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

  return { announce, afterEnded, finish };
}
