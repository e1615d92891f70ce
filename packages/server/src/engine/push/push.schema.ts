/**
 * The table of the push channel (DESIGN §7, §9): `socket_io_attachments`, as the
 * Socket.IO Postgres adapter (`@socket.io/postgres-adapter`) expects it; written
 * by the adapter only.
 */
import { bigserial, pgTable } from 'drizzle-orm/pg-core';
import { bytea, ts } from '../../db/schema-types.js';

/**
 * Push events too large for a NOTIFY payload, as the Socket.IO Postgres adapter
 * stores them when several processes share the push channel (DESIGN §7, §9).
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).unique(),
  createdAt: ts('created_at').defaultNow(),
  payload: bytea('payload'),
});
