/**
 * The notification delivery worker (issue 28 point 3; invariants in `README.md`
 * beside it): an engine part whose pass fans the captured events out to their
 * channels' deliveries, claims the due deliveries under a lease, sends them at
 * once (in parallel, each within {@link SEND_TIMEOUT_MS}) and settles each: sent,
 * retried after an exponential backoff, or failed for good after `maxAttempts`.
 * The pass renews its leases every third of `leaseMs` while its sends last: an
 * email's SMTP steps are bounded one by one, not together, and a send that
 * outlasted its lease would be claimed and sent again by another worker.
 *
 * It runs as a pass loop (`engine/pass-loop.ts`): every `everyMs`, at once when
 * the triggers or a test message NOTIFY `fleet_notification_events`, and again at
 * once after a full batch. `stop()` waits for the pass in flight, whose sends
 * finish (or time out) and are settled, so a graceful restart neither loses nor
 * repeats a delivery.
 *
 * Events and their deliveries are kept `retentionDays` (default 30) once settled,
 * then deleted by the pass (at most every `pruneEveryMs`, 1,000 events at a time).
 *
 * Known limitations: a worker killed between a receiver's answer and the settle sends that
 * delivery again after its lease (`X-Fleet-Delivery` lets the receiver drop it).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../lib/mailer.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { startPassLoop, type PassLoop } from '../pass-loop.js';
import { NOTIFICATION_EVENTS_CHANNEL } from '../../modules/notification-channels/notification-channels.repository.js';
import { claimDeliveries, fanOutEvents, markAttemptFailed, markSent, pruneEvents, renewLeases, type ClaimedDelivery } from './delivery.repository.js';
import { messageOf } from './messages.js';
import { SEND_TIMEOUT_MS, sendDelivery } from './senders.js';

/**
 * Defaults: 8 attempts, 5 s doubling (at most an hour) between them, so 5 + 10 + … + 320 s, about 10.6 minutes, from the
 * first attempt to the last; settled events kept 30 days, looked for every 10 minutes.
 */
export const DELIVERY_DEFAULTS = { maxAttempts: 8, backoffBaseMs: 5_000, backoffMaxMs: 3_600_000, batch: 20, everyMs: 2_000, retentionDays: 30, pruneEveryMs: 600_000 } as const;
/** Events deleted by one prune at most. */
const PRUNE_LIMIT = 1000;

export interface NotificationDeliveryOptions {
  db: Db;
  /** Opens a webhook's sealed secret (`DATA_KEY`). */
  secrets: SecretBox;
  mailer: Mailer;
  /** `PUBLIC_URL`, without a trailing slash: the messages' links. */
  publicUrl: string;
  log?: Logger;
  /** Attempts of one delivery before it is Failed (default 8). */
  maxAttempts?: number;
  /** The wait after the first failed attempt, ms, doubled after each (default 5000), at most `backoffMaxMs` (default an hour). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Deliveries claimed, and events fanned out, per pass (default 20). */
  batch?: number;
  /** Period of the pass without a NOTIFY, ms (default 2000). */
  everyMs?: number;
  /** Days an event and its settled deliveries are kept (default 30). */
  retentionDays?: number;
  /** How often a pass deletes what is past `retentionDays`, ms (default 10 minutes; the first pass does). */
  pruneEveryMs?: number;
  /** Listen for the triggers' NOTIFY (default true). */
  listen?: boolean;
  /** How long a claim holds a delivery without a renewal, ms (default three send timeouts, 30 s). */
  leaseMs?: number;
}

/** What one pass did. */
export interface DeliveryPass {
  fannedOut: number;
  claimed: number;
  sent: number;
  failed: number;
  /** Events deleted as past their retention (0 in a pass that did not look). */
  pruned: number;
}

export interface NotificationDelivery {
  /** Runs one pass now (after the one in flight) and answers it. */
  pass(): Promise<DeliveryPass>;
  /** Stops the loop; the pass in flight finishes its sends and settles them first. */
  stop(): Promise<void>;
}

/** The wait after `attempts` failed attempts, ms: `base · 2^(attempts−1)`, at most `max`. */
export function backoffMs(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** Starts the worker (see the module docstring). */
export function startNotificationDelivery(opts: NotificationDeliveryOptions): NotificationDelivery {
  const { db, secrets, mailer, publicUrl, log } = opts;
  const o = {
    maxAttempts: opts.maxAttempts ?? DELIVERY_DEFAULTS.maxAttempts,
    backoffBaseMs: opts.backoffBaseMs ?? DELIVERY_DEFAULTS.backoffBaseMs,
    backoffMaxMs: opts.backoffMaxMs ?? DELIVERY_DEFAULTS.backoffMaxMs,
    batch: opts.batch ?? DELIVERY_DEFAULTS.batch,
    everyMs: opts.everyMs ?? DELIVERY_DEFAULTS.everyMs,
    retentionDays: opts.retentionDays ?? DELIVERY_DEFAULTS.retentionDays,
    pruneEveryMs: opts.pruneEveryMs ?? DELIVERY_DEFAULTS.pruneEveryMs,
  };
  let prunedAt = -Infinity;
  const owner = `notifications-${randomUUID()}`;
  const leaseMs = opts.leaseMs ?? SEND_TIMEOUT_MS * 3;

  /** Sends one delivery: undefined when the receiver took it, else the error to record. Never rejects. */
  async function send(d: ClaimedDelivery): Promise<string | undefined> {
    try {
      const secret = d.secret === null ? null : secrets.open(d.secret);
      await sendDelivery(d, messageOf(d, publicUrl), { mailer, secret });
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log?.warn({ deliveryId: d.id, channelId: d.channelId, attempt: d.attempts, err: message }, 'notification delivery failed');
      return message;
    }
  }

  /**
   * Sends, then settles what the send said. The settle is apart from the send: a settle that fails (the database
   * away) is not a failed send, and leaves the delivery to its lease (sent again after it: at least once).
   */
  async function deliver(d: ClaimedDelivery): Promise<boolean> {
    const error = await send(d);
    if (error === undefined) await markSent(db, { id: d.id, owner });
    else await markAttemptFailed(db, { id: d.id, owner, error, maxAttempts: o.maxAttempts, retryInMs: backoffMs(d.attempts, o.backoffBaseMs, o.backoffMaxMs) });
    return error === undefined;
  }

  async function pass(): Promise<DeliveryPass> {
    const fannedOut = await fanOutEvents(db, o.batch);
    const claimed = await claimDeliveries(db, { owner, batch: o.batch, leaseMs });
    const ids = claimed.map((d) => d.id);
    // A renewal that fails (the database away) lets the leases run out: sent again after them, at least once.
    const renewal = ids.length === 0 ? undefined : setInterval(() => void renewLeases(db, { ids, owner, leaseMs }).catch(() => undefined), leaseMs / 3);
    // Every send of the pass ends (and is settled if it can be) before the pass does: stop() waits for no straggler.
    const settled = await Promise.allSettled(claimed.map(deliver));
    clearInterval(renewal);
    const unsettled = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (unsettled) throw unsettled.reason;
    const results = settled.map((r) => r.status === 'fulfilled' && r.value);
    const sent = results.filter(Boolean).length;
    let pruned = 0;
    if (performance.now() - prunedAt >= o.pruneEveryMs) {
      prunedAt = performance.now();
      pruned = await pruneEvents(db, { before: new Date(Date.now() - o.retentionDays * 86_400_000), limit: PRUNE_LIMIT });
      // More is left: the next pass (at once, `again`) goes on.
      if (pruned >= PRUNE_LIMIT) prunedAt = -Infinity;
    }
    return { fannedOut, claimed: claimed.length, sent, failed: claimed.length - sent, pruned };
  }

  const loop: PassLoop<DeliveryPass> = startPassLoop({
    pass,
    everyMs: o.everyMs,
    channel: opts.listen === false ? null : NOTIFICATION_EVENTS_CHANNEL,
    connection: db.$client.options,
    again: (r) => r.fannedOut >= o.batch || r.claimed >= o.batch || r.pruned >= PRUNE_LIMIT,
    log,
    what: 'notification delivery',
  });
  return { pass: () => loop.pass(), stop: () => loop.stop() };
}
