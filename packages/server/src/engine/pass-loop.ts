/**
 * The loop of a level-driven engine part (DESIGN §12; the deploy controller,
 * the rollout engine): one `pass` at once, then every `everyMs`, and when woken
 * by `wake()` or a NOTIFY on `channel`. Passes never overlap: a wake-up during
 * a pass runs one more pass after it (coalesced). A pass that fails is logged
 * and the next one repairs it; a lost notification costs latency, never work.
 * While the database is away (`isDatabaseGone`) the first failed pass is
 * logged at warn, the next ones at debug, and the first pass that succeeds
 * again at info.
 *
 * The LISTEN connection is a dedicated `pg.Client`; when lost it is opened
 * again after 5 s (a database shutdown, as at Ctrl-C, is not logged).
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { isAdminShutdown, isDatabaseGone } from '../db/client.js';

export interface PassLoopOptions<R> {
  /** One pass; its answer goes to `again` and to callers of `pass()`. */
  pass(): Promise<R>;
  everyMs: number;
  /** The NOTIFY channel that wakes a pass; null: the timer and `wake()` only. */
  channel: string | null;
  /** Connection settings of the listener (the pool's: `db.$client.options`). */
  connection: pg.ClientConfig;
  /** Whether a pass's answer means more work waits: the next pass then runs at once. */
  again?(result: R): boolean;
  log?: Logger;
  /** What the logs call this loop, e.g. `deploy` or `rollout`. */
  what: string;
}

export interface PassLoop<R> {
  /** Runs a pass soon (coalesced with one in flight: it runs again after it). */
  wake(): void;
  /** Runs one pass now, after the one in flight, and answers it. */
  pass(): Promise<R>;
  /** Stops the timer and the listener, waits for a pass in flight. */
  stop(): Promise<void>;
}

export function startPassLoop<R>(opts: PassLoopOptions<R>): PassLoop<R> {
  const { log, what, channel } = opts;
  let inFlight: Promise<unknown> | undefined;
  let again = false;
  let stopping = false;
  let listener: pg.Client | undefined;
  /** Set while passes fail because the database is away. */
  let databaseAway = false;

  function run(): void {
    if (stopping) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = opts
      .pass()
      .then((result) => {
        if (databaseAway) log?.info(`${what} passes run again: the database is back`);
        databaseAway = false;
        if (opts.again?.(result)) again = true;
      })
      .catch((err: Error) => {
        if (!isDatabaseGone(err)) return log?.warn({ err: err.message }, `${what} pass failed`);
        log?.[databaseAway ? 'debug' : 'warn']({ err: err.message }, `${what} pass failed: the database is away`);
        databaseAway = true;
      })
      .finally(() => {
        inFlight = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  }

  async function listen(channel: string): Promise<void> {
    const retry = () => {
      if (!stopping) setTimeout(() => void listen(channel).catch(() => undefined), 5_000).unref();
    };
    const client = new pg.Client(opts.connection);
    client.on('notification', (msg) => {
      if (msg.channel === channel) run();
    });
    client.on('error', (err) => {
      if (!isAdminShutdown(err)) log?.warn({ err: err.message }, `${what} notification connection lost; the timer still runs passes`);
      if (listener === client) listener = undefined;
      client.end().catch(() => undefined);
      retry();
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      retry();
      throw err;
    }
    if (stopping) await client.end().catch(() => undefined);
    else listener = client;
  }

  if (channel !== null) listen(channel).catch((err: Error) => log?.warn({ err: err.message }, `${what} notifications unavailable; the timer still runs passes`));
  run();
  const timer = setInterval(run, opts.everyMs);
  timer.unref();

  return {
    wake: run,
    async pass() {
      while (inFlight) await inFlight;
      return opts.pass();
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      await listener?.end().catch(() => undefined);
      listener = undefined;
      while (inFlight) await inFlight;
    },
  };
}
