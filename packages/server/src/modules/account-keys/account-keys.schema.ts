/**
 * The table of the account keys module (spec 1 §2 Instance Settings card, §7;
 * DESIGN §5 secrets): `account_keys`. Written by `account-keys.repository.ts`.
 *
 * Invariants: one key pair per (account, kind); the private key is sealed under
 * DATA_KEY.
 */
import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { accounts } from '../accounts/accounts.schema.js';

/**
 * Key pairs of an account (spec 1 §2 Instance Settings card: Download Keys,
 * Download CAA Key; §7 `POST /accounts/{id}/generate-keys`, `/files/keys`,
 * `/files/caa-key`, `/files/license-keys`; DESIGN §5 secrets). One row per
 * account and kind (`encryption`, `caa`, `license`, see
 * `modules/account-keys`); the private key is PEM sealed with AES-256-GCM under
 * DATA_KEY, the public key PEM (SPKI) in clear. `fingerprint` is the SHA-256 hex
 * of the public key's SPKI DER. Made on first download, replaced by generate-keys.
 */
export const accountKeys = pgTable(
  'account_keys',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    kind: text('kind').notNull(),
    algorithm: text('algorithm').notNull(),
    publicKeyPem: text('public_key_pem').notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_keys_account_kind_idx').on(t.accountId, t.kind)],
);
