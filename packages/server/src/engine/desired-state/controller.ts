/**
 * The deploy controller (DESIGN §12 Desired state; invariants in `README.md`):
 * level-driven, like a Kubernetes controller. Each pass compares and acts; it
 * keeps no memory that matters, so a lost wake-up or a dead worker is repaired
 * at the next pass.
 *
 * A pass:
 * 1. resolves every account's desired versions again when the software catalogue
 *    gained a commit or build since this process last did (always on its first
 *    pass), and at least every {@link DeployControllerOptions.resolveEveryMs}
 *    (new machines, a missed call);
 * 2. in one transaction holding a transaction-scoped advisory lock (so two
 *    workers' passes run one after the other, and the second sees the first's
 *    operations), queues one UpdateSoftware, user `MMA`, for each machine of
 *    {@link selectDeployCandidates} (at most `batch` per pass; the next pass, at
 *    once after a full batch, takes the rest), with params `{versions, bundleVersion}`: the target versions
 *    (`component → {branch}|{shortHash}`) and the account's bundle version. The
 *    queue decides whether it waits for approval (a production class, or a
 *    rollout's wave that asks for its own approval or has it). Each
 *    carries the activity that changed the machine's desired versions.
 * 3. announces OperationQueued after the commit.
 *
 * {@link startDeployController} runs passes every `everyMs` and when woken: by
 * `wake()`, or a NOTIFY on {@link DESIRED_CHANGED_CHANNEL} (an instance settings
 * push or a followed commit committed).
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { startPassLoop } from '../pass-loop.js';
import type { OperationQueue, QueuedOperation } from '../operations/queue.js';
import {
  DEPLOY_LOCK_NAMESPACE,
  DESIRED_CHANGED_CHANNEL,
  selectCatalogueStamp,
  selectDeployCandidates,
} from './desired-state.repository.js';
import { resolveAllDesiredStates } from './desired-state.js';

/** User recorded on the operations the controller queues (OPS-SEMANTICS: users recorded). */
export const CONTROLLER_USER = 'MMA';

/** Most UpdateSoftware operations queued by one pass. */
export const DEPLOY_BATCH = 500;

/**
 * One deploy step (2 and 3 of the module docstring): queues an UpdateSoftware for
 * each machine that needs one, at most `batch`. Safe to run in several workers
 * at once: the advisory lock serialises the passes, and each reads the
 * operations the previous one committed. Answers the operations queued.
 */
export async function queueDeploys(db: Db, opts: { queue: OperationQueue; batch?: number }): Promise<QueuedOperation[]> {
  const queued = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DEPLOY_LOCK_NAMESPACE}, 0)`);
    const candidates = await selectDeployCandidates(tx, opts.batch ?? DEPLOY_BATCH);
    return opts.queue.enqueue(
      tx,
      candidates.map((m) => ({
        machine: m,
        typeName: 'UpdateSoftware' as const,
        user: CONTROLLER_USER,
        activityId: m.desiredActivityId,
        params: { versions: m.desiredVersions, bundleVersion: m.bundleVersion },
        ...(m.approval ? { approval: m.approval } : {}),
      })),
    );
  });
  opts.queue.announce(queued);
  return queued;
}

export interface DeployControllerOptions {
  db: Db;
  queue: OperationQueue;
  log?: Logger;
  /** Pass interval, ms (default 10 s). */
  everyMs?: number;
  /** Longest time between two full resolutions, ms (default 5 minutes). */
  resolveEveryMs?: number;
  /** UpdateSoftware operations queued per pass at most (default {@link DEPLOY_BATCH}). */
  batch?: number;
  /** Listen for {@link DESIRED_CHANGED_CHANNEL} (default true). */
  listen?: boolean;
}

export interface DeployController {
  /** Runs a pass soon (coalesced with one in flight: it runs again after it). */
  wake(): void;
  /** Runs one full pass now and answers the operations it queued (tests, start-up). */
  pass(): Promise<QueuedOperation[]>;
  /** Stops the timer and the listener, waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * Starts the deploy controller (see the module docstring): a pass at once, then
 * every `everyMs` and when woken. Failures are logged and retried at the next
 * pass. Call `stop()` before closing the pool.
 */
export function startDeployController(opts: DeployControllerOptions): DeployController {
  const { db, log } = opts;
  const resolveEveryMs = opts.resolveEveryMs ?? 300_000;
  let stamp: string | undefined;
  let resolvedAt = 0;

  async function pass(): Promise<QueuedOperation[]> {
    const now = await selectCatalogueStamp(db);
    if (now !== stamp || Date.now() - resolvedAt >= resolveEveryMs) {
      const changed = await resolveAllDesiredStates(db);
      if (changed > 0) log?.info({ machines: changed }, 'desired versions resolved again');
      stamp = now;
      resolvedAt = Date.now();
    }
    const queued = await queueDeploys(db, { queue: opts.queue, batch: opts.batch });
    if (queued.length > 0) log?.info({ operations: queued.length }, 'UpdateSoftware queued for obsolete machines');
    return queued;
  }

  return startPassLoop({
    pass,
    everyMs: opts.everyMs ?? 10_000,
    channel: opts.listen === false ? null : DESIRED_CHANGED_CHANNEL,
    connection: db.$client.options,
    // A full batch means more machines wait: the next pass runs at once rather
    // than a timer period later (a rollout wave of 9,000 machines queued 500
    // every 10 s: 171 s; the agent runs well over 1,000 a second).
    again: (queued) => queued.length >= (opts.batch ?? DEPLOY_BATCH),
    log,
    what: 'deploy',
  });
}
