/**
 * SQL of machine configurations (spec 2 §5, §7): the config definitions of the
 * catalogues with their version names, what substituting a machine's default
 * values needs, reading the current configurations of several machines, and
 * writing a machine's component or deployer configuration.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { visible } from '../machines/machines.repository.js';
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

/**
 * The current component (`kind` 'component') or deployer configuration of each
 * machine of `machineIds` the user may see (live, its account live, neither of a
 * hidden class: the rule of the single machine's read), in one statement
 * (`id = any($ids)`); machines not answered are unknown or hidden.
 */
export async function selectMachineConfigs(
  db: DbOrTx,
  q: { machineIds: number[]; hiddenClassIds: number[]; kind: 'component' | 'deployer' },
): Promise<{ machineId: number; config: Record<string, unknown> }[]> {
  if (q.machineIds.length === 0) return [];
  return db
    .select({ machineId: machines.id, config: q.kind === 'component' ? machines.componentConfig : machines.deployerConfig })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(sql`${machines.id} = any(${sql.param(q.machineIds)}::int[])`, visible(q.hiddenClassIds)));
}

export async function updateMachineConfig(
  db: DbOrTx,
  machineId: number,
  values: { componentConfig: Record<string, unknown> } | { deployerConfig: Record<string, unknown> },
): Promise<void> {
  await db.update(machines).set(values).where(eq(machines.id, machineId));
}
