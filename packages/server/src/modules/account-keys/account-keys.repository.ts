/**
 * SQL of account key pairs (`account_keys`, one row per account and kind): the
 * visible account with its machineConfig.keyType, reading, inserting and
 * replacing pairs. Private keys arrive here sealed; this file never sees a PEM.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TAccountKeyKind } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accountKeys, accounts, accountSettings } from '../../db/schema.js';
import { visibleAccount } from '../accounts/accounts.repository.js';

export type AccountKeyRow = typeof accountKeys.$inferSelect;
export type NewAccountKey = Omit<typeof accountKeys.$inferInsert, 'id' | 'createdAt'>;

/**
 * The live account `id` unless its class is hidden: id, name, class, URL name
 * and machineConfig.keyType (null when unset). `forUpdate` locks the account row
 * so that two generate-keys calls on one account run one after the other.
 */
export async function selectKeyAccount(db: DbOrTx, id: number, opts: { hiddenClassIds: number[]; forUpdate?: boolean }) {
  const query = db
    .select({
      id: accounts.id,
      name: accounts.name,
      classId: accounts.classId,
      urlFriendlyName: accounts.urlFriendlyName,
      keyType: sql<string | null>`${accountSettings.machineConfig}->>'keyType'`,
    })
    .from(accounts)
    .leftJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .where(visibleAccount(id, opts.hiddenClassIds));
  const [row] = opts.forUpdate ? await query.for('update', { of: accounts }) : await query;
  return row;
}

export type KeyAccount = NonNullable<Awaited<ReturnType<typeof selectKeyAccount>>>;

/** The account's pairs of the given kinds, ordered by kind. */
export const selectKeys = (db: DbOrTx, accountId: number, kinds: readonly TAccountKeyKind[]) =>
  db
    .select()
    .from(accountKeys)
    .where(and(eq(accountKeys.accountId, accountId), inArray(accountKeys.kind, [...kinds])))
    .orderBy(asc(accountKeys.kind));

/** Inserts a pair unless the account already has one of that kind; the inserted row or undefined. */
export async function insertKeyIfMissing(db: DbOrTx, key: NewAccountKey): Promise<AccountKeyRow | undefined> {
  const [row] = await db.insert(accountKeys).values(key).onConflictDoNothing({ target: [accountKeys.accountId, accountKeys.kind] }).returning();
  return row;
}

/** Inserts or replaces the account's pair of `key.kind`; the stored row. */
export async function upsertKey(db: DbOrTx, key: NewAccountKey): Promise<AccountKeyRow> {
  const [row] = await db
    .insert(accountKeys)
    .values(key)
    .onConflictDoUpdate({
      target: [accountKeys.accountId, accountKeys.kind],
      set: {
        algorithm: key.algorithm,
        publicKeyPem: key.publicKeyPem,
        privateKeyEnc: key.privateKeyEnc,
        fingerprint: key.fingerprint,
        createdBy: key.createdBy,
        createdAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}
