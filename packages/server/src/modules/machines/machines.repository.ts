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
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  className,
  MACHINE_UNFINISHED_TASKS,
  VIEWER_COUNT_AHEAD,
  ZListMachinesResponse,
  ZMachinesPage,
  type TMachine,
  type TMachineLookup,
  type TMachinesPage,
} from '@fleet/contracts';
import { cappedCount, countCap } from '../../db/capped-count.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { isoTime } from '../../db/sql-json.js';
import { jsonWriter } from '../../lib/json-writer.js';
import { compileStatement, queryCompiledArrays, type CompiledStatement } from '../../db/prepared.js';
import { unfinishedOperations } from '../operations/operation-json.js';
import { accounts, accountSettings, instanceTypes, machineCredentials, machines, machineTasks, sites } from '../../db/schema.js';

export type MachineRow = typeof machines.$inferSelect;

/** Live machines of live accounts, none of a hidden class. */
export function visible(hiddenClassIds: number[]): SQL {
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
 * The unfinished (New or Running) tasks of the machines of `page` (a relation
 * with the machines' ids: the list's page) as rows (machine_id, tasks): a JSON
 * array of TTask per machine that has any, newest first, at most
 * MACHINE_UNFINISHED_TASKS. One scan of the partial index
 * `machine_tasks_unfinished_idx` for the whole page, not a subquery per machine.
 */
const unfinishedTasks = (page: SQL) => sql`select t.machine_id, json_agg(t.task order by t.id desc) as tasks
  from (
    select x.machine_id, x.id, row_number() over (partition by x.machine_id order by x.id desc) as n,
      json_build_object('id', x.id, 'machineId', x.machine_id, 'accountId', x.account_id, 'type', x.type,
        'status', x.status, 'description', x.description, 'progress', x.progress,
        'queuedAt', ${isoTime(sql`x.queued_at`)}, 'startedAt', ${isoTime(sql`x.started_at`)},
        'completedAt', ${isoTime(sql`x.completed_at`)}, 'error', x.error) as task
    from ${machineTasks} x
    where x.machine_id = any(array(select id from ${page})) and x.status in ('New', 'Running')) t
  where t.n <= ${MACHINE_UNFINISHED_TASKS}
  group by t.machine_id`;

/**
 * The active cloud instance of the page's machine `p.id` (the newest, should a
 * machine ever have two) as columns (status, cloud_id, ip_address): a lateral
 * lookup per page row. Reading the instances of the whole page at once and
 * merge-joining them made PostgreSQL sort the page's wide rows by id and then
 * back into list order; the lookup keeps the page's rows as they are and cost
 * the statement a quarter less of the database's CPU.
 */
const activeInstance = sql`left join lateral (select c.status, c.cloud_id, c.ip_address
    from cloud_instances c
    where c.machine_id = p.id and c.active
    order by c.id desc limit 1) ci on true`;

/** A component config value that is a non-empty string, else null (the machine's URLs). */
const configUrl = (key: string) =>
  sql`case when jsonb_typeof(${machines.componentConfig} -> ${key}::text) = 'string'
    then nullif(${machines.componentConfig} ->> ${key}::text, '') end`;

/**
 * The machine's boolean fields, bit 0 first, packed into the page row's
 * `flags`: eleven booleans as one int4. node-postgres makes a string of every
 * field it reads, and the page's fields were the largest part of the server's
 * CPU per request (issue 9 "The slow paths"); PostgreSQL, too, copies a
 * narrower row through the page's CTE.
 */
const FLAG_BITS = [
  ['needsAdmin', machines.needsAdmin],
  ['managed', machines.managed],
  ['manualMaintenance', machines.manualMaintenance],
  ['turbo', machines.turbo],
  ['runSmokeTest', machines.runSmokeTest],
  ['overseeTermination', machines.overseeTermination],
  ['stop', machines.stop],
  ['idle', machines.idle],
  ['terminate', machines.terminate],
  ['isLauncher', machines.isLauncher],
  ['isSiteMaster', machines.isSiteMaster],
] as const satisfies readonly (readonly [keyof TMachine, AnyPgColumn])[];
type FlagName = (typeof FLAG_BITS)[number][0];

const flagsColumn = sql.join(
  FLAG_BITS.map(([, column], bit) => sql`(${column}::int << ${sql.raw(String(bit))})`),
  sql` | `,
);

/**
 * The columns of a page row of the `machines` row joined with its account,
 * site, instance type and class. The page's statement adds the active instance
 * and the unfinished tasks and operations; {@link toMachine} makes the TMachine.
 */
const machineColumns = sql`${machines.id} as id, ${machines.name} as name, ${machines.classId} as class_id,
  coalesce(mc.name, 'Class ' || ${machines.classId}) as class_name,
  ${machines.accountId} as account_id, ${accounts.name} as account_name,
  ${flagsColumn} as flags, ${machines.isLauncher} as is_launcher,
  ${machines.failCounter} as fail_counter, ${machines.operationMode} as operation_mode,
  ${machines.bundleVersion} as bundle_version,
  ${instanceTypes.id} as instance_type_id, ${instanceTypes.name} as instance_type_name, ${instanceTypes.storageSize} as instance_type_storage_size,
  ${sites.name} as site_name, ${machines.siteId} as site_id,
  case when ${machines.isLauncher} then ${configUrl('launcher.publicUrl')} end as launcher_url,
  case when ${machines.isSiteMaster} then ${configUrl('siteMaster.siteUrl')} end as site_master_url,
  ${machines.sampleData} as sample_data, ${machines.sampleDataFile} as sample_data_file,
  ${machines.componentConfig} as component_config, ${machines.deployerConfig} as deployer_config`;

/** A page row as node-postgres types it (int4 as number, bool as boolean, json and jsonb parsed), by column name. */
interface MachinePageRow {
  total: number;
  id: number | null;
  name: string;
  class_id: number;
  class_name: string;
  account_id: number;
  account_name: string;
  /** The machine's boolean fields as bits, in {@link FLAG_BITS} order. */
  flags: number;
  fail_counter: number;
  operation_mode: number;
  /** Null when the machine has none. */
  tasks: TMachine['tasks'] | null;
  operations: TMachine['operations'] | null;
  bundle_version: string | null;
  instance_status: NonNullable<TMachine['instance']>['status'] | null;
  instance_cloud_id: string;
  instance_ip_address: string;
  instance_type_id: number | null;
  instance_type_name: string;
  instance_type_storage_size: number;
  site_name: string | null;
  site_id: number | null;
  launcher_url: string | null;
  site_master_url: string | null;
  sample_data: TMachine['sampleData'];
  sample_data_file: string | null;
  component_config: TMachine['config']['componentConfig'];
  deployer_config: TMachine['config']['deployerConfig'];
}

/**
 * The columns of the page's statement in the order of its select list: the
 * total, the page's own columns ({@link machineColumns}, read from the CTE `p`
 * by name), then the instance, tasks and operations joined to them.
 */
const PAGE_ROW = [
  'total', 'id', 'name', 'class_id', 'class_name', 'account_id', 'account_name', 'flags', 'fail_counter', 'operation_mode',
  'bundle_version', 'instance_type_id', 'instance_type_name', 'instance_type_storage_size', 'site_name',
  'site_id', 'launcher_url', 'site_master_url', 'sample_data', 'sample_data_file', 'component_config', 'deployer_config',
  'instance_status', 'instance_cloud_id', 'instance_ip_address', 'tasks', 'operations',
] as const satisfies readonly (keyof MachinePageRow)[];

// Every field of MachinePageRow is in PAGE_ROW (a compile error names the one missing).
const pageRowComplete: Exclude<keyof MachinePageRow, (typeof PAGE_ROW)[number]> extends never ? true : never = true;
void pageRowComplete;

/** The select list's expressions that are not a column of `p` of the same name. */
const JOINED: Partial<Record<(typeof PAGE_ROW)[number], SQL>> = {
  total: sql`t.total`,
  instance_status: sql`ci.status`,
  instance_cloud_id: sql`ci.cloud_id`,
  instance_ip_address: sql`ci.ip_address`,
  tasks: sql`tk.tasks`,
  operations: sql`op.operations`,
};

const pageSelectList = sql.join(
  PAGE_ROW.map((name) => JOINED[name] ?? sql.raw(`p.${name}`)),
  sql`, `,
);

/** Position of each column in a page row. */
const AT = Object.fromEntries(PAGE_ROW.map((name, i) => [name, i])) as Record<keyof MachinePageRow, number>;

/** The column `name` of a page row. */
function field<K extends keyof MachinePageRow>(row: readonly unknown[], name: K): MachinePageRow[K] {
  return row[AT[name]] as MachinePageRow[K];
}

/** Bit masks of the page row's `flags`, by field. */
const FLAG = Object.fromEntries(FLAG_BITS.map(([name], bit) => [name, 1 << bit])) as Record<FlagName, number>;

/** TMachine of a page row (spec 2 §3 Machine), the row an array in {@link PAGE_ROW} order. */
function toMachine(row: readonly unknown[]): TMachine {
  const instanceStatus = field(row, 'instance_status');
  const instanceTypeId = field(row, 'instance_type_id');
  const flags = field(row, 'flags');
  const flag = (name: FlagName) => (flags & FLAG[name]) !== 0;
  return {
    id: field(row, 'id')!,
    name: field(row, 'name'),
    class: { id: field(row, 'class_id'), name: field(row, 'class_name') },
    classId: field(row, 'class_id'),
    className: field(row, 'class_name'),
    accountId: field(row, 'account_id'),
    account: { id: field(row, 'account_id'), name: field(row, 'account_name') },
    needsAdmin: flag('needsAdmin'),
    failCounter: field(row, 'fail_counter'),
    operationMode: field(row, 'operation_mode'),
    tasks: field(row, 'tasks') ?? [],
    operations: field(row, 'operations') ?? [],
    bundleVersion: field(row, 'bundle_version'),
    instance: instanceStatus === null ? null : { status: instanceStatus, cloudId: field(row, 'instance_cloud_id'), ipAddress: field(row, 'instance_ip_address') },
    cloudInstanceType:
      instanceTypeId === null ? null : { id: instanceTypeId, name: field(row, 'instance_type_name'), storageSize: field(row, 'instance_type_storage_size') },
    managed: flag('managed'),
    manualMaintenance: flag('manualMaintenance'),
    turbo: flag('turbo'),
    runSmokeTest: flag('runSmokeTest'),
    overseeTermination: flag('overseeTermination'),
    stop: flag('stop'),
    idle: flag('idle'),
    terminate: flag('terminate'),
    isLauncher: flag('isLauncher'),
    isSiteMaster: flag('isSiteMaster'),
    siteName: field(row, 'site_name'),
    siteId: field(row, 'site_id'),
    launcherUrl: field(row, 'launcher_url'),
    siteMasterUrl: field(row, 'site_master_url'),
    sampleData: field(row, 'sample_data'),
    sampleDataFile: field(row, 'sample_data_file'),
    config: { componentConfig: field(row, 'component_config'), deployerConfig: field(row, 'deployer_config') },
  };
}

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

/** What decides the text of a page's statement; the values are placeholders. */
interface MachinePageShape {
  hidesClasses: boolean;
  byAccount: boolean;
  byIds: boolean;
  capTotal: boolean;
}

/**
 * The order of machine lists: by account, launcher first, then name. Written as
 * the index `machines_list_order_idx` is (`desc nulls last`; the column is never
 * null), so that the planner can walk it to a page.
 */
const LIST_ORDER = sql`${machines.accountId}, ${machines.isLauncher} desc nulls last, ${machines.name}, ${machines.id}`;

/**
 * The statement of a page of visible machines (of one account, or of one id
 * list), in account order, launcher first, then by name; each with its active
 * instance and its unfinished tasks and operations. One row per machine of the page, each with the total
 * (`total`, counted once beside them), or one row of nulls but the total when
 * the page is empty (past the end). Placeholders: hiddenClassIds, accountId,
 * ids, startIndex, limit and cap (where the capped total stops), as the shape has them.
 *
 * PostgreSQL answers columns, Node writes the JSON (issue 9 "The slow paths"):
 * building the page as JSON in the statement (json_build_object, about 0.2 µs
 * of the database's CPU per field and row) made the database the bottleneck of
 * `GET /machines` at 20 clients; columns cost it a third of that, and Node
 * reads them and writes the JSON in less than the difference. The page is
 * chosen first (a materialised CTE); its unfinished tasks and operations are
 * then read for all its machines at once and joined: a correlated subquery per
 * machine and per list cost about 2 µs a row even when it found nothing (0.5 of
 * the statement's 1 ms on a 100-machine page). Each is `materialized`: the
 * generic plan expects a one-row page and would otherwise run a list again for
 * every machine of the page. The active instance is one lateral index lookup
 * per row ({@link activeInstance}).
 */
function machinePageStatement(shape: MachinePageShape): SQL {
  const where = and(
    isNull(machines.deletedAt),
    isNull(accounts.deletedAt),
    shape.hidesClasses ? sql`${machines.classId} <> all(${sql.placeholder('hiddenClassIds')}::int[])` : undefined,
    shape.hidesClasses ? sql`${accounts.classId} <> all(${sql.placeholder('hiddenClassIds')}::int[])` : undefined,
    shape.byAccount ? sql`${machines.accountId} = ${sql.placeholder('accountId')}` : undefined,
    shape.byIds ? sql`${machines.id} = any(${sql.placeholder('ids')}::int[])` : undefined,
  );
  const page = sql`select ${machineColumns}
    from ${machines}
    join ${accounts} on ${accounts.id} = ${machines.accountId}
    left join ${sites} on ${sites.id} = ${machines.siteId}
    left join ${instanceTypes} on ${instanceTypes.id} = ${machines.instanceTypeId}
    left join mma_classes mc on mc.id = ${machines.classId}
    where ${where}
    order by ${LIST_ORDER}
    offset ${sql.placeholder('startIndex')} limit ${sql.placeholder('limit')}`;
  const matching = sql`from ${machines} join ${accounts} on ${accounts.id} = ${machines.accountId} where ${where}`;
  const total = shape.capTotal
    ? cappedCount(sql`select ${machines.id} ${matching} order by ${LIST_ORDER}`, sql.placeholder('cap'))
    : sql`select count(*)::int ${matching}`;
  const p = sql.raw('p');
  return sql`with p as materialized (${page}),
      tk as materialized (${unfinishedTasks(p)}), op as materialized (${unfinishedOperations(p)})
    select ${pageSelectList}
    from (${total}) t(total) left join p on true
      ${activeInstance} left join tk on tk.machine_id = p.id left join op on op.machine_id = p.id
    order by p.account_id, p.is_launcher desc, p.name, p.id`;
}

/** The compiled statements of the page's shapes (at most 16), made as first asked for. */
const machinePageStatements = new Map<string, CompiledStatement>();

function compiledMachinePage(shape: MachinePageShape): CompiledStatement {
  const key = `${+shape.hidesClasses}${+shape.byAccount}${+shape.byIds}${+shape.capTotal}`;
  let statement = machinePageStatements.get(key);
  if (!statement) {
    statement = compileStatement(machinePageStatement(shape));
    machinePageStatements.set(key, statement);
  }
  return statement;
}

/**
 * A page of visible machines (see {@link machinePageStatement}), with
 * `totalCapped` when `withCapped`. A named prepared statement (db/prepared.ts):
 * planning it cost more than running it.
 */
export async function selectMachinePage(db: Db, q: MachinePageQuery): Promise<{ items: TMachine[]; totalItems: number; totalCapped?: boolean }> {
  const shape = { hidesClasses: q.hiddenClassIds.length > 0, byAccount: q.accountId !== undefined, byIds: q.ids !== undefined, capTotal: q.capTotal === true };
  const cap = countCap(q, VIEWER_COUNT_AHEAD);
  const rows = await queryCompiledArrays(db, compiledMachinePage(shape), { ...q, cap });
  const totalItems = rows[0]![AT.total] as number;
  const items = rows.filter((row) => row[AT.id] !== null).map(toMachine);
  return q.withCapped ? { items, totalItems, totalCapped: shape.capTotal && totalItems >= cap } : { items, totalItems };
}

/**
 * A page of visible machines as JSON text (TMachinesPage with `withCapped`,
 * else TListMachinesResponse), for the list routes to send as it is
 * (lib/json-text.ts): written once by the contract's compiled writer
 * (lib/json-writer.ts), not checked against the contract again in production
 * (toMachine is typed by it).
 */
export async function selectMachinePageText(db: Db, q: MachinePageQuery): Promise<string> {
  const page = await selectMachinePage(db, q);
  return q.withCapped ? writeMachinesPage(page as TMachinesPage) : writeMachineList(page);
}

/** Writers of the two list answers (lib/json-writer.ts): `GET /machines` (with `totalCapped`) and an account's machines. */
const writeMachinesPage = jsonWriter(ZMachinesPage);
const writeMachineList = jsonWriter(ZListMachinesResponse);

/** One visible machine as the API answers it, or undefined. */
export async function selectMachine(db: Db, id: number, hiddenClassIds: number[]): Promise<TMachine | undefined> {
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
