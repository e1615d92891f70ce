/**
 * How a waiting MMA claim (the long poll of `POST /mma-agent/operations/claim`,
 * `mma-protocol.service.ts`) waits before it looks at its class's queue again:
 * at most {@link CLAIM_POLL_MS}, less when an operation is announced
 * (`wakeups`) or the poll is abandoned (`signal`: its client went away, the
 * server stops).
 */
import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a waiting claim looks again, ms. */
export const CLAIM_POLL_MS = 1_000;

/**
 * Resolves at the next `'wake'` of `wakeups`, after `ms` milliseconds, or when
 * `signal` aborts, whichever comes first, and leaves no listener behind. The
 * time is a plain timer: an `AbortSignal.timeout` inside `AbortSignal.any`
 * can be garbage collected before it fires on Node 20 (nodejs/node#57736), and
 * a claim waiting on it then slept until the next notification, which stalled
 * every MMA in process under load (a rollout's approved wave never deployed).
 */
function wakeOrTimeout(wakeups: EventEmitter, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wakeups.off('wake', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakeups.on('wake', done);
    signal?.addEventListener('abort', done, { once: true });
    if (signal?.aborted) done();
  });
}

/** Waits `ms` milliseconds, or until a wake of `wakeups` (when given) or the abort of `signal`; never rejects. */
export async function waitToLookAgain(ms: number, wakeups?: EventEmitter, signal?: AbortSignal): Promise<void> {
  if (wakeups) await wakeOrTimeout(wakeups, ms, signal);
  else await sleep(ms, undefined, { signal }).catch(() => undefined);
}
