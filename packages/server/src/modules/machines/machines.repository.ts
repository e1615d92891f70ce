/**
 * SQL of the machine calls (spec 2 §7 Machines): pages of machines with their
 * account, site, instance type and active instance; a visible machine by id;
 * field updates; the account facts that decide which machines it may still
 * create; the machine lookup.
 *
 * Visibility (DESIGN §5) is part of every query: live machines of live accounts,
 * neither of a hidden class.
 */
import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { className, MACHINE_RECENT_TASKS, VIEWER_COUNT_AHEAD, type TMachine, type TMachineLookup } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { isoTime } from '../../db/sql-json.js';
import { queryPrepared } from '../../db/prepared.js';
import { recentOperations } from '../operations/operation-json.js';
import { accounts, accountSettings, instanceTypes, machineCredentials, machines, machineTasks, sites } from '../../db/schema.js';

export type MachineRow = typeof machines.$inferSelect;

/** Live machines of live accounts, none of a hidden class. */
function visible(hiddenClassIds: number[]): SQL {
  // One array parameter, not one per class: the statement's text (and so its
  // prepared statement, db/prepared.ts) does not change with the list.
  const hidden = sql.param(hiddenClassIds);
  return and(
    isNull(machines.deletedAt),
    isNull(accounts.deletedAt),
    hiddenClassIds.length > 0 ? sql`${machines.classId} <> all(${hidden}::int[])` : undefined,
    hiddenClassIds.length > 0 ? sql`${accounts.classId} <> all(${hidden}::int[])` : undefined,
  )!;
}

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

/** A component config value that is a non-empty string, else null (the machine's URLs). */
const configUrl = (key: string) =>
  sql`case when jsonb_typeof(${machines.componentConfig} -> ${key}::text) = 'string'
    then nullif(${machines.componentConfig} ->> ${key}::text, '') end`;

/**
 * TMachine as JSON, built by PostgreSQL from the outer query's `machines` row
 * joined with its account, site and instance type (spec 2 §3 Machine).
 */
const machineJson = sql<TMachine>`json_build_object(
  'id', ${machines.id}, 'name', ${machines.name},
  'class', json_build_object('id', ${machines.classId}, 'name', coalesce(mc.name, 'Class ' || ${machines.classId})),
  'classId', ${machines.classId}, 'className', coalesce(mc.name, 'Class ' || ${machines.classId}),
  'accountId', ${machines.accountId}, 'account', json_build_object('id', ${accounts.id}, 'name', ${accounts.name}),
  'needsAdmin', ${machines.needsAdmin}, 'failCounter', ${machines.failCounter}, 'operationMode', ${machines.operationMode},
  'tasks', ${recentTasks}, 'operations', ${recentOperations}, 'bundleVersion', ${machines.bundleVersion},
  'instance', (select json_build_object('status', c.status, 'cloudId', c.cloud_id, 'ipAddress', c.ip_address)
    from cloud_instances c where c.machine_id = ${machines.id} and c.active order by c.id desc limit 1),
  'cloudInstanceType', case when ${instanceTypes.id} is null then null
    else json_build_object('id', ${instanceTypes.id}, 'name', ${instanceTypes.name}, 'storageSize', ${instanceTypes.storageSize}) end,
  'managed', ${machines.managed}, 'manualMaintenance', ${machines.manualMaintenance}, 'turbo', ${machines.turbo},
  'runSmokeTest', ${machines.runSmokeTest}, 'overseeTermination', ${machines.overseeTermination},
  'stop', ${machines.stop}, 'idle', ${machines.idle}, 'terminate', ${machines.terminate},
  'isLauncher', ${machines.isLauncher}, 'isSiteMaster', ${machines.isSiteMaster},
  'siteName', ${sites.name}, 'siteId', ${machines.siteId},
  'launcherUrl', case when ${machines.isLauncher} then ${configUrl('launcher.publicUrl')} end,
  'siteMasterUrl', case when ${machines.isSiteMaster} then ${configUrl('siteMaster.siteUrl')} end,
  'sampleData', ${machines.sampleData}, 'sampleDataFile', ${machines.sampleDataFile},
  'config', json_build_object('componentConfig', ${machines.componentConfig}, 'deployerConfig', ${machines.deployerConfig}))`;

export interface MachinePageQuery {
  hiddenClassIds: number[];
  accountId?: number;
  ids?: number[];
  startIndex: number;
  limit: number;
  /**
   * The whole fleet (100,000 machines): the total is counted on the page's
   * ordered plan and stops `VIEWER_COUNT_AHEAD` rows past the page, and the page
   * carries `totalCapped` (ZMachinesPage; true when the total is a lower bound).
   */
  capTotal?: boolean;
  /** Answer `totalCapped` (false unless `capTotal` hit the cap): `GET /machines` answers ZMachinesPage. */
  withCapped?: boolean;
}

/**
 * The order of machine lists: by account, launcher first, then name. Written as
 * the index `machines_list_order_idx` is (`desc nulls last`; the column is never
 * null), so that the planner can walk it to a page.
 */
const LIST_ORDER = sql`${machines.accountId}, ${machines.isLauncher} desc nulls last, ${machines.name}, ${machines.id}`;

/**
 * The statement of a page of visible machines (of one account, or of one id
 * list), in account order, launcher first, then by name; each with its recent
 * tasks and operations. It answers one row, `page`: the TListMachinesResponse
 * as JSON text (`{ items, totalItems }`, and `totalCapped` with `withCapped`).
 *
 * Built whole by PostgreSQL, sent as it comes: mapping 100 rows of columns in
 * Node, checking them against the contract and writing them out again cost the
 * server more than the page's statement costs the database (issue 9 "The slow
 * paths"). The JSON of the page's rows only, after the limit; the total
 * counted once beside them, so an empty page (past the end) has it too.
 */
export function machinePageStatement(q: MachinePageQuery): SQL {
  const where = and(
    visible(q.hiddenClassIds),
    q.accountId !== undefined ? eq(machines.accountId, q.accountId) : undefined,
    q.ids ? sql`${machines.id} = any(${sql.param(q.ids)}::int[])` : undefined,
  );
  const page = sql`select ${machines.accountId} as account_id, ${machines.isLauncher} as is_launcher, ${machines.name} as name,
      ${machines.id} as id, ${machineJson} as machine
    from ${machines}
    join ${accounts} on ${accounts.id} = ${machines.accountId}
    left join ${sites} on ${sites.id} = ${machines.siteId}
    left join ${instanceTypes} on ${instanceTypes.id} = ${machines.instanceTypeId}
    left join mma_classes mc on mc.id = ${machines.classId}
    where ${where}
    order by ${LIST_ORDER}
    offset ${q.startIndex} limit ${q.limit}`;
  const matching = sql`from ${machines} join ${accounts} on ${accounts.id} = ${machines.accountId} where ${where}`;
  const cap = q.startIndex + q.limit + VIEWER_COUNT_AHEAD;
  const total = q.capTotal
    ? sql`select count(*) from (select ${machines.id} ${matching} order by ${LIST_ORDER} limit ${cap}) x`
    : sql`select count(*) ${matching}`;
  const capped = q.withCapped ? sql`, 'totalCapped', ${q.capTotal === true} and t.n >= ${cap}` : sql``;
  return sql`select json_build_object(
      'items', coalesce(json_agg(p.machine order by p.account_id, p.is_launcher desc, p.name, p.id) filter (where p.id is not null), '[]'::json),
      'totalItems', t.n ${capped})::text as page
    from (${total}) t(n) left join (${page}) p on true
    group by t.n`;
}

/**
 * A page of visible machines as JSON text (TListMachinesResponse), for the list
 * routes to send as it is (lib/json-text.ts). A named prepared statement
 * (db/prepared.ts): planning it cost more than running it.
 */
export async function selectMachinePageText(db: DbOrTx, q: MachinePageQuery): Promise<string> {
  const [row] = await queryPrepared<{ page: string }>(db, machinePageStatement(q));
  return row!.page;
}

/** A page of visible machines (see {@link machinePageStatement}). */
export async function selectMachinePage(db: DbOrTx, q: MachinePageQuery): Promise<{ items: TMachine[]; totalItems: number }> {
  return JSON.parse(await selectMachinePageText(db, q)) as { items: TMachine[]; totalItems: number };
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

/**
 * Id, name and class name of at most `limit` visible machines, by name then id
 * (spec 2 §7): whose name contains `search` (case-insensitive, taken literally)
 * and, with `ids`, among those ids. An empty `ids` list matches nothing.
 */
export async function selectMachineLookup(
  db: DbOrTx,
  q: { hiddenClassIds: number[]; search?: string; ids?: number[]; limit: number },
): Promise<TMachineLookup[]> {
  // Escape LIKE's wildcards so that the text typed is matched literally.
  const pattern = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
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
