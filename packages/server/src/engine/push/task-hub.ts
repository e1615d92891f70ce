/**
 * The push channel (DESIGN §7, §12, spec 2 §4): Socket.IO at path `/taskHub`,
 * sending TaskQueued, TaskStarted, TaskProgress and TaskFinished, each with the
 * task as its only argument, and OperationQueued, OperationStarted and
 * OperationFinished, each with the operation.
 *
 * - A client authenticates with the API's JWT in the handshake (`auth: { token }`);
 *   a missing, bad, expired or revoked token refuses the connection
 *   (`connect_error` with message `unauthorized`).
 * - A client receives the events of the machines it may see: events of a
 *   Customer Production machine or account go to room `tasks:customer-production`,
 *   which only members of group CustomerProductionAccess join; all others go to
 *   room `tasks:all`, which every client joins (DESIGN §5).
 * - RolloutProgress (DESIGN §15) goes to the users who may read the rollout: the
 *   Updater is write-only, so room `rollouts:write` (users with `write`), or
 *   `rollouts:customer-production` (also the group) for a rollout with a
 *   Customer Production target.
 * - With a pool, the `@socket.io/postgres-adapter` carries broadcasts between
 *   processes (several `ROLE=api` processes and `ROLE=worker`): every process
 *   broadcasts the events raised in it, and clients of every process receive
 *   them. A worker creates the hub without an HTTP server: it only broadcasts.
 *
 * Known limitations: the token is checked when the client connects; a logout or
 * a revoked permission takes effect on its next reconnect. Events sent while a
 * client was away are not replayed (the console reloads after a reconnect).
 */
import type { Server as HttpServer } from 'node:http';
import type pg from 'pg';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Logger } from 'pino';
import { CLASS_CUSTOMER_PRODUCTION, TASK_HUB_PATH } from '@fleet/contracts';
import { canWrite, hasCustomerProductionAccess, type Principal } from '../../auth/principal.js';
import { payloadOf, type FleetEvent, type TaskEvents } from './events.js';

export const ROOM_ALL = 'tasks:all';
export const ROOM_CUSTOMER_PRODUCTION = 'tasks:customer-production';
export const ROOM_ROLLOUTS = 'rollouts:write';
export const ROOM_ROLLOUTS_CUSTOMER_PRODUCTION = 'rollouts:customer-production';

export interface TaskHubOptions {
  /** The API's HTTP server; absent in a worker, which only broadcasts. */
  server?: HttpServer;
  events: TaskEvents;
  /** The API's token check (`services.auth.authenticate`); needed with a server. */
  authenticate?: (token: string) => Promise<Principal>;
  /** Pool of the shared database: enables the Postgres adapter between processes. */
  pool?: pg.Pool;
  log?: Logger;
}

export interface TaskHub {
  io: Server;
  /** Disconnects clients and leaves the adapter; does not close the HTTP server (the app does). */
  close(): Promise<void>;
}

/** The room of an event: Customer Production events only reach the group's members. */
export function roomOf(event: FleetEvent): string {
  if ('rollout' in event) return event.customerProduction ? ROOM_ROLLOUTS_CUSTOMER_PRODUCTION : ROOM_ROLLOUTS;
  return event.classIds.includes(CLASS_CUSTOMER_PRODUCTION) ? ROOM_CUSTOMER_PRODUCTION : ROOM_ALL;
}

export function createTaskHub({ server, events, authenticate, pool, log }: TaskHubOptions): TaskHub {
  const io = new Server({
    path: TASK_HUB_PATH,
    serveClient: false,
    ...(pool ? { adapter: createAdapter(pool, { errorHandler: (err) => log?.warn({ err: err.message }, 'push adapter error') }) } : {}),
  });
  if (server) io.attach(server);

  io.use((socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    if (!authenticate || typeof token !== 'string' || token.length === 0) return next(new Error('unauthorized'));
    authenticate(token).then(
      (principal) => {
        socket.data.principal = principal;
        next();
      },
      () => next(new Error('unauthorized')),
    );
  });

  io.on('connection', (socket) => {
    const principal = socket.data.principal as Principal;
    const group = hasCustomerProductionAccess(principal);
    const rooms = group ? [ROOM_ALL, ROOM_CUSTOMER_PRODUCTION] : [ROOM_ALL];
    if (canWrite(principal)) rooms.push(...(group ? [ROOM_ROLLOUTS, ROOM_ROLLOUTS_CUSTOMER_PRODUCTION] : [ROOM_ROLLOUTS]));
    void socket.join(rooms);
  });

  const unsubscribe = events.subscribe((event) => {
    io.to(roomOf(event)).emit(event.name, payloadOf(event));
  });

  return {
    io,
    async close() {
      unsubscribe();
      io.disconnectSockets(true);
      await Promise.allSettled([...io._nsps.values()].map((nsp) => nsp.adapter.close()));
      io.engine?.close();
    },
  };
}
