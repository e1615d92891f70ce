/**
 * One claimed operation's run on the MMA (README "Invariants"): its executor
 * started with the operation's time (the shorter of the claim's
 * `remainingMs` and the executor's `timeoutSeconds`), its output and deployer
 * log streamed to the server (flushed every second; the last lines ride
 * with the finish), and one finish with how it ended.
 *
 * How a run ends:
 * - the executor ends: logs flushed (their last lines kept for the finish to
 *   carry), then finish SUCCESS, or FAILURE with the
 *   executor's message (the output's last line); a Backup's files are
 *   uploaded before its SUCCESS, a RestoreBackup's downloaded before its
 *   executor starts (`backup-files.ts`), a refused or missing file failing it;
 *   a CreateJumpStartAmi waits for the server's image of its machine before
 *   its SUCCESS (`image.ts`);
 * - {@link OperationRun.cancel} (an operator's cancel, heard in a heartbeat):
 *   the executor is stopped (its process group killed), then finish FAILURE
 *   "Cancelled by <by>";
 * - {@link OperationRun.lose} (the heartbeat says the lease is lost), or an
 *   append or the finish answering 409/404: stopped, never finished (another
 *   attempt, or an operator, owns the operation now);
 * - {@link OperationRun.abandon} (the MMA stops: its shutdown grace passed, or
 *   its credential was revoked): stopped, logs flushed briefly when asked,
 *   never finished: the server's lost-MMA rule decides after its lease
 *   (an idempotent type is offered again, another ends 'MMA lost').
 *
 * A run never finishes its operation twice: `finish` is called once at most,
 * and its retries (after a lost answer) are fenced by the server (409).
 */
import type { TMmaClaimedOperation, TMmaLease } from '@fleet/contracts';
import { CredentialRejectedError, describeError, isLeaseLost, type MmaClient } from './client.js';
import { createLogStream } from './log-stream.js';
import type { MmaLogger } from './logger.js';
import type { Executor, ExecutorResult } from './executors/types.js';
import { deliverFiles, FilesFailure, prepareFiles, removeFiles, type RunFiles } from './backup-files.js';
import { awaitImage } from './image.js';

/** How often the logs are sent while the operation runs, ms. */
export const FLUSH_EVERY_MS = 1_000;
/** Longest message a finish carries (the contract's limit). */
const FINISH_MESSAGE_MAX = 2_000;
/** How long an abandoned run may take to send its last lines, ms. */
const ABANDON_FLUSH_MS = 5_000;

export type RunEnd = 'finished' | 'lost' | 'abandoned';

export interface OperationRun {
  readonly operation: TMmaClaimedOperation;
  readonly lease: TMmaLease;
  /** Settles (never rejects) once the run ended: finished, lost or abandoned. */
  readonly done: Promise<RunEnd>;
  /** An operator cancelled it: stop the work, then finish FAILURE "Cancelled by `by`". */
  cancel(by: string): void;
  /** The lease is lost: stop the work; no more appends, no finish. */
  lose(): void;
  /** The MMA stops: stop the work and every call; send the logs (for a few seconds) when `flush`; no finish. */
  abandon(reason: string, o?: { flush?: boolean }): void;
}

export interface RunOptions {
  operation: TMmaClaimedOperation;
  client: MmaClient;
  /** What runs it, with its own limit (seconds), or the message of the FAILURE when none does. */
  executor: { run: Executor; timeoutSeconds?: number } | { missing: string };
  log: MmaLogger;
  /** Called when a call answered 401: the MMA must stop. */
  onCredentialRejected(err: CredentialRejectedError): void;
  flushEveryMs?: number;
}

export function startRun({ operation: op, client, executor, log, onCredentialRejected, flushEveryMs = FLUSH_EVERY_MS }: RunOptions): OperationRun {
  const lease = { operationId: op.operationId, attempt: op.attempt };
  const fields = { operation: op.operationId, attempt: op.attempt, type: op.typeName, machine: op.machine.name };
  /** Stops the executor. */
  const work = new AbortController();
  /** Stops the calls to the server (an abandoned run). */
  const calls = new AbortController();
  let ending: { kind: 'cancel'; by: string } | { kind: 'lost' } | { kind: 'abandoned'; reason: string; flush: boolean } | undefined;

  const send = (body: { stream: 'output' | 'deployerLog'; offset: number; text: string }, signal?: AbortSignal) =>
    client.append(op.operationId, { attempt: op.attempt, ...body }, signal).then((r) => r.offset);
  const output = createLogStream({ stream: 'output', offset: op.outputOffset, send, log });
  const deployerLog = createLogStream({ stream: 'deployerLog', offset: op.deployerLogOffset, send, log });

  /**
   * Sends both logs: 'sent'; 'lost' (the lease is lost, or the credential
   * refused); 'stopped' (the calls were stopped); 'refused' (the server
   * refused some lines as they are: they were dropped, the rest can go on).
   */
  async function flush(signal: AbortSignal, o: { keepLast?: boolean } = {}): Promise<'sent' | 'lost' | 'stopped' | 'refused'> {
    try {
      await Promise.all([output.flush(signal, o), deployerLog.flush(signal, o)]);
      return 'sent';
    } catch (err) {
      if (err instanceof CredentialRejectedError) {
        onCredentialRejected(err);
        return 'lost';
      }
      if (isLeaseLost(err)) {
        lose();
        return 'lost';
      }
      if (signal.aborted) return 'stopped';
      log.warn('The server refused lines of the logs; they were dropped', { ...fields, error: describeError(err) });
      return 'refused';
    }
  }

  function lose() {
    if (ending?.kind === 'lost' || ending?.kind === 'abandoned') return;
    ending = { kind: 'lost' };
    work.abort(new Error('lease lost'));
  }

  async function execute(): Promise<RunEnd> {
    let flushing = false;
    const timer = setInterval(() => {
      if (flushing) return;
      flushing = true;
      void flush(calls.signal).finally(() => (flushing = false));
    }, flushEveryMs);
    let result: ExecutorResult;
    let files: RunFiles | undefined;
    const write = (line: string) => output.write(line);
    try {
      if ('missing' in executor) {
        result = { status: 'FAILURE', message: executor.missing };
      } else {
        const limit = executor.timeoutSeconds === undefined ? Infinity : executor.timeoutSeconds * 1000;
        const started = Date.now();
        files = await prepareFiles(op, client, work.signal, write);
        result = await executor.run({
          operation: op,
          signal: work.signal,
          timeoutMs: Math.max(0, Math.min(op.remainingMs, limit) - (Date.now() - started)),
          output: write,
          deployerLog: (line) => deployerLog.write(line),
          files,
        });
        if (result.status === 'SUCCESS' && files && !ending) await deliverFiles(op, files, client, work.signal, write);
        if (result.status === 'SUCCESS' && !ending) await awaitImage(op, client, work.signal, write);
      }
    } catch (err) {
      if (err instanceof CredentialRejectedError) onCredentialRejected(err);
      else if (isLeaseLost(err)) lose();
      result = { status: 'FAILURE', message: err instanceof FilesFailure ? err.message : `The executor failed: ${describeError(err)}` };
    } finally {
      clearInterval(timer);
      await removeFiles(files);
    }

    const end = ending;
    if (end?.kind === 'lost') {
      log.info('Lease lost: operation stopped without a finish', fields);
      return 'lost';
    }
    if (end?.kind === 'abandoned') {
      if (end.flush) {
        output.write(`The MMA stopped (${end.reason}) before the operation ended; the server decides what follows when its lease runs out`);
        await flush(calls.signal);
      }
      log.warn('Operation abandoned without a finish', { ...fields, reason: end.reason });
      return 'abandoned';
    }
    if (end?.kind === 'cancel') result = { status: 'FAILURE', message: `Cancelled by ${end.by}` };

    // The logs' last lines go with the finish (a short operation makes no append at all).
    let sent = await flush(calls.signal, { keepLast: true });
    // What was refused is dropped; the lines after it still go before the finish.
    if (sent === 'refused') sent = await flush(calls.signal, { keepLast: true });
    if (sent === 'lost' || sent === 'stopped') return endWithoutFinish();
    try {
      const message = result.message?.trim().slice(0, FINISH_MESSAGE_MAX) || undefined;
      const logs = { output: output.takeLast(), deployerLog: deployerLog.takeLast() };
      await client.finish(op.operationId, { attempt: op.attempt, status: result.status, message, ...logs }, calls.signal);
      log.info(`Finished ${result.status}`, { ...fields, message });
      return 'finished';
    } catch (err) {
      if (ending?.kind === 'abandoned') return 'abandoned';
      if (err instanceof CredentialRejectedError) onCredentialRejected(err);
      else if (isLeaseLost(err)) log.info('The server refused the finish: the lease is lost (or a lost answer had finished it)', { ...fields, detail: (err as { detail?: string }).detail });
      else if (!calls.signal.aborted) log.error('Finish failed', { ...fields, error: describeError(err) });
      return 'lost';
    }
  }

  /** The logs could not be sent: the lease is lost, or the run was abandoned meanwhile. */
  function endWithoutFinish(): RunEnd {
    if (ending?.kind === 'abandoned') return 'abandoned';
    log.info('Lease lost: operation stopped without a finish', fields);
    return 'lost';
  }

  // The agent's claim loop does not wait for a run; `done` never rejects.
  const done = execute().catch((err: unknown) => {
    log.error('The run failed', { ...fields, error: describeError(err) });
    return 'lost' as const;
  });

  return {
    operation: op,
    lease,
    done,
    cancel(by) {
      if (ending) return;
      ending = { kind: 'cancel', by };
      log.info('Cancel requested', { ...fields, by });
      work.abort(new Error(`Cancelled by ${by}`));
    },
    lose,
    abandon(reason, o = {}) {
      if (ending?.kind === 'abandoned') return;
      ending = { kind: 'abandoned', reason, flush: o.flush ?? false };
      work.abort(new Error(reason));
      if (o.flush) setTimeout(() => calls.abort(new Error(reason)), ABANDON_FLUSH_MS).unref();
      else calls.abort(new Error(reason));
    },
  };
}
