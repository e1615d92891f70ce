/**
 * Tables of the remote MMAs (issue 27 point 1; DESIGN §17;
 * `@fleet/contracts` mma-agents): `mma_registration_tokens` and `mma_agents`.
 * Written by `mma-agents.repository.ts`.
 *
 * Invariants:
 * - No token is stored: each row keeps the SHA-256 of its token (hex), unique.
 *   Tokens are 32 random bytes, so a hash is all a lookup needs (no salt, no
 *   slow hash: nothing to guess).
 * - A registration token is exchanged at most once (`used_at` is set by the
 *   conditional update that exchanges it, in the transaction that inserts the
 *   agent it made: `agent_id`) and never after `expires_at`.
 * - An agent whose `revoked_at` is set authenticates no more; revocation is
 *   never undone (register again for a new credential).
 */
import { sql } from 'drizzle-orm';
import { MMA_AGENT_CONNECTED_S } from '@fleet/contracts';
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { mmaClasses } from '../mma/mma.schema.js';

export const mmaRegistrationTokens = pgTable('mma_registration_tokens', {
  id: serial('id').primaryKey(),
  classId: integer('class_id').notNull().references(() => mmaClasses.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  /** The agent this token registered (set with `used_at`). */
  agentId: integer('agent_id'),
});

export const mmaAgents = pgTable(
  'mma_agents',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id').notNull().references(() => mmaClasses.id),
    tokenHash: text('token_hash').notNull().unique(),
    /** The first 8 characters of the token after its prefix, shown to tell credentials apart. */
    tokenHint: text('token_hint').notNull(),
    host: text('host').notNull(),
    version: text('version').notNull(),
    /** Who created the registration token this agent used. */
    registeredBy: text('registered_by').notNull(),
    registeredAt: ts('registered_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at'),
    lastAddress: text('last_address'),
    revokedAt: ts('revoked_at'),
    revokedBy: text('revoked_by'),
  },
  (t) => [index('mma_agents_live_class_idx').on(t.classId, t.lastSeenAt).where(sql`revoked_at is null`)],
);

/**
 * A row of `mma_agents` (named by its table, not an alias) is a connected MMA:
 * not revoked, seen within {@link MMA_AGENT_CONNECTED_S} seconds. The one
 * definition the MMA screen's list and the start rule `mmaDisconnected` read.
 */
export const AGENT_CONNECTED = sql`(mma_agents.revoked_at is null and mma_agents.last_seen_at > now() - ${MMA_AGENT_CONNECTED_S} * interval '1 second')`;
