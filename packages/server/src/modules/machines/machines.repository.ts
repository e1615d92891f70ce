/**
 * SQL of the machine calls (spec 2 §7 Machines): pages of machines with their
 * account, site, instance type and active instance; a visible machine by id;
 * field updates; the account facts that decide which machines it may still
 * create; the machine lookup.
 *
 * Visibility (DESIGN §5) is part of every query: live machines of live accounts,
 * neither of a hidden class.
 */
import { and, asc, count, eq, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { className, MACHINE_RECENT_TASKS, VIEWER_COUNT_AHEAD, type TMachine, type TMachineLookup } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { isoTime } from '../../db/sql-json.js';
import { recentOperations } from '../operations/operation-json.js';
import { accounts, accountSettings, instanceTypes, machineCredentials, machines, machineTasks, sites } from '../../db/schema.js';

export type MachineRow = typeof machines.$inferSelect;

/** Live machines of live accounts, none of a hidden class. */
function visible(hiddenClassIds: number[]): SQL {
  return and(
    isNull(machines.deletedAt),
    isNull(accounts.deletedAt),
    hiddenClassIds.length > 0 ? notInArray(machines.classId, hiddenClassIds) : undefined,
    hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined,
  )!;
}

const activeInstance = sql<TMachine['instance']>`(
  select json_build_object('status', c.status, 'cloudId', c.cloud_id, 'ipAddress', c.ip_address)
  from cloud_instances c where c.machine_id = ${machines.id} and c.active order by c.id desc limit 1)`;

/**
 * The machine columns the list answers with: not the whole row. The versions
 * (jsonb), timestamps and the generated `obsolete` are not part of TMachine, and
 * each column costs PostgreSQL an output function and the server a parse and a
 * Drizzle mapping per row (100 rows a page).
 */
const machineColumns = {
  id: machines.id,
  name: machines.name,
  classId: machines.classId,
  accountId: machines.accountId,
  needsAdmin: machines.needsAdmin,
  failCounter: machines.failCounter,
  operationMode: machines.operationMode,
  bundleVersion: machines.bundleVersion,
  managed: machines.managed,
  manualMaintenance: machines.manualMaintenance,
  turbo: machines.turbo,
  runSmokeTest: machines.runSmokeTest,
  overseeTermination: machines.overseeTermination,
  stop: machines.stop,
  idle: machines.idle,
  terminate: machines.terminate,
  isLauncher: machines.isLauncher,
  isSiteMaster: machines.isSiteMaster,
  siteId: machines.siteId,
  sampleData: machines.sampleData,
  sampleDataFile: machines.sampleDataFile,
  componentConfig: machines.componentConfig,
  deployerConfig: machines.deployerConfig,
};

/**
 * The machine's recent tasks as a JSON array of TTask: unfinished ones first,
 * then the latest finished, at most MACHINE_RECENT_TASKS, newest first within
 * each. One walk of `machine_tasks_machine_idx` per listed machine, in the page's
 * statement (evaluated for the page's rows only, after the limit).
 */
const recentTasks = sql<TMachine['tasks']>`(
  select coalesce(json_agg(t.task order by t.unfinished desc, t.id desc), '[]'::json)
  from (
    select x.id, x.status in ('New', 'Running') as unfinished,
      json_build_object('id', x.id, 'machineId', x.machine_id, 'accountId', x.account_id, 'type', x.type,
        'status', x.status, 'description', x.description, 'progress', x.progress,
        'queuedAt', ${isoTime(sql`x.queued_at`)}, 'startedAt', ${isoTime(sql`x.started_at`)},
        'completedAt', ${isoTime(sql`x.completed_at`)}, 'error', x.error) as task
    from ${machineTasks} x where x.machine_id = ${machines.id}
    order by x.status in ('New', 'Running') desc, x.id desc limit ${MACHINE_RECENT_TASKS}) t)`;

const listColumns = {
  machine: machineColumns,
  tasks: recentTasks,
  operations: recentOperations,
  accountName: accounts.name,
  siteName: sites.name,
  instanceType: { id: instanceTypes.id, name: instanceTypes.name, storageSize: instanceTypes.storageSize },
  instance: activeInstance,
};

type ListRow = {
  machine: Pick<MachineRow, keyof typeof machineColumns>;
  accountName: string;
  siteName: string | null;
  instanceType: { id: number | null; name: string | null; storageSize: number | null } | null;
  instance: TMachine['instance'];
  tasks: TMachine['tasks'];
  operations: TMachine['operations'];
};

const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);

function toMachine(r: ListRow): TMachine {
  const m = r.machine;
  const config = m.componentConfig;
  return {
    id: m.id,
    name: m.name,
    class: { id: m.classId, name: className(m.classId) },
    classId: m.classId,
    className: className(m.classId),
    accountId: m.accountId,
    account: { id: m.accountId, name: r.accountName },
    needsAdmin: m.needsAdmin,
    failCounter: m.failCounter,
    operationMode: m.operationMode,
    tasks: r.tasks,
    operations: r.operations,
    bundleVersion: m.bundleVersion,
    instance: r.instance,
    cloudInstanceType: r.instanceType?.id != null ? (r.instanceType as NonNullable<TMachine['cloudInstanceType']>) : null,
    managed: m.managed,
    manualMaintenance: m.manualMaintenance,
    turbo: m.turbo,
    runSmokeTest: m.runSmokeTest,
    overseeTermination: m.overseeTermination,
    stop: m.stop,
    idle: m.idle,
    terminate: m.terminate,
    isLauncher: m.isLauncher,
    isSiteMaster: m.isSiteMaster,
    siteName: r.siteName,
    siteId: m.siteId,
    launcherUrl: m.isLauncher ? text(config['launcher.publicUrl']) : null,
    siteMasterUrl: m.isSiteMaster ? text(config['siteMaster.siteUrl']) : null,
    sampleData: m.sampleData as TMachine['sampleData'],
    sampleDataFile: m.sampleDataFile,
    config: { componentConfig: m.componentConfig, deployerConfig: m.deployerConfig },
  };
}

/**
 * The order of machine lists: by account, launcher first, then name. Written as
 * the index `machines_list_order_idx` is (`desc nulls last`; the column is never
 * null), so that the planner can walk it to a page.
 */
const listOrder = [asc(machines.accountId), sql`${machines.isLauncher} desc nulls last`, asc(machines.name), asc(machines.id)];

/**
 * A page of visible machines (of one account, or of one id list), in account
 * order, launcher first, then by name; each with its recent tasks and operations.
 *
 * One statement: the page's rows with their active instance and recent tasks
 * (built as JSON by PostgreSQL) and the total as a scalar subquery, evaluated
 * once. A count and a task query beside it cost a pooled connection and a round
 * trip each per request; only an empty page (past the end) counts on its own.
 *
 * With `capTotal` (the whole fleet: 100,000 machines) the total is counted on
 * the page's ordered plan (`machines_list_order_idx`) and stops
 * `VIEWER_COUNT_AHEAD` rows past the page: `totalCapped` then says the total is
 * a lower bound. Without it the count is exact (an account has few machines).
 */
export async function selectMachinePage(
  db: DbOrTx,
  q: { hiddenClassIds: number[]; accountId?: number; ids?: number[]; startIndex: number; limit: number; capTotal?: boolean },
): Promise<{ items: TMachine[]; totalItems: number; totalCapped: boolean }> {
  const where = and(
    visible(q.hiddenClassIds),
    q.accountId !== undefined ? eq(machines.accountId, q.accountId) : undefined,
    q.ids ? inArray(machines.id, q.ids) : undefined,
  );
  const cap = q.startIndex + q.limit + VIEWER_COUNT_AHEAD;
  const matching = db.select({ id: machines.id }).from(machines).innerJoin(accounts, eq(accounts.id, machines.accountId)).where(where);
  const total = q.capTotal
    ? db.select({ n: count() }).from(matching.orderBy(...listOrder).limit(cap).as('matching'))
    : db.select({ n: count() }).from(machines).innerJoin(accounts, eq(accounts.id, machines.accountId)).where(where);
  const rows = await db
    .select({ ...listColumns, totalItems: sql<number>`(${total})`.mapWith(Number) })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .leftJoin(sites, eq(sites.id, machines.siteId))
    .leftJoin(instanceTypes, eq(instanceTypes.id, machines.instanceTypeId))
    .where(where)
    .orderBy(...listOrder)
    .offset(q.startIndex)
    .limit(q.limit);
  const totalItems = rows.length > 0 ? rows[0]!.totalItems : ((await total)[0]?.n ?? 0);
  return { items: rows.map(toMachine), totalItems, totalCapped: q.capTotal === true && totalItems >= cap };
}

/** One visible machine as the API answers it, or undefined. */
export async function selectMachine(db: DbOrTx, id: number, hiddenClassIds: number[]): Promise<TMachine | undefined> {
  return (await selectMachinePage(db, { hiddenClassIds, ids: [id], startIndex: 0, limit: 1 })).items[0];
}

export interface VisibleMachine {
  machine: MachineRow;
  account: { id: number; name: string; classId: number };
}

/**
 * A visible machine with its account, optionally of one account; with
 * `forUpdate` the machine row is locked until the transaction ends, so two
 * mutations of one machine run one after the other.
 */
export async function findVisibleMachine(
  db: DbOrTx,
  q: { id: number; hiddenClassIds: number[]; accountId?: number; forUpdate?: boolean },
): Promise<VisibleMachine | undefined> {
  const query = db
    .select({ machine: machines, account: { id: accounts.id, name: accounts.name, classId: accounts.classId } })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(eq(machines.id, q.id), visible(q.hiddenClassIds), q.accountId !== undefined ? eq(machines.accountId, q.accountId) : undefined));
  const [row] = q.forUpdate ? await query.for('no key update', { of: machines }) : await query;
  return row;
}

/** Sets machine fields. */
export async function updateMachineFields(db: DbOrTx, id: number, values: Partial<typeof machines.$inferInsert>): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(machines).set(values).where(eq(machines.id, id));
}

/** Whether the machine has a New or Running task of the type. */
export async function hasUnfinishedTask(db: DbOrTx, machineId: number, type: string): Promise<boolean> {
  const [row] = await db
    .select({ id: machineTasks.id })
    .from(machineTasks)
    .where(and(eq(machineTasks.machineId, machineId), eq(machineTasks.type, type), inArray(machineTasks.status, ['New', 'Running'])))
    .limit(1);
  return row !== undefined;
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
  const [accountSites, live] = await Promise.all([
    db.select().from(sites).where(eq(sites.accountId, accountId)).orderBy(asc(sites.id)),
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

/** Id, name and class name of every visible machine, by name (spec 2 §7). */
export async function selectMachineLookup(db: DbOrTx, hiddenClassIds: number[]): Promise<TMachineLookup[]> {
  const rows = await db
    .select({ id: machines.id, name: machines.name, classId: machines.classId })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(visible(hiddenClassIds))
    .orderBy(asc(machines.name), asc(machines.id));
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
