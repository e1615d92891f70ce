/**
 * SQL of the config catalogues (spec 3 §2.5, §3, §7 Component configs and
 * Deployer configs): a filtered page of each catalogue, one definition, creating,
 * updating and deleting one, and the machines whose configuration holds a key.
 */
import { and, asc, count, eq, ilike, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { DbOrTx } from '../../db/client.js';
import { componentConfigs, deployerConfigs, irmnVersions, machines } from '../../db/schema.js';
import { likePattern } from '../../db/like-pattern.js';

/** Which catalogue: component configs or deployer configs. */
export type ConfigKind = 'component' | 'deployer';

const since = alias(irmnVersions, 'since_version');
const until = alias(irmnVersions, 'deprecated_version');

const tableOf = (kind: ConfigKind) => (kind === 'component' ? componentConfigs : deployerConfigs);
type DefinitionTable = typeof componentConfigs | typeof deployerConfigs;

const versionRef = (v: typeof since | typeof until) =>
  sql<{ id: number; name: string; status: string } | null>`case when ${v.id} is null then null else json_build_object('id', ${v.id}, 'name', ${v.name}, 'status', ${v.status}) end`;

/**
 * A page of definitions sorted by `rootKey.subKey`, with `search` a substring of
 * that key (any case), `rootKey` exact and `id` or `key` (`rootKey.subKey`) that
 * definition only.
 */
export interface DefinitionFilter {
  id?: number;
  key?: string;
  search?: string;
  rootKey?: string;
  startIndex: number;
  limit: number;
}

const fullKey = (table: DefinitionTable) => sql`${table.rootKey} || '.' || ${table.subKey}`;

function definitionWhere(table: DefinitionTable, { id, key, search, rootKey }: DefinitionFilter): SQL | undefined {
  const where: SQL[] = [];
  if (id !== undefined) where.push(eq(table.id, id));
  if (key !== undefined) where.push(sql`${fullKey(table)} = ${key}`);
  if (search) where.push(ilike(fullKey(table), likePattern(search)));
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

/** The stored columns of a definition that an edit may change, besides its key and type (deployer rows: siteSpecific false, one value). */
export interface DefinitionRow {
  id: number;
  rootKey: string;
  subKey: string;
  dataType: string | null;
  protected: boolean;
  siteSpecific: boolean;
  versionId: number | null;
  deprecatedAtVersionId: number | null;
  saasDefaultValue: string | null;
  onPremDefaultValue: string | null;
  linuxSpecificValue: string | null;
  defaultValue: string | null;
}

/** One definition's stored row, locked for update when `forUpdate` (`db` must then be a transaction); null when unknown. */
export async function selectDefinitionRow(db: DbOrTx, kind: ConfigKind, id: number, forUpdate = false): Promise<DefinitionRow | null> {
  if (kind === 'component') {
    const q = db.select().from(componentConfigs).where(eq(componentConfigs.id, id));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row ? { ...row, defaultValue: null } : null;
  }
  const q = db.select().from(deployerConfigs).where(eq(deployerConfigs.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ? { ...row, siteSpecific: false, saasDefaultValue: null, onPremDefaultValue: null, linuxSpecificValue: null } : null;
}

/** The editable columns of a definition (those of its catalogue). */
export type DefinitionValues = Partial<Omit<DefinitionRow, 'id' | 'rootKey' | 'subKey' | 'dataType'>>;

/** Keeps the columns of the kind's table only. */
function columnsOf(kind: ConfigKind, values: DefinitionValues): DefinitionValues {
  const { siteSpecific, saasDefaultValue, onPremDefaultValue, linuxSpecificValue, defaultValue, ...shared } = values;
  return kind === 'component' ? { ...shared, siteSpecific, saasDefaultValue, onPremDefaultValue, linuxSpecificValue } : { ...shared, defaultValue };
}

/**
 * Inserts a definition unless its key exists; answers its id, or null for a
 * duplicate. The catalogue has no unique index on the key, so creations of one
 * catalogue are serialised by a transaction-scoped advisory lock (`tx` must be a transaction).
 */
export async function insertDefinition(
  tx: DbOrTx,
  kind: ConfigKind,
  values: { rootKey: string; subKey: string; dataType: string | null } & DefinitionValues,
): Promise<number | null> {
  const table = tableOf(kind);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`config-definitions:${kind}`}))`);
  const [existing] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.rootKey, values.rootKey), eq(table.subKey, values.subKey)))
    .limit(1);
  if (existing) return null;
  const { rootKey, subKey, dataType, ...rest } = values;
  const row = { rootKey, subKey, dataType, ...columnsOf(kind, rest) };
  const [inserted] = await tx.insert(table).values(row).returning({ id: table.id });
  return inserted!.id;
}

/** Writes the editable columns of the kind's definition `id`. */
export async function updateDefinition(db: DbOrTx, kind: ConfigKind, id: number, values: DefinitionValues): Promise<void> {
  const table = tableOf(kind);
  await db.update(table).set(columnsOf(kind, values)).where(eq(table.id, id));
}

export async function deleteDefinition(db: DbOrTx, kind: ConfigKind, id: number): Promise<void> {
  const table = tableOf(kind);
  await db.delete(table).where(eq(table.id, id));
}

/** The names of the IRMN versions among `ids`, by id (unknown ids absent). */
export async function selectVersionNames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: irmnVersions.id, name: irmnVersions.name }).from(irmnVersions).where(inArray(irmnVersions.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Live machines (not deleted) whose configuration of the kind holds `key`:
 * their number (all of them) and the names of the first `sample` by name,
 * among those not of `hiddenClassIds` (never name a machine the user may not see).
 */
export async function selectMachinesUsingKey(
  db: DbOrTx,
  { kind, key, hiddenClassIds, sample = 5 }: { kind: ConfigKind; key: string; hiddenClassIds: number[]; sample?: number },
): Promise<{ total: number; names: string[] }> {
  const column = kind === 'component' ? machines.componentConfig : machines.deployerConfig;
  const where = and(isNull(machines.deletedAt), sql`${column} ? ${key}`);
  const visible = hiddenClassIds.length > 0 ? and(where, notInArray(machines.classId, hiddenClassIds)) : where;
  const [names, [total]] = await Promise.all([
    db.select({ name: machines.name }).from(machines).where(visible).orderBy(asc(machines.name)).limit(sample),
    db.select({ count: count() }).from(machines).where(where),
  ]);
  return { total: total?.count ?? 0, names: names.map((n) => n.name) };
}
