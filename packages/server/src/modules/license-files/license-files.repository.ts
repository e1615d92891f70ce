/** SQL of license files: an account's live add-on accounts with their license sections. */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { CLASS_ADD_ON } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accounts, accountSettings } from '../../db/schema.js';

export const selectAddOnLicenses = (db: DbOrTx, parentId: number) =>
  db
    .select({ id: accounts.id, name: accounts.name, instancePolicy: accounts.instancePolicy, expirationTime: accounts.expirationTime, licenseConfig: accountSettings.licenseConfig })
    .from(accounts)
    .leftJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .where(and(eq(accounts.parentId, parentId), eq(accounts.classId, CLASS_ADD_ON), isNull(accounts.deletedAt)))
    .orderBy(asc(accounts.id));
