/**
 * A LISTEN connection that stays up (DESIGN §6, §12): the task engine and the
 * operation agent hear `pg_notify` wake-ups on it. The payload of both channels
 * is a comma list of machine ids.
 *
 * The connection is a dedicated `pg.Client` (a pooled one could be handed to
 * someone else while it listens). When it is lost it is opened again after 1 s,
 * doubling the delay up to {@link MAX_REOPEN_DELAY_MS} while that fails (so it is back within
 * seconds of a database restart); meanwhile the engine's own periodic pass
 * still finds the work, so a lost notification costs latency, never work. A
 * database shutdown (57P01, as at Ctrl-C) is logged at debug, and so are the
 * failed attempts after the first while the database stays away.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { isAdminShutdown } from '../db/client.js';

/** Longest wait between two attempts to open a lost LISTEN connection again, ms. */
export const MAX_REOPEN_DELAY_MS = 5_000;

export interface MachineNotificationListener {
  /** Closes the connection; no reconnection follows. */
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Connection settings (the pool's: `db.$client.options`). */
  connection: pg.ClientConfig;
  channel: string;
  /** Called with the machine ids of each notification. */
  onMachines(machineIds: number[]): void;
  log?: Logger;
  /** What the logs call this listener, e.g. `task` or `operation`. */
  what: string;
}

/** The machine ids of a notification payload (`'12,15'`); anything else is ignored. */
export function machineIdsOf(payload: string | undefined): number[] {
  if (!payload) return [];
  return payload.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * Opens the listening connection; rejects when the first connection fails (the
 * caller's start fails with it). Later losses reconnect on their own until
 * {@link MachineNotificationListener.close}.
 */
export async function listenForMachines(options: ListenOptions): Promise<MachineNotificationListener> {
  const { connection, channel, onMachines, log, what } = options;
  let closed = false;
  let current: pg.Client | undefined;

  async function open(): Promise<void> {
    const client = new pg.Client(connection);
    client.on('notification', (msg) => {
      if (msg.channel !== channel) return;
      const ids = machineIdsOf(msg.payload);
      if (ids.length > 0) onMachines(ids);
    });
    client.on('error', (err) => {
      // A database shutdown (Ctrl-C stops the embedded one too) is expected; other losses are not.
      if (isAdminShutdown(err)) log?.debug({ err: err.message }, `${what} notification connection closed by the database`);
      else log?.warn({ err: err.message }, `${what} notification connection lost; reconnecting`);
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      reopen(1000);
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
  }

  function reopen(delayMs: number): void {
    if (closed) return;
    setTimeout(() => {
      if (closed) return;
      open().then(
        () => {
          if (delayMs > 1000) log?.info(`${what} notifications back`);
        },
        (err: Error) => {
          const retryInMs = Math.min(delayMs * 2, MAX_REOPEN_DELAY_MS);
          // The first failure says so; the next ones, while the database stays away, are details.
          log?.[delayMs === 1000 ? 'warn' : 'debug']({ err: err.message, retryInMs }, `${what} notifications unavailable; retrying`);
          reopen(retryInMs);
        },
      );
    }, delayMs).unref();
  }

  await open();
  return {
    async close() {
      closed = true;
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
