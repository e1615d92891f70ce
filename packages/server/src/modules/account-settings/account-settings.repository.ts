/**
 * SQL of one account and its sections (spec 1 §3, §7 Accounts): the account row,
 * its `account_settings` row (created with defaults when missing), sites, machine
 * counts, its draft, add-on parent candidates, URL name uniqueness, and the
 * latest audit activity of a push (who changed a section last).
 */
import { and, asc, desc, eq, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  accountMachineStatus as ams,
  accounts,
  accountSettings,
  auditActivities,
  auditActivityAccounts,
  draftAccounts,
  sites,
} from '../../db/schema.js';
import { MACHINE_STATS_COLUMNS, visibleAccount } from '../accounts/accounts.repository.js';

export type AccountRow = typeof accounts.$inferSelect;
export type SettingsRow = typeof accountSettings.$inferSelect;

/**
 * A live account the user may see with its settings row, or undefined. With
 * `forUpdate` both rows are locked for the rest of the transaction (the settings
 * row is created first when the account has none).
 */
export async function selectAccountWithSettings(
  db: DbOrTx,
  id: number,
  opts: { hiddenClassIds: number[]; forUpdate?: boolean },
): Promise<{ account: AccountRow; settings: SettingsRow } | undefined> {
  const query = db.select().from(accounts).where(visibleAccount(id, opts.hiddenClassIds));
  const [account] = opts.forUpdate ? await query.for('update') : await query;
  if (!account) return undefined;
  if (opts.forUpdate) await db.insert(accountSettings).values({ accountId: id }).onConflictDoNothing();
  const settingsQuery = db.select().from(accountSettings).where(eq(accountSettings.accountId, id));
  const [settings] = opts.forUpdate ? await settingsQuery.for('update') : await settingsQuery;
  return {
    account,
    settings: settings ?? {
      accountId: id,
      licenseConfig: {},
      machineConfig: {},
      backupConfig: {},
      idleSchedules: [],
      licenseVersion: 1,
      instanceVersion: 1,
      backupVersion: 1,
      idleVersion: 1,
    },
  };
}

export async function updateAccountRow(db: DbOrTx, id: number, values: Partial<typeof accounts.$inferInsert>): Promise<void> {
  await db.update(accounts).set(values).where(eq(accounts.id, id));
}

export async function updateSettingsRow(db: DbOrTx, accountId: number, values: Partial<typeof accountSettings.$inferInsert>): Promise<void> {
  await db.update(accountSettings).set(values).where(eq(accountSettings.accountId, accountId));
}

export const selectSitesOf = (db: DbOrTx, accountId: number) =>
  db
    .select({ id: sites.id, name: sites.name, urlFriendlyName: sites.urlFriendlyName, domainName: sites.domainName, port: sites.port })
    .from(sites)
    .where(eq(sites.accountId, accountId))
    .orderBy(asc(sites.id));

export async function selectMachineCounts(db: DbOrTx, accountId: number) {
  const [row] = await db
    .select(MACHINE_STATS_COLUMNS)
    .from(ams)
    .where(eq(ams.accountId, accountId));
  return row;
}

/** The draft the account was created from, if any. */
export async function selectDraftIdOf(db: DbOrTx, accountId: number): Promise<number | null> {
  const [row] = await db.select({ id: draftAccounts.id }).from(draftAccounts).where(eq(draftAccounts.accountId, accountId)).limit(1);
  return row?.id ?? null;
}

/** An account as an add-on parent candidate (visible to the user), or undefined. */
export async function selectParentCandidate(db: DbOrTx, id: number, hiddenClassIds: number[]) {
  const [row] = await db
    .select({ id: accounts.id, name: accounts.name, classId: accounts.classId, parentId: accounts.parentId, isTemplate: accounts.isTemplate })
    .from(accounts)
    .where(visibleAccount(id, hiddenClassIds));
  return row;
}

/** A live account other than `exceptId` that already uses the URL name. */
export async function selectAccountByUrlName(db: DbOrTx, urlFriendlyName: string, exceptId?: number) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.urlFriendlyName, urlFriendlyName), isNull(accounts.deletedAt), exceptId ? ne(accounts.id, exceptId) : undefined))
    .limit(1);
  return row;
}

/** The newest activity of `action` on the account: who pushed a section last, and when. */
export async function selectLatestActivity(db: DbOrTx, accountId: number, action: string) {
  const [row] = await db
    .select({ user: auditActivities.userName, time: auditActivities.time })
    .from(auditActivities)
    .innerJoin(auditActivityAccounts, eq(auditActivityAccounts.activityId, auditActivities.id))
    .where(and(eq(auditActivityAccounts.accountId, accountId), eq(auditActivities.action, action)))
    .orderBy(desc(auditActivities.time), desc(auditActivities.id))
    .limit(1);
  return row;
}

/** PostgreSQL's unique violation, as thrown by node-postgres (possibly wrapped by Drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
