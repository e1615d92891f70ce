/**
 * Tables of the auth module (DESIGN §5 API conventions: login, bearer tokens,
 * logout; spec 1 §3 Session state): `users`, `access_tokens`, `login_attempts`.
 * Written by `auth.repository.ts` (and `cli/users.ts`, the seed); `users` is the
 * core table many modules reference (owners, creators).
 *
 * Invariants: a username is unique; a token is valid while its `access_tokens`
 * row exists with `revokedAt` null and `expiresAt` ahead (logout sets
 * `revokedAt`); `login_attempts` holds every login try, read by (username,
 * address, time) to refuse a pair's logins after repeated failures.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  permissions: text('permissions').array().notNull().default(sql`'{}'`),
  groups: text('groups').array().notNull().default(sql`'{}'`),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Issued access tokens by jti; logout sets `revokedAt`. */
export const accessTokens = pgTable('access_tokens', {
  jti: text('jti').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
});

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    address: text('address').notNull(),
    success: boolean('success').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('login_attempts_pair_idx').on(t.username, t.address, t.at)],
);
