/**
 * The worker's MMAs in process (issue 27 point 3; DESIGN §12, §17): with
 * `SIM_MMA=protocol` (the default, `config.ts`), the operations of every class that is not remote run on
 * the reference MMA (`packages/mma`: its claim loop, runs, log streams,
 * heartbeats and finishes) with its simulated executor for every operation
 * type, through the MMA protocol's service (`in-process-client.ts`): the code
 * path of a remote MMA, with no HTTP between them. The operation engine
 * (`engine/operations/agent.ts`) then starts none of them (its claim's scope
 * is empty), and still ends cancels and timeouts and delivers notification
 * messages.
 *
 * - One MMA per class (the classes are read at start and every
 *   {@link CLASS_REFRESH_MS}): principal id {@link IN_PROCESS_AGENT_ID}, no
 *   row of `mma_agents`, `inProcess`: its claim's scope is its class while the
 *   class is not remote (`mma-protocol.service.ts`). Switching a class to
 *   remote hands its next operations to its registered MMAs; the ones running
 *   here finish here.
 * - Each runs `concurrency` operations at once (`SIM_MMA_CONCURRENCY`,
 *   default 64, as many as the operation engine runs); `SIM_AGENT_DELAY_MS` scales the simulated steps and
 *   `SIM_AGENT_FAIL_MACHINES` names the machines whose operations fail
 *   ('Simulated failure'), as they do the engine's simulated agent.
 * - Their worker (`operations.worker`) is `mma-agent:0@<host>:<pid>`: the
 *   process's own, so its leases are told from another worker's on the host.
 * - `stop()`: no more claims; running operations are stopped without a finish
 *   and their leases released (as the engine's stop does), so the next worker
 *   resumes them at once; after a crash, once their lease is stale.
 *
 * - Woken by NOTIFY (`fleet_operation_queued`, as the engine is): a waiting
 *   claim looks again at once; it also looks once a second (the protocol's
 *   long poll), so a lost notification delays nothing more.
 */
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { runAgent } from '@fleet/mma/agent';
import { ZMmaConfig } from '@fleet/mma/config';
import type { MmaLogger } from '@fleet/mma/logger';
import type { Db } from '../../db/client.js';
import { mmaClasses } from '../../db/schema.js';
import { listenForMachines } from '../../engine/notifications.js';
import { OPERATION_QUEUED_CHANNEL } from '../../engine/operations/operations.repository.js';
import { createInProcessMmaClient } from './in-process-client.js';
import { agentWorkerPrefix } from '../mma-agents/mma-agents.repository.js';
import { releaseWorkerLeases } from './mma-protocol.repository.js';
import type { MmaProtocolService } from './mma-protocol.service.js';

/** The principal id of the MMAs in process (`mma_agents` ids start at 1): their operations' worker is `mma-agent:0@<host>`. */
export const IN_PROCESS_AGENT_ID = 0;
/** How often the classes are read again (a class added meanwhile gets its MMA), ms. */
export const CLASS_REFRESH_MS = 60_000;
/** How long running operations may take to end at `stop()`, seconds: none, as the engine's stop (their leases are released). */
export const SHUTDOWN_GRACE_S = 0;
const VERSION = 'in-process';

/** The MMA's log lines in the server's log: its per-operation lines at debug, warnings and errors as such. */
function mmaLogger(log: Logger, classId: number): MmaLogger {
  const child = log.child({ mma: 'in-process', classId });
  return {
    info: (message, fields) => child.debug(fields ?? {}, message),
    warn: (message, fields) => child.warn(fields ?? {}, message),
    error: (message, fields) => child.error(fields ?? {}, message),
  };
}

export interface InProcessMmas {
  /** The classes whose MMA runs (tests). */
  classIds(): number[];
  /** Stops claiming; resolves once every MMA's operations ended or were abandoned. */
  stop(): Promise<void>;
}

export function startInProcessMmas({
  db,
  service,
  log,
  concurrency,
  delayMs,
  failMachines = [],
  host = `${hostname()}:${process.pid}`,
  heartbeatSeconds,
}: {
  db: Db;
  service: MmaProtocolService;
  log: Logger;
  /** Operations each class's MMA runs at once (`SIM_MMA_CONCURRENCY`). */
  concurrency: number;
  /** Real ms per nominal second of the simulated steps (`SIM_AGENT_DELAY_MS`). */
  delayMs: number;
  failMachines?: string[];
  host?: string;
  /** Seconds between each MMA's heartbeats (default the reference MMA's, 5): how soon a cancel reaches a run. */
  heartbeatSeconds?: number;
}): InProcessMmas {
  const stopping = new AbortController();
  const running = new Map<number, Promise<void>>();
  // A queued operation (or a decision) NOTIFYs its machine: the waiting claims look again at once.
  const wakeups = new EventEmitter().setMaxListeners(0);
  const listening = listenForMachines({
    connection: db.$client.options,
    channel: OPERATION_QUEUED_CHANNEL,
    onMachines: () => wakeups.emit('wake'),
    log,
    what: 'in-process MMA',
  }).catch((err: unknown) => {
    log.warn({ err }, 'in-process MMAs: not woken by NOTIFY; their claims look once a second');
    return undefined;
  });
  const config = ZMmaConfig.parse({
    concurrency,
    heartbeatSeconds,
    shutdownGraceSeconds: SHUTDOWN_GRACE_S,
    executors: { default: { kind: 'simulated', delayMs, failMachines } },
  });

  function startClass(classId: number) {
    const mmaLog = mmaLogger(log, classId);
    const client = createInProcessMmaClient({
      service,
      principal: { id: IN_PROCESS_AGENT_ID, classId, host, version: VERSION, inProcess: true },
      log: mmaLog,
      wakeups,
    });
    // `env: {}`: the executor's delay is `delayMs`, the server's own reading of SIM_AGENT_DELAY_MS.
    const run = runAgent({ client, config, configFile: 'the worker (SIM_MMA=protocol)', log: mmaLog, stop: stopping.signal, env: {} }).catch((err: unknown) =>
      log.error({ err, classId }, 'in-process MMA stopped'),
    );
    running.set(classId, run);
  }

  async function refresh() {
    const classes = await db.select({ id: mmaClasses.id }).from(mmaClasses);
    for (const { id } of classes) if (!running.has(id) && !stopping.signal.aborted) startClass(id);
  }

  const refreshing = setInterval(() => void refresh().catch((err: unknown) => log.warn({ err }, 'in-process MMAs: reading the classes failed')), CLASS_REFRESH_MS);
  const first = refresh().catch((err: unknown) => log.warn({ err }, 'in-process MMAs: reading the classes failed'));

  return {
    classIds: () => [...running.keys()],
    async stop() {
      clearInterval(refreshing);
      await first;
      stopping.abort();
      await Promise.all(running.values());
      await (await listening)?.close();
      // The runs stopped without a finish: hand their operations over now, not when their leases go stale.
      await releaseWorkerLeases(db, `${agentWorkerPrefix(IN_PROCESS_AGENT_ID)}${host}`).catch((err: unknown) => log.warn({ err }, 'in-process MMAs: leases not released; they go stale'));
    },
  };
}
