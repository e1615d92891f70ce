/**
 * SQL of the machine calls (spec 2 §7 Machines) but the lists: the visibility
 * condition; a visible machine by id; field updates; the account facts that
 * decide which machines it may still create; credentials; the machine lookup
 * and notification targets. Pages of machines are in
 * `machines-page.repository.ts`.
 *
 * Visibility (DESIGN §5) is part of every query: live machines of live accounts,
 * neither of a hidden class.
 */
import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { className, type TMachineLookup } from '@fleet/contracts';
import { readAll, type DbOrTx } from '../../db/client.js';
import { likePattern } from '../../db/like-pattern.js';
import { compileStatement, queryCompiled, tableRowMapper, type CompiledStatement } from '../../db/prepared.js';
import { accounts, accountSettings, instanceTypes, machineCredentials, machines, sites } from '../../db/schema.js';

export type MachineRow = typeof machines.$inferSelect;

/**
 * Live machines of live accounts (`machines` joined with `accounts`), and with
 * `hidden` (an int[] parameter or placeholder: the hidden class ids) neither of
 * a hidden class.
 */
export function visibleWhere(hidden: SQL | undefined): SQL {
  return and(
    isNull(machines.deletedAt),
    isNull(accounts.deletedAt),
    hidden ? sql`${machines.classId} <> all(${hidden}::int[])` : undefined,
    hidden ? sql`${accounts.classId} <> all(${hidden}::int[])` : undefined,
  )!;
}

/** Live machines of live accounts, none of a hidden class. */
export function visible(hiddenClassIds: number[]): SQL {
  // One array parameter, not one per class: the statement's text (and so its
  // prepared statement, db/prepared.ts) does not change with the list.
  return visibleWhere(hiddenClassIds.length > 0 ? sql`${sql.param(hiddenClassIds)}` : undefined);
}

export interface VisibleMachine {
  machine: MachineRow;
  account: { id: number; name: string; classId: number };
}

/** Raw rows of the find: the machine's columns, and its account's as `account_name_` and `account_class_id_`. */
type FoundRow = Record<string, unknown> & { account_id: number; account_name_: string; account_class_id_: number };
const machineRowOf = tableRowMapper(machines);
/** The find's statement of each shape (hidden classes, one account, locked), written out once. */
const findStatements = new Map<string, CompiledStatement>();

function findStatement(shape: { hidden: boolean; ofAccount: boolean; lock: boolean }): CompiledStatement {
  const key = JSON.stringify(shape);
  let statement = findStatements.get(key);
  if (!statement) {
    const where = and(
      eq(machines.id, sql.placeholder('id')),
      visibleWhere(shape.hidden ? sql`${sql.placeholder('hidden')}` : undefined),
      shape.ofAccount ? eq(machines.accountId, sql.placeholder('accountId')) : undefined,
    );
    statement = compileStatement(sql`
      select ${machines}.*, ${accounts.name} as account_name_, ${accounts.classId} as account_class_id_
      from ${machines} inner join ${accounts} on ${accounts.id} = ${machines.accountId}
      where ${where} ${shape.lock ? sql`for no key update of ${machines}` : sql``}`);
    findStatements.set(key, statement);
  }
  return statement;
}

/**
 * A visible machine with its account, optionally of one account; with
 * `forUpdate` the machine row is locked until the transaction ends, so two
 * mutations of one machine run one after the other. Every machine mutation
 * starts here: a named statement, written out once per shape (issue 23, tasks
 * per second).
 */
export async function findVisibleMachine(
  db: DbOrTx,
  q: { id: number; hiddenClassIds: number[]; accountId?: number; forUpdate?: boolean },
): Promise<VisibleMachine | undefined> {
  const hidden = q.hiddenClassIds.length > 0;
  const statement = findStatement({ hidden, ofAccount: q.accountId !== undefined, lock: q.forUpdate === true });
  const [row] = await queryCompiled<FoundRow>(db, statement, { id: q.id, hidden: q.hiddenClassIds, accountId: q.accountId });
  return row && { machine: machineRowOf(row), account: { id: row.account_id, name: row.account_name_, classId: row.account_class_id_ } };
}

/** Sets machine fields. */
export async function updateMachineFields(db: DbOrTx, id: number, values: Partial<typeof machines.$inferInsert>): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(machines).set(values).where(eq(machines.id, id));
}

/** A machine (not cache) instance type by id. */
export async function findMachineInstanceType(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: instanceTypes.id, name: instanceTypes.name, storageSize: instanceTypes.storageSize })
    .from(instanceTypes)
    .where(and(eq(instanceTypes.id, id), eq(instanceTypes.isRedis, false)));
  return row;
}

/** What deciding and creating an account's machines needs: the account, its settings, sites and live machines. */
export async function selectMachinePlanFacts(db: DbOrTx, accountId: number) {
  const [account] = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      urlFriendlyName: accounts.urlFriendlyName,
      classId: accounts.classId,
      instancePolicy: accounts.instancePolicy,
      bundleVersion: accounts.bundleVersion,
      licenseConfig: accountSettings.licenseConfig,
      machineConfig: accountSettings.machineConfig,
    })
    .from(accounts)
    .leftJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .where(eq(accounts.id, accountId));
  const [accountSites, live] = await readAll(db, [
    () => db.select().from(sites).where(eq(sites.accountId, accountId)).orderBy(asc(sites.id)),
    () =>
      db
        .select({ id: machines.id, isLauncher: machines.isLauncher, siteId: machines.siteId })
        .from(machines)
        .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt))),
  ]);
  return { account, sites: accountSites, machines: live };
}

export type MachinePlanFacts = Awaited<ReturnType<typeof selectMachinePlanFacts>>;

export async function insertMachineRow(db: DbOrTx, values: typeof machines.$inferInsert): Promise<MachineRow> {
  const [row] = await db.insert(machines).values(values).returning();
  return row!;
}

/** The machine's sealed credential, if it has one. */
export async function selectCredential(db: DbOrTx, machineId: number) {
  const [row] = await db.select().from(machineCredentials).where(eq(machineCredentials.machineId, machineId));
  return row;
}

/**
 * Id, name and class name of at most `limit` visible machines, by name then id
 * (spec 2 §7): whose name contains `search` (case-insensitive, taken literally)
 * and, with `ids`, among those ids. An empty `ids` list matches nothing.
 */
export async function selectMachineLookup(
  db: DbOrTx,
  q: { hiddenClassIds: number[]; search?: string; ids?: number[]; limit: number },
): Promise<TMachineLookup[]> {
  // LIKE's wildcards escaped: the text typed is matched literally.
  const pattern = q.search ? likePattern(q.search) : undefined;
  const rows = await db
    .select({ id: machines.id, name: machines.name, classId: machines.classId })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(
      and(
        visible(q.hiddenClassIds),
        pattern === undefined ? undefined : ilike(machines.name, pattern),
        q.ids === undefined ? undefined : inArray(machines.id, q.ids),
      ),
    )
    // machines_live_name_idx walks (name, id) in order: the first page reads `limit` entries, not every machine.
    .orderBy(asc(machines.name), asc(machines.id))
    .limit(q.limit);
  return rows.map((r) => ({ id: r.id, name: r.name, className: className(r.classId) }));
}

/** Visible live machines among `ids` and of the accounts `accountIds` (notification targets). */
export async function selectVisibleTargets(db: DbOrTx, q: { machineIds: number[]; accountIds: number[]; hiddenClassIds: number[] }) {
  if (q.machineIds.length === 0 && q.accountIds.length === 0) return [];
  const which: SQL[] = [];
  if (q.machineIds.length > 0) which.push(inArray(machines.id, q.machineIds));
  if (q.accountIds.length > 0) which.push(inArray(machines.accountId, q.accountIds));
  return db
    .select({ id: machines.id, accountId: accounts.id, accountName: accounts.name, accountClassId: accounts.classId })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(visible(q.hiddenClassIds), sql`(${sql.join(which, sql` or `)})`));
}

/**
 * What a machine's Grafana link is made of (spec 2 §3 grafanaUrl): its name,
 * its account's URL name and whether the account's machineConfig.showInGrafana
 * is true (false when unset or not a boolean). Undefined for an unknown machine; the caller has checked that
 * the user may see it.
 */
export async function selectGrafanaFacts(db: DbOrTx, machineId: number) {
  const [row] = await db
    .select({
      machineName: machines.name,
      accountUrlName: accounts.urlFriendlyName,
      showInGrafana: sql<boolean>`coalesce(${accountSettings.machineConfig} -> 'showInGrafana' = 'true'::jsonb, false)`,
    })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .leftJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .where(eq(machines.id, machineId));
  return row;
}
