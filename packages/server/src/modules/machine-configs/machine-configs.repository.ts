/**
 * SQL of machine configurations (spec 2 §5, §7): the config definitions of the
 * catalogues with their version names, what substituting a machine's default
 * values needs, writing a machine's component or deployer configuration, and
 * the catalogues of definitions: a filtered page of each, and creating one.
 */
import { and, asc, count, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { accounts, accountSettings, componentConfigs, deployerConfigs, irmnVersions, machines, saasImages, sites } from '../../db/schema.js';

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

export async function selectComponentDefinitions(db: DbOrTx): Promise<ConfigDefinition[]> {
  return db
    .select({
      rootKey: componentConfigs.rootKey,
      subKey: componentConfigs.subKey,
      dataType: componentConfigs.dataType,
      protected: componentConfigs.protected,
      siteSpecific: componentConfigs.siteSpecific,
      sinceVersion: since.name,
      deprecatedAtVersion: until.name,
      saas: componentConfigs.saasDefaultValue,
      onPrem: componentConfigs.onPremDefaultValue,
      linux: componentConfigs.linuxSpecificValue,
    })
    .from(componentConfigs)
    .leftJoin(since, eq(since.id, componentConfigs.versionId))
    .leftJoin(until, eq(until.id, componentConfigs.deprecatedAtVersionId))
    .orderBy(asc(componentConfigs.rootKey), asc(componentConfigs.subKey));
}

export async function selectDeployerDefinitions(db: DbOrTx): Promise<ConfigDefinition[]> {
  const rows = await db
    .select({
      rootKey: deployerConfigs.rootKey,
      subKey: deployerConfigs.subKey,
      dataType: deployerConfigs.dataType,
      protected: deployerConfigs.protected,
      sinceVersion: since.name,
      deprecatedAtVersion: until.name,
      value: deployerConfigs.defaultValue,
    })
    .from(deployerConfigs)
    .leftJoin(since, eq(since.id, deployerConfigs.versionId))
    .leftJoin(until, eq(until.id, deployerConfigs.deprecatedAtVersionId))
    .orderBy(asc(deployerConfigs.rootKey), asc(deployerConfigs.subKey));
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
export type SubstitutionFacts = Awaited<ReturnType<typeof selectSubstitutionFacts>>[number];

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

/** A page of definitions sorted by `rootKey.subKey`, with `search` a substring of that key (any case) and `rootKey` exact. */
export interface DefinitionFilter {
  search?: string;
  rootKey?: string;
  startIndex: number;
  limit: number;
}

function definitionWhere(table: typeof componentConfigs | typeof deployerConfigs, { search, rootKey }: DefinitionFilter): SQL | undefined {
  const where: SQL[] = [];
  if (search) {
    const escaped = search.replace(/[\\%_]/g, (c) => `\\${c}`);
    where.push(ilike(sql`${table.rootKey} || '.' || ${table.subKey}`, `%${escaped}%`));
  }
  if (rootKey) where.push(eq(table.rootKey, rootKey));
  return where.length > 0 ? and(...where) : undefined;
}

export async function selectComponentDefinitionPage(db: DbOrTx, filter: DefinitionFilter) {
  const where = definitionWhere(componentConfigs, filter);
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: componentConfigs.id,
        rootKey: componentConfigs.rootKey,
        subKey: componentConfigs.subKey,
        dataType: componentConfigs.dataType,
        protected: componentConfigs.protected,
        siteSpecific: componentConfigs.siteSpecific,
        version: versionRef(since),
        deprecatedAtVersion: versionRef(until),
        saasDefaultValue: componentConfigs.saasDefaultValue,
        onPremDefaultValue: componentConfigs.onPremDefaultValue,
        linuxSpecificValue: componentConfigs.linuxSpecificValue,
      })
      .from(componentConfigs)
      .leftJoin(since, eq(since.id, componentConfigs.versionId))
      .leftJoin(until, eq(until.id, componentConfigs.deprecatedAtVersionId))
      .where(where)
      .orderBy(asc(componentConfigs.rootKey), asc(componentConfigs.subKey), asc(componentConfigs.id))
      .offset(filter.startIndex)
      .limit(filter.limit),
    db.select({ count: count() }).from(componentConfigs).where(where),
  ]);
  return { items, totalItems: total?.count ?? 0 };
}

export async function selectDeployerDefinitionPage(db: DbOrTx, filter: DefinitionFilter) {
  const where = definitionWhere(deployerConfigs, filter);
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: deployerConfigs.id,
        rootKey: deployerConfigs.rootKey,
        subKey: deployerConfigs.subKey,
        dataType: deployerConfigs.dataType,
        protected: deployerConfigs.protected,
        version: versionRef(since),
        deprecatedAtVersion: versionRef(until),
        defaultValue: deployerConfigs.defaultValue,
      })
      .from(deployerConfigs)
      .leftJoin(since, eq(since.id, deployerConfigs.versionId))
      .leftJoin(until, eq(until.id, deployerConfigs.deprecatedAtVersionId))
      .where(where)
      .orderBy(asc(deployerConfigs.rootKey), asc(deployerConfigs.subKey), asc(deployerConfigs.id))
      .offset(filter.startIndex)
      .limit(filter.limit),
    db.select({ count: count() }).from(deployerConfigs).where(where),
  ]);
  return { items, totalItems: total?.count ?? 0 };
}

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
