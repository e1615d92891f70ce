/**
 * SQL of an account's sites and of the machine facts behind its services
 * (spec 1 §2 Sites and Services tabs, §3 Site, Service).
 */
import { and, asc, desc, eq, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, cloudInstances, machines, sites } from '../../db/schema.js';
import { visibleAccount } from '../accounts/accounts.repository.js';

/** A live account the user may see (locked with `forUpdate`), or undefined. */
export async function selectVisibleAccount(db: DbOrTx, id: number, hiddenClassIds: number[], forUpdate = false) {
  const query = db
    .select({ id: accounts.id, name: accounts.name, classId: accounts.classId, urlFriendlyName: accounts.urlFriendlyName })
    .from(accounts)
    .where(visibleAccount(id, hiddenClassIds));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

const siteColumns = { id: sites.id, name: sites.name, urlFriendlyName: sites.urlFriendlyName, domainName: sites.domainName, port: sites.port };

export const selectSites = (db: DbOrTx, accountId: number) =>
  db.select(siteColumns).from(sites).where(eq(sites.accountId, accountId)).orderBy(asc(sites.id));

export async function selectSiteForUpdate(db: DbOrTx, accountId: number, siteId: number) {
  const [row] = await db.select(siteColumns).from(sites).where(and(eq(sites.id, siteId), eq(sites.accountId, accountId))).for('update');
  return row;
}

/** Another site of the account with this URL name. */
export async function selectSiteByUrlName(db: DbOrTx, accountId: number, urlFriendlyName: string, exceptSiteId: number) {
  const [row] = await db
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(and(eq(sites.accountId, accountId), eq(sites.urlFriendlyName, urlFriendlyName), ne(sites.id, exceptSiteId)))
    .limit(1);
  return row;
}

/** Another site of a live account with this domain name. */
export async function selectSiteByDomain(db: DbOrTx, domainName: string, exceptSiteId?: number) {
  const [row] = await db
    .select({ id: sites.id })
    .from(sites)
    .innerJoin(accounts, eq(accounts.id, sites.accountId))
    .where(and(eq(sites.domainName, domainName), isNull(accounts.deletedAt), exceptSiteId ? ne(sites.id, exceptSiteId) : undefined))
    .limit(1);
  return row;
}

export async function updateSite(db: DbOrTx, siteId: number, values: { name: string; urlFriendlyName: string; domainName: string; port: number }) {
  await db.update(sites).set(values).where(eq(sites.id, siteId));
}

/**
 * Live machines of the account that are not being terminated, with their version
 * maps and the status of their active cloud instance (null when none yet).
 */
export async function selectMachineVersions(db: DbOrTx, accountId: number) {
  const rows = await db
    .select({
      id: machines.id,
      currentVersions: machines.currentVersions,
      desiredVersions: machines.desiredVersions,
      instanceStatus: cloudInstances.status,
      instanceId: cloudInstances.id,
    })
    .from(machines)
    .leftJoin(cloudInstances, and(eq(cloudInstances.machineId, machines.id), eq(cloudInstances.active, true)))
    .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt), eq(machines.terminate, false)))
    .orderBy(asc(machines.id), desc(cloudInstances.id));
  // One row per machine: its newest active instance.
  const seen = new Set<number>();
  return rows.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}
