/**
 * The table of the drafts module (spec 1 §2 Create account, §4 draft, preview,
 * created; DESIGN §6 planned machines): `draft_accounts`. Written by
 * `drafts.repository.ts`.
 *
 * Invariants: `accountId` is null until create-from-draft makes the account.
 */
import { integer, jsonb, pgTable, serial } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { accounts } from '../accounts/accounts.schema.js';
import { users } from '../auth/auth.schema.js';

/**
 * A draft account (spec 1 §2 Create account, §4): the flattened creation payload
 * and the planned sites and machines shown by the preview, until
 * create-from-draft turns it into an account.
 */
export const draftAccounts = pgTable('draft_accounts', {
  id: serial('id').primaryKey(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  planned: jsonb('planned').$type<Record<string, unknown>>().notNull().default({}),
  createdBy: integer('created_by').notNull().references(() => users.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  accountId: integer('account_id').references(() => accounts.id),
});
