/**
 * SQL of the updater's batches, target lists and saved selections (spec 3 §2.8,
 * §7 Updater and batch; DESIGN §15).
 *
 * Set-based: a batch reads its targets in one statement (`id = any($ids)`,
 * locked `for no key update` in id order when it writes) and writes each kind
 * of change in one statement, whatever the number of targets (at most
 * MAX_UPDATE_TARGETS). Visibility (DESIGN §5) is part of every query: live
 * machines of live accounts, neither of a hidden class; live accounts not of a
 * hidden class.
 */
import { and, asc, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import { className, MAX_UPDATE_TARGETS, type TSavedSelection, type TUpdaterAccount, type TUpdaterMachine } from '@fleet/contracts';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { likePattern } from '../../db/like-pattern.js';
import { accountMachineStatus as ams, accounts, machines, machineTasks, updaterSelections, users } from '../../db/schema.js';
import { visible as visibleMachine } from '../machines/machines.repository.js';
import { accountFilterCondition, countFilteredAccounts, type AccountFilter } from '../accounts/accounts-filter.repository.js';

/** `ids` as one array parameter (the statement's text does not change with their number). */
const anyOf = (column: SQL | typeof machines.id | typeof accounts.id, ids: number[]) => sql`${column} = any(${sql.param(ids)}::int[])`;

// ---------------------------------------------------------------- machine batches

/** A machine a flag batch names: its flags and class, its account, and whether it is being terminated. */
export interface MachineTarget {
  id: number;
  name: string;
  classId: number;
  managed: boolean;
  manualMaintenance: boolean;
  /** An unfinished (New or Running) TerminateMachine task. */
  terminating: boolean;
  account: { id: number; name: string; classId: number };
}

/**
 * The visible live machines among `ids`, in id order, locked `for no key
 * update` with `lock` (the batch writes them). Ids missing from the answer are
 * unknown or hidden.
 */
export async function selectMachineTargets(db: DbOrTx, q: { ids: number[]; hiddenClassIds: number[]; lock: boolean }): Promise<MachineTarget[]> {
  const query = db
    .select({
      id: machines.id,
      name: machines.name,
      classId: machines.classId,
      managed: machines.managed,
      manualMaintenance: machines.manualMaintenance,
      // One set (the unfinished tasks of the targets, through machine_tasks_unfinished_idx), not a subquery per machine.
      terminating: sql<boolean>`${machines.id} in (select t.machine_id from ${machineTasks} t
        where t.machine_id = any(${sql.param(q.ids)}::int[]) and t.status in ('New', 'Running') and t.type = 'TerminateMachine')`,
      account: { id: accounts.id, name: accounts.name, classId: accounts.classId },
    })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(anyOf(machines.id, q.ids), visibleMachine(q.hiddenClassIds)))
    .orderBy(asc(machines.id));
  return q.lock ? query.for('no key update', { of: machines }) : query;
}

/** Sets the same flags and class on the machines `ids`: one statement. */
export async function updateMachineFlags(
  db: DbOrTx,
  ids: number[],
  values: Partial<Pick<typeof machines.$inferInsert, 'managed' | 'manualMaintenance' | 'classId'>>,
): Promise<void> {
  if (ids.length === 0 || Object.keys(values).length === 0) return;
  await db.update(machines).set(values).where(anyOf(machines.id, ids));
}

export type ConfigColumn = 'componentConfig' | 'deployerConfig';

/** A machine a configuration batch names, with its current configuration of the kind. */
export interface MachineConfigTarget {
  id: number;
  name: string;
  config: Record<string, unknown>;
  account: { id: number; name: string; classId: number };
}

/** The visible live machines among `ids` with their configuration `column`, in id order, locked with `lock`. */
export async function selectMachineConfigTargets(
  db: DbOrTx,
  q: { ids: number[]; hiddenClassIds: number[]; column: ConfigColumn; lock: boolean },
): Promise<MachineConfigTarget[]> {
  const query = db
    .select({
      id: machines.id,
      name: machines.name,
      config: machines[q.column],
      account: { id: accounts.id, name: accounts.name, classId: accounts.classId },
    })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(anyOf(machines.id, q.ids), visibleMachine(q.hiddenClassIds)))
    .orderBy(asc(machines.id));
  return q.lock ? query.for('no key update', { of: machines }) : query;
}

/** Replaces the configuration `column` of each machine of `configs` (keyed by machine id): one statement. */
export async function updateMachineConfigs(db: DbOrTx, column: ConfigColumn, configs: Map<number, Record<string, unknown>>): Promise<void> {
  if (configs.size === 0) return;
  const byId = JSON.stringify(Object.fromEntries(configs));
  const target = column === 'componentConfig' ? sql.raw('component_config') : sql.raw('deployer_config');
  await db.execute(sql`update ${machines} set ${target} = c.value
    from jsonb_each(${byId}::jsonb) c where ${machines.id} = c.key::int`);
}

// ---------------------------------------------------------------- account batches

/** An account an account batch names: its flags and class. */
export interface AccountTarget {
  id: number;
  name: string;
  classId: number;
  managed: boolean;
  autoTest: boolean;
  autoTestBranch: string | null;
}

/** The visible live accounts among `ids`, in id order, locked `for update` with `lock` (as a properties push locks its account). */
export async function selectAccountTargets(db: DbOrTx, q: { ids: number[]; hiddenClassIds: number[]; lock: boolean }): Promise<AccountTarget[]> {
  const query = db
    .select({
      id: accounts.id,
      name: accounts.name,
      classId: accounts.classId,
      managed: accounts.managed,
      autoTest: accounts.autoTest,
      autoTestBranch: accounts.autoTestBranch,
    })
    .from(accounts)
    .where(
      and(
        anyOf(accounts.id, q.ids),
        isNull(accounts.deletedAt),
        q.hiddenClassIds.length > 0 ? sql`${accounts.classId} <> all(${sql.param(q.hiddenClassIds)}::int[])` : undefined,
      ),
    )
    .orderBy(asc(accounts.id));
  return q.lock ? query.for('update', { of: accounts }) : query;
}

/**
 * Sets the same properties on the accounts `ids` and bumps each one's
 * properties version (a concurrent Push Account Properties then answers 409):
 * one statement. The triggers on `accounts` keep `account_machine_status` and
 * `account_search` (class, counts) in step, as they do for a push.
 */
export async function updateAccountFlags(
  db: DbOrTx,
  ids: number[],
  values: Partial<Pick<typeof accounts.$inferInsert, 'managed' | 'classId' | 'autoTest' | 'autoTestBranch'>>,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(accounts)
    .set({ ...values, propertiesVersion: sql`${accounts.propertiesVersion} + 1` })
    .where(anyOf(accounts.id, ids));
}

// ---------------------------------------------------------------- target lists

export interface MachineFilter {
  classIds?: number[];
  search?: string;
  accountIds?: number[];
  hiddenClassIds: number[];
}

/** The updater's machine filter: visible, of the classes, whose name contains `search` (case-insensitive, literally), of the accounts. */
function machineWhere(f: MachineFilter): SQL | undefined {
  // LIKE's wildcards escaped: the text typed is matched literally.
  const pattern = f.search ? likePattern(f.search) : undefined;
  return and(
    visibleMachine(f.hiddenClassIds),
    f.classIds?.length ? anyOf(machines.classId as unknown as SQL, f.classIds) : undefined,
    f.accountIds?.length ? anyOf(machines.accountId as unknown as SQL, f.accountIds) : undefined,
    pattern === undefined ? undefined : ilike(machines.name, pattern),
  );
}

async function countMachines(db: DbOrTx, f: MachineFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(machineWhere(f));
  return row?.n ?? 0;
}

/** A page of a target list's rows with their class name, beside the number of matches `count` answers. */
async function pageOf<Row extends { classId: number }>(rows: PromiseLike<Row[]>, count: Promise<number>) {
  const [page, totalItems] = await Promise.all([rows, count]);
  return { items: page.map((r) => ({ ...r, class: className(r.classId) })), totalItems };
}

/** The ids of a target list's rows, beside the number of matches `count` answers. */
async function idsOf(rows: PromiseLike<{ id: number }[]>, count: Promise<number>) {
  const [listed, totalItems] = await Promise.all([rows, count]);
  return { ids: listed.map((r) => r.id), totalItems };
}

/** `query` (machines joined to their accounts) kept to the machines matching the filter, by name then id (the walk of `machines_live_name_idx`). */
const machineList = <Q extends PgSelect>(query: Q, f: MachineFilter) => query.where(machineWhere(f)).orderBy(asc(machines.name), asc(machines.id));

/** The columns of a machine of the updater's machine list. */
const updaterMachineColumns = {
  id: machines.id,
  name: machines.name,
  accountId: machines.accountId,
  accountName: accounts.name,
  classId: machines.classId,
  managed: machines.managed,
  manualMaintenance: machines.manualMaintenance,
  obsolete: machines.obsolete,
};

/** A page of the machines matching the filter, by name then id, with the number of matches. */
export async function selectUpdaterMachinePage(
  db: DbOrTx,
  f: MachineFilter & { startIndex: number; limit: number },
): Promise<{ items: TUpdaterMachine[]; totalItems: number }> {
  const query = db.select(updaterMachineColumns).from(machines).innerJoin(accounts, eq(accounts.id, machines.accountId));
  return pageOf(machineList(query.$dynamic(), f).offset(f.startIndex).limit(f.limit), countMachines(db, f));
}

/** The ids of the machines matching the filter, by name then id, at most MAX_UPDATE_TARGETS, with the number of matches. */
export async function selectUpdaterMachineIds(db: DbOrTx, f: MachineFilter): Promise<{ ids: number[]; totalItems: number }> {
  const query = db.select({ id: machines.id }).from(machines).innerJoin(accounts, eq(accounts.id, machines.accountId));
  return idsOf(machineList(query.$dynamic(), f).limit(MAX_UPDATE_TARGETS), countMachines(db, f));
}

/**
 * `query` (accounts joined to their machine counts, `ams`) kept to the accounts
 * matching the accounts list's filter, by name then id (the walk of `accounts_live_name_idx`).
 */
const accountList = <Q extends PgSelect>(query: Q, f: AccountFilter) => query.where(accountFilterCondition(f)).orderBy(asc(accounts.name), asc(accounts.id));

/** The columns of an account of the updater's account list, with its machine count. */
const updaterAccountColumns = {
  id: accounts.id,
  name: accounts.name,
  classId: accounts.classId,
  managed: accounts.managed,
  autoTest: accounts.autoTest,
  machines: sql<number>`coalesce(${ams.machines}, 0)::int`,
};

/**
 * A page of the accounts matching the accounts list's filter, by name then id,
 * with their machine count and the number of matches (counted as the accounts
 * list counts).
 */
export async function selectUpdaterAccountPage(
  db: DbOrTx,
  f: AccountFilter & { startIndex: number; limit: number },
): Promise<{ items: TUpdaterAccount[]; totalItems: number }> {
  const query = db.select(updaterAccountColumns).from(accounts).leftJoin(ams, eq(ams.accountId, accounts.id));
  return pageOf(accountList(query.$dynamic(), f).offset(f.startIndex).limit(f.limit), countFilteredAccounts(db, f));
}

/** The ids of the accounts matching the filter, by name then id, at most MAX_UPDATE_TARGETS, with the number of matches. */
export async function selectUpdaterAccountIds(db: DbOrTx, f: AccountFilter): Promise<{ ids: number[]; totalItems: number }> {
  const query = db.select({ id: accounts.id }).from(accounts).leftJoin(ams, eq(ams.accountId, accounts.id));
  return idsOf(accountList(query.$dynamic(), f).limit(MAX_UPDATE_TARGETS), countFilteredAccounts(db, f));
}

/** The visible live machines (kind machines) or accounts among `ids`: which of them exist for the user. */
export async function selectVisibleIds(db: DbOrTx, q: { kind: 'machines' | 'accounts'; ids: number[]; hiddenClassIds: number[] }): Promise<Set<number>> {
  const rows =
    q.kind === 'machines'
      ? await db
          .select({ id: machines.id })
          .from(machines)
          .innerJoin(accounts, eq(accounts.id, machines.accountId))
          .where(and(anyOf(machines.id, q.ids), visibleMachine(q.hiddenClassIds)))
      : await selectAccountTargets(db, { ids: q.ids, hiddenClassIds: q.hiddenClassIds, lock: false });
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------- saved selections

const selectionColumns = {
  id: updaterSelections.id,
  name: updaterSelections.name,
  kind: updaterSelections.kind,
  query: updaterSelections.query,
  ids: updaterSelections.ids,
  ownerId: updaterSelections.ownerId,
  owner: users.username,
  createdAt: updaterSelections.createdAt,
};

export type SelectionRow = Omit<TSavedSelection, 'createdAt'> & { ownerId: number; createdAt: Date };

/** Every saved selection, newest first. */
export async function selectSelections(db: DbOrTx): Promise<SelectionRow[]> {
  const rows = await db
    .select(selectionColumns)
    .from(updaterSelections)
    .innerJoin(users, eq(users.id, updaterSelections.ownerId))
    .orderBy(desc(updaterSelections.createdAt), desc(updaterSelections.id));
  return rows as SelectionRow[];
}

/** One saved selection, locked with `lock`. */
export async function selectSelection(db: DbOrTx, id: number, lock: boolean): Promise<SelectionRow | undefined> {
  const query = db
    .select(selectionColumns)
    .from(updaterSelections)
    .innerJoin(users, eq(users.id, updaterSelections.ownerId))
    .where(eq(updaterSelections.id, id));
  const [row] = lock ? await query.for('update', { of: updaterSelections }) : await query;
  return row as SelectionRow | undefined;
}

export async function insertSelection(
  db: DbOrTx,
  values: { name: string; kind: string; query: string | null; ids: number[]; ownerId: number },
): Promise<{ id: number; createdAt: Date }> {
  const [row] = await db.insert(updaterSelections).values(values).returning({ id: updaterSelections.id, createdAt: updaterSelections.createdAt });
  return row!;
}

export async function deleteSelection(db: DbOrTx, id: number): Promise<void> {
  await db.delete(updaterSelections).where(eq(updaterSelections.id, id));
}
