/**
 * Tables of single sign-on (issue 28 point 2; `modules/sso/README.md`):
 *
 * - `user_identities`: which console user a provider's subject is, by (issuer,
 *   subject). A user made by a sign-in has exactly one; a local user has none,
 *   so a provider account can never take over a local (break-glass) user of the
 *   same name.
 * - `sso_states`: a started sign-in (state, nonce, PKCE verifier, the browser it
 *   was started in, as a hash of the browser's cookie), deleted when the
 *   callback reads it: a state is used once, and is refused after `expiresAt`.
 * - `sso_handoffs`: the one-time code the callback hands the console (its
 *   SHA-256), deleted when exchanged for an access token; refused after `expiresAt`.
 */
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { users } from '../auth/auth.schema.js';

export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSignInAt: ts('last_sign_in_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

export const ssoStates = pgTable('sso_states', {
  state: text('state').primaryKey(),
  /** SHA-256 (hex) of the browser binding cookie the sign-in was started with. */
  browserHash: text('browser_hash').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  /** The console path to open after the sign-in, or null. */
  redirect: text('redirect'),
  expiresAt: ts('expires_at').notNull(),
});

export const ssoHandoffs = pgTable('sso_handoffs', {
  /** SHA-256 (hex) of the one-time code. */
  codeHash: text('code_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** SHA-256 (hex) of the browser's `fleet_sso` cookie that made the sign-in: only that browser may exchange the code. */
  browserHash: text('browser_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
