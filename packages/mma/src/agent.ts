/**
 * The MMA's loop (README "How it works"; DESIGN §17): while a slot is free
 * (`concurrency` operations at once), a claim long-polls the server for up to
 * the free slots (`waitSeconds` {@link MMA_CLAIM_WAIT_MAX_S}); each operation
 * claimed runs on its own (`run.ts`); every `heartbeatSeconds` one heartbeat
 * renews the leases of all running operations and hears which are lost (stop
 * them, no finish) and which an operator cancelled (stop them, finish FAILURE
 * "Cancelled by X"); it is sent with no lease too, so that a revoked
 * credential is heard within a beat, not at the end of a long poll. A claim
 * carries the running leases too when no heartbeat went through within a beat
 * (an MMA back from an outage may claim before its next heartbeat).
 *
 * - While the server is away, the client retries with backoff; the runs go on
 *   and keep their output until it is back.
 * - `stop` (SIGINT/SIGTERM): no more claims (the waiting one is dropped),
 *   the running operations go on for `shutdownGraceSeconds`, then the ones
 *   left are stopped and abandoned (no finish: the server's lost-MMA rule
 *   decides after its lease); resolves.
 * - A 401 on any call (the credential revoked): every run is stopped and
 *   abandoned, and {@link runAgent} rejects with the
 *   {@link CredentialRejectedError}.
 *
 * - After each operation it finished, the `report` script (if configured)
 *   reports the machine (`report.ts`); a report never holds a slot's claim
 *   back nor changes the operation.
 *
 * Known limitations: a claim dropped at shutdown while the server was
 * answering it leaves what it claimed to the lost-MMA rule.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MMA_CLAIM_WAIT_MAX_S, type TOperationTypeName } from '@fleet/contracts';
import { CredentialRejectedError, describeError, type MmaClient } from './client.js';
import { executorFor, type ExecutorConfig, type MmaConfig } from './config.js';
import type { MmaLogger } from './logger.js';
import { startRun, type OperationRun, type RunOptions } from './run.js';
import { createReporter } from './report.js';
import { createScriptExecutor } from './executors/script.js';
import { createSimulatedExecutor } from './executors/simulated.js';
import type { Executor } from './executors/types.js';

/** How long a full MMA waits after a slot frees before it claims, ms: slots freed meanwhile are claimed at once. */
const CLAIM_GATHER_MS = 100;

/** Wait after a claim the server refused (a 4xx other than 401: a bug, or a server of another version), ms. */
const CLAIM_REFUSED_WAIT_MS = 30_000;

export interface AgentOptions {
  client: MmaClient;
  config: MmaConfig;
  /** The configuration file's path (named in "No executor for X in <file>"). */
  configFile: string;
  log: MmaLogger;
  /** Aborted to stop gracefully. */
  stop?: AbortSignal;
  /** The environment the executors see (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Passed to each run (tests). */
  flushEveryMs?: number;
}

/** Builds the executors of `config` once (a bad SIM_AGENT_DELAY_MS throws here, at start). */
function buildExecutors(config: MmaConfig, env: NodeJS.ProcessEnv): (typeName: TOperationTypeName) => { run: Executor; timeoutSeconds?: number } | undefined {
  const built = new Map<ExecutorConfig, { run: Executor; timeoutSeconds?: number }>();
  for (const e of Object.values(config.executors)) {
    if (!e || built.has(e)) continue;
    built.set(e, e.kind === 'script' ? { run: createScriptExecutor({ config: e, env }), timeoutSeconds: e.timeoutSeconds } : { run: createSimulatedExecutor({ config: e, env }) });
  }
  return (typeName) => {
    const e = executorFor(config, typeName);
    return e && built.get(e);
  };
}

/**
 * Runs the MMA until `stop` aborts (resolves once its operations ended or
 * were abandoned) or its credential is refused (rejects with
 * {@link CredentialRejectedError}, after stopping its operations).
 */
export async function runAgent({ client, config, configFile, log, stop, env = process.env, flushEveryMs }: AgentOptions): Promise<void> {
  const executorOf = buildExecutors(config, env);
  const report = config.report && createReporter({ config: config.report, client, log, env });
  const runs = new Map<number, OperationRun>();
  /** Aborted at `stop` or on a fatal error: no more claims. */
  const claiming = new AbortController();
  /** Aborted on a fatal error: no more calls at all. */
  const fatal = new AbortController();
  let fatalError: Error | undefined;
  let slotFreed: (() => void) | undefined;

  const onStop = () => claiming.abort(new Error('stopping'));
  if (stop?.aborted) onStop();
  stop?.addEventListener('abort', onStop, { once: true });

  function fail(err: Error) {
    if (fatalError) return;
    fatalError = err;
    log.error('The server refused the MMA\'s credential: stopping', { error: err.message });
    claiming.abort(err);
    fatal.abort(err);
    for (const run of runs.values()) run.abandon('credential refused');
  }

  function start(operation: RunOptions['operation']) {
    // A new attempt of an operation this MMA still runs (its lease ran out during an outage): the old attempt is lost.
    runs.get(operation.operationId)?.lose();
    const executor = executorOf(operation.typeName);
    const run = startRun({
      operation,
      client,
      executor: executor ?? { missing: `No executor for ${operation.typeName} in ${configFile}` },
      log,
      onCredentialRejected: fail,
      flushEveryMs,
    });
    runs.set(operation.operationId, run);
    log.info('Claimed', { operation: operation.operationId, attempt: operation.attempt, type: operation.typeName, machine: operation.machine.name, resumed: operation.resumed });
    void run.done.then((end) => {
      if (runs.get(operation.operationId) === run) runs.delete(operation.operationId);
      slotFreed?.();
      if (end === 'finished' && report) void report(operation, fatal.signal);
    });
  }

  let beating = false;
  /** When a heartbeat last went through (ms since the epoch): its answer renewed every running lease. */
  let lastBeatAt = 0;
  async function beat() {
    if (beating || fatal.signal.aborted) return;
    beating = true;
    try {
      const answer = await client.heartbeat(
        [...runs.values()].map((r) => r.lease),
        fatal.signal,
      );
      lastBeatAt = Date.now();
      for (const id of answer.lost) runs.get(id)?.lose();
      for (const c of answer.cancel) runs.get(c.operationId)?.cancel(c.by);
    } catch (err) {
      if (err instanceof CredentialRejectedError) fail(err);
      // Otherwise the client has said the server is away; the next beat tries again.
    } finally {
      beating = false;
    }
  }
  const heartbeat = setInterval(() => void beat(), config.heartbeatSeconds * 1000);

  /** Resolves when a run ends or `signal` aborts. */
  const nextSlot = (signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        slotFreed = undefined;
        resolve();
      };
      slotFreed = done;
      signal.addEventListener('abort', done, { once: true });
    });
  const allDone = () => Promise.all([...runs.values()].map((r) => r.done));

  try {
    while (!claiming.signal.aborted) {
      const free = config.concurrency - runs.size;
      if (free <= 0) {
        await nextSlot(claiming.signal);
        // Runs end one by one: gather the slots freed meanwhile, so that one claim (a look at the class's whole queue
        // on the server) takes several operations, not one each (bench/operations-mma: 49 operations/s when one each).
        await sleep(CLAIM_GATHER_MS, undefined, { signal: claiming.signal }).catch(() => undefined);
        continue;
      }
      try {
        // The running leases ride along when no heartbeat went through within a beat (an outage): the claim may reach
        // the server before the next heartbeat. Otherwise the last heartbeat renewed them (at 64 slots, a renewal at
        // every claim cost the server a sixth of a claim's statements; bench/operations with SIM_MMA=protocol).
        const leases = Date.now() - lastBeatAt > config.heartbeatSeconds * 1000 ? [...runs.values()].map((r) => r.lease) : [];
        const { operations } = await client.claim({ maxOperations: free, waitSeconds: MMA_CLAIM_WAIT_MAX_S, leases }, claiming.signal);
        for (const operation of operations) start(operation);
      } catch (err) {
        if (claiming.signal.aborted) break;
        if (err instanceof CredentialRejectedError) {
          fail(err);
          break;
        }
        log.error('Claim refused; trying again later', { error: describeError(err), waitSeconds: CLAIM_REFUSED_WAIT_MS / 1000 });
        await sleep(CLAIM_REFUSED_WAIT_MS, undefined, { signal: claiming.signal }).catch(() => undefined);
      }
    }

    if (!fatalError && runs.size > 0) {
      log.info('Stopping: waiting for the running operations', { running: runs.size, graceSeconds: config.shutdownGraceSeconds });
      const grace = new AbortController();
      fatal.signal.addEventListener('abort', () => grace.abort(), { once: true });
      await Promise.race([allDone(), sleep(config.shutdownGraceSeconds * 1000, undefined, { signal: grace.signal }).catch(() => undefined)]);
      grace.abort();
      for (const run of runs.values()) run.abandon('shutdown', { flush: true });
    }
    await allDone();
  } finally {
    clearInterval(heartbeat);
    stop?.removeEventListener('abort', onStop);
  }
  if (fatalError) throw fatalError;
  log.info('Stopped');
}
