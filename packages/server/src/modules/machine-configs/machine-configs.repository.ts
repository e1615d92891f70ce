/**
 * SQL of machine configurations (spec 2 §5, §7): the config definitions of the
 * catalogues with their version names, what substituting a machine's default
 * values needs, writing a machine's component or deployer configuration, and
 * the catalogues of definitions: a filtered page of each, and creating one.
 */
import { and, asc, count, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { DbOrTx } from '../../db/client.js';
import { accounts, accountSettings, componentConfigs, deployerConfigs, irmnVersions, machines, saasImages, sites } from '../../db/schema.js';
import { likePattern } from '../catalogues/catalogues.repository.js';

const since = alias(irmnVersions, 'since_version');
const until = alias(irmnVersions, 'deprecated_version');

/** A config definition, both catalogues alike: `defaults` holds SaaS, on-prem and Linux values (deployer: one default). */
export interface ConfigDefinition {
  rootKey: string;
  subKey: string;
  /** null: string. */
  dataType: string | null;
  protected: boolean;
  siteSpecific: boolean;
  sinceVersion: string | null;
  deprecatedAtVersion: string | null;
  saas: string | null;
  onPrem: string | null;
  linux: string | null;
}

type DefinitionTable = typeof componentConfigs | typeof deployerConfigs;

/** The columns of `table` both catalogues share plus `extra`, with version names, sorted by key. */
function definitionRows<E extends Record<string, AnyPgColumn>>(db: DbOrTx, table: DefinitionTable, extra: E) {
  return db
    .select({
      rootKey: table.rootKey,
      subKey: table.subKey,
      dataType: table.dataType,
      protected: table.protected,
      sinceVersion: since.name,
      deprecatedAtVersion: until.name,
      ...extra,
    })
    .from(table)
    .leftJoin(since, eq(since.id, table.versionId))
    .leftJoin(until, eq(until.id, table.deprecatedAtVersionId))
    .orderBy(asc(table.rootKey), asc(table.subKey));
}

export async function selectComponentDefinitions(db: DbOrTx): Promise<ConfigDefinition[]> {
  return definitionRows(db, componentConfigs, {
    siteSpecific: componentConfigs.siteSpecific,
    saas: componentConfigs.saasDefaultValue,
    onPrem: componentConfigs.onPremDefaultValue,
    linux: componentConfigs.linuxSpecificValue,
  });
}

export async function selectDeployerDefinitions(db: DbOrTx): Promise<ConfigDefinition[]> {
  const rows = await definitionRows(db, deployerConfigs, { value: deployerConfigs.defaultValue });
  return rows.map(({ value, ...r }) => ({ ...r, siteSpecific: false, saas: value, onPrem: value, linux: null }));
}

/** What the variables and the choice of default need, per machine. */
export async function selectSubstitutionFacts(db: DbOrTx, machineIds: number[]) {
  if (machineIds.length === 0) return [];
  const image = db
    .select({ name: saasImages.name, osType: saasImages.osType, irmnVersion: sql<string | null>`${irmnVersions.name}`.as('irmn_version') })
    .from(saasImages)
    .leftJoin(irmnVersions, eq(irmnVersions.id, saasImages.irmnVersionId))
    .as('image');
  const rows = await db
    .selectDistinctOn([machines.id], {
      machineId: machines.id,
      isLauncher: machines.isLauncher,
      isSiteMaster: machines.isSiteMaster,
      accountClassId: accounts.classId,
      accountName: accounts.name,
      accountUrlName: accounts.urlFriendlyName,
      machineConfig: accountSettings.machineConfig,
      siteName: sites.name,
      siteUrlName: sites.urlFriendlyName,
      sitePort: sites.port,
      osType: image.osType,
      irmnVersion: image.irmnVersion,
    })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .leftJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .leftJoin(sites, eq(sites.id, machines.siteId))
    .leftJoin(image, eq(image.name, accounts.vmImageName))
    .where(and(inArray(machines.id, machineIds), isNull(machines.deletedAt)))
    .orderBy(asc(machines.id));
  return rows;
}

export async function updateMachineConfig(
  db: DbOrTx,
  machineId: number,
  values: { componentConfig: Record<string, unknown> } | { deployerConfig: Record<string, unknown> },
): Promise<void> {
  await db.update(machines).set(values).where(eq(machines.id, machineId));
}

// ---------------------------------------------------------------- the catalogues of definitions

const versionRef = (v: typeof since | typeof until) =>
  sql<{ id: number; name: string; status: string } | null>`case when ${v.id} is null then null else json_build_object('id', ${v.id}, 'name', ${v.name}, 'status', ${v.status}) end`;

/**
 * A page of definitions sorted by `rootKey.subKey`, with `search` a substring of
 * that key (any case), `rootKey` exact and `id` that definition only.
 */
export interface DefinitionFilter {
  id?: number;
  search?: string;
  rootKey?: string;
  startIndex: number;
  limit: number;
}

function definitionWhere(table: DefinitionTable, { id, search, rootKey }: DefinitionFilter): SQL | undefined {
  const where: SQL[] = [];
  if (id !== undefined) where.push(eq(table.id, id));
  if (search) where.push(ilike(sql`${table.rootKey} || '.' || ${table.subKey}`, likePattern(search)));
  if (rootKey) where.push(eq(table.rootKey, rootKey));
  return where.length > 0 ? and(...where) : undefined;
}

/** The columns of a page item both catalogues share. */
const pageColumns = (table: DefinitionTable) => ({
  id: table.id,
  rootKey: table.rootKey,
  subKey: table.subKey,
  dataType: table.dataType,
  protected: table.protected,
  version: versionRef(since),
  deprecatedAtVersion: versionRef(until),
});

/**
 * A page of one catalogue: items of the shared columns plus `E`. Spelt out
 * because drizzle types a select from either table as a union of rows, each
 * with the other table's columns `never`; each such row is assignable to it.
 */
type DefinitionPageOf<E extends Record<string, AnyPgColumn>> = { items: SelectResultFields<ReturnType<typeof pageColumns> & E>[]; totalItems: number };

/** A page of `table`'s definitions: the columns both catalogues share plus `extra`. */
async function definitionPage<E extends Record<string, AnyPgColumn>>(db: DbOrTx, table: DefinitionTable, extra: E, filter: DefinitionFilter) {
  const where = definitionWhere(table, filter);
  const [items, [total]] = await Promise.all([
    db
      .select({ ...pageColumns(table), ...extra })
      .from(table)
      .leftJoin(since, eq(since.id, table.versionId))
      .leftJoin(until, eq(until.id, table.deprecatedAtVersionId))
      .where(where)
      .orderBy(asc(table.rootKey), asc(table.subKey), asc(table.id))
      .offset(filter.startIndex)
      .limit(filter.limit),
    db.select({ count: count() }).from(table).where(where),
  ]);
  return { items, totalItems: total?.count ?? 0 };
}

const componentPageColumns = {
  siteSpecific: componentConfigs.siteSpecific,
  saasDefaultValue: componentConfigs.saasDefaultValue,
  onPremDefaultValue: componentConfigs.onPremDefaultValue,
  linuxSpecificValue: componentConfigs.linuxSpecificValue,
};
const deployerPageColumns = { defaultValue: deployerConfigs.defaultValue };

export const selectComponentDefinitionPage = (db: DbOrTx, filter: DefinitionFilter): Promise<DefinitionPageOf<typeof componentPageColumns>> =>
  definitionPage(db, componentConfigs, componentPageColumns, filter);

export const selectDeployerDefinitionPage = (db: DbOrTx, filter: DefinitionFilter): Promise<DefinitionPageOf<typeof deployerPageColumns>> =>
  definitionPage(db, deployerConfigs, deployerPageColumns, filter);

/**
 * Inserts a definition unless its key exists; answers its id, or null for a
 * duplicate. The catalogue has no unique index on the key, so creations of one
 * catalogue are serialised by a transaction-scoped advisory lock (`tx` must be a transaction).
 */
export async function insertDefinition(
  tx: DbOrTx,
  kind: 'component' | 'deployer',
  values: { rootKey: string; subKey: string; dataType: string | null },
): Promise<number | null> {
  const table = kind === 'component' ? componentConfigs : deployerConfigs;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`config-definitions:${kind}`}))`);
  const [existing] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.rootKey, values.rootKey), eq(table.subKey, values.subKey)))
    .limit(1);
  if (existing) return null;
  const [row] = await tx.insert(table).values(values).returning({ id: table.id });
  return row!.id;
}
