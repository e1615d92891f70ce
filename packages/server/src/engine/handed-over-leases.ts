/**
 * Leases of work handed over while the database was away (`README.md` beside
 * this file, "When the database goes away"), for the task engine and the
 * operation agent: a task or an operation abandoned because its database went
 * away (`isDatabaseGone`), its lease not released or its finish not taken,
 * keeps its lease here, and the engine's next sweep or pass that reaches the
 * database releases it before anything else. So the work resumes at that
 * sweep or pass instead of once its lease is stale (`staleMs`).
 *
 * A release is the engine's own fenced one (`status` running and the same
 * attempt): work that was resumed, ended or reset elsewhere meanwhile is left
 * as it is. The leases live in the process's memory: a process that dies
 * before the database is back leaves them to go stale.
 */
import type { Logger } from 'pino';
import { isDatabaseGone } from '../db/client.js';

export interface HandedOverLeases<L> {
  /** For `.catch`: keeps `lease` when `err` says the database went away; rethrows `err` either way. */
  later(lease: L): (err: unknown) => never;
  /** Releases the kept leases, logging each at info; throws the first failure (the database still away) and keeps what is left. */
  release(): Promise<void>;
  /** The kept leases, forgotten here (`stop()` releases them with the running ones). */
  take(): L[];
}

export function createHandedOverLeases<L>({
  what,
  id,
  releaseLease,
  log,
}: {
  /** What a lease holds, for the log: `taskId` or `operationId`. */
  what: 'task' | 'operation';
  id(lease: L): number;
  /** The engine's fenced release: the lease's heartbeat made stale, so a claim resumes the work. */
  releaseLease(lease: L): Promise<void>;
  log?: Logger;
}): HandedOverLeases<L> {
  const kept = new Map<number, L>();
  return {
    later: (lease) => (err) => {
      if (isDatabaseGone(err)) kept.set(id(lease), lease);
      throw err;
    },
    async release() {
      for (const [key, lease] of [...kept]) {
        await releaseLease(lease);
        if (kept.get(key) === lease) kept.delete(key);
        log?.info({ [`${what}Id`]: key }, `the database is back: ${what} handed over for resumption`);
      }
    },
    take() {
      const leases = [...kept.values()];
      kept.clear();
      return leases;
    },
  };
}
