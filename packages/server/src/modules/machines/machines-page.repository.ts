/**
 * SQL of the machine lists (spec 2 §2.2 Machines panel, §3 Machine, §7
 * Machines): a page of visible machines (the whole fleet, one account's, or
 * one id list's), each with its account, site, instance type, class, active
 * instance and unfinished tasks and operations, and the total (exact, or
 * capped `VIEWER_COUNT_AHEAD` rows past the page for the whole fleet:
 * `db/capped-count.ts`); the page as TMachine objects, or as the JSON text of
 * ZMachinesPage / ZListMachinesResponse; one visible machine as the API
 * answers it. The other machine SQL is in `machines.repository.ts`.
 *
 * Visibility (DESIGN §5) is part of the statement ({@link visibleWhere}); the
 * filters of the top bar's chips are the conditions it counts with
 * (fleet-counts.ts); the Updater's machine mode (spec 3 §2.8) narrows by
 * classes and name as `GET /updater/machines` does. One named prepared statement per page shape (at most
 * 10,368), planned once per connection (db/prepared.ts).
 */
import { and, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { MACHINE_UNFINISHED_TASKS, VIEWER_COUNT_AHEAD, ZListMachinesResponse, ZMachinesPage, type TMachine, type TMachinesPage } from '@fleet/contracts';
import { cappedCount, countCap, reachedCap } from '../../db/capped-count.js';
import type { Db } from '../../db/client.js';
import { isoTime } from '../../db/sql-json.js';
import { likePattern } from '../../db/like-pattern.js';
import { jsonWriter } from '../../lib/json-writer.js';
import { compileStatement, queryCompiledArrays, type CompiledStatement } from '../../db/prepared.js';
import { unfinishedOperations } from '../operations/operation-json.js';
import { accounts, instanceTypes, machines, machineTasks, sites } from '../../db/schema.js';
import { visibleWhere } from './machines.repository.js';
import { MACHINE_CONDITIONS, type MachineFilter } from './fleet-counts.js';

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
  /** Only machines of these classes (the Updater's class filter; absent or empty: any). */
  classIds?: number[];
  /** Only machines whose name contains this text, case-insensitive, taken literally (the Updater's search). */
  search?: string;
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
  /** Only the machines of a class and of statuses true or false, as the top bar counts them (fleet-counts.ts). */
  filter?: MachineFilter;
  /** By name (then id) in this direction (`machines_live_name_idx`); absent: by account, launcher first, then name. */
  byName?: 'asc' | 'desc';
}

/** The status filters of a page, in the order of their shape's key. */
const FILTER_FLAGS = ['needsAdmin', 'turbo', 'unmanaged'] as const;

/** What decides the text of a page's statement; the values are placeholders. */
interface MachinePageShape {
  hidesClasses: boolean;
  byAccount: boolean;
  byIds: boolean;
  capTotal: boolean;
  byClass: boolean;
  byClasses: boolean;
  bySearch: boolean;
  /** The order: the list's (by account), or by name either way. */
  order: 'list' | 'asc' | 'desc';
  /**
   * The status filters set, with their values: written into the text (`needs_admin`, `not needs_admin`), so that
   * the generic plan can walk the status's partial index in list order (`machines_needs_admin_idx`…); with the value
   * a placeholder it walked the whole fleet's order and tested each machine (146 ms for the needs-admin chip's
   * first page on the scale fleet).
   */
  flags: [(typeof FILTER_FLAGS)[number], boolean][];
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
  const dir = sql.raw(shape.order === 'desc' ? 'desc' : 'asc');
  const order = shape.order === 'list' ? LIST_ORDER : sql`${machines.name} ${dir}, ${machines.id} ${dir}`;
  const where = and(
    visibleWhere(shape.hidesClasses ? sql`${sql.placeholder('hiddenClassIds')}` : undefined),
    shape.byAccount ? sql`${machines.accountId} = ${sql.placeholder('accountId')}` : undefined,
    shape.byIds ? sql`${machines.id} = any(${sql.placeholder('ids')}::int[])` : undefined,
    shape.byClass ? sql`${machines.classId} = ${sql.placeholder('classId')}` : undefined,
    shape.byClasses ? sql`${machines.classId} = any(${sql.placeholder('classIds')}::int[])` : undefined,
    shape.bySearch ? sql`${machines.name} ilike ${sql.placeholder('namePattern')}` : undefined,
    ...shape.flags.map(([name, value]) => (value ? sql`${MACHINE_CONDITIONS[name]}` : sql`not (${MACHINE_CONDITIONS[name]})`)),
  );
  const page = sql`select ${machineColumns}
    from ${machines}
    join ${accounts} on ${accounts.id} = ${machines.accountId}
    left join ${sites} on ${sites.id} = ${machines.siteId}
    left join ${instanceTypes} on ${instanceTypes.id} = ${machines.instanceTypeId}
    left join mma_classes mc on mc.id = ${machines.classId}
    where ${where}
    order by ${order}
    offset ${sql.placeholder('startIndex')} limit ${sql.placeholder('limit')}`;
  const matching = sql`from ${machines} join ${accounts} on ${accounts.id} = ${machines.accountId} where ${where}`;
  const total = shape.capTotal
    ? cappedCount(sql`select ${machines.id} ${matching} order by ${order}`, sql.placeholder('cap'))
    : sql`select count(*)::int ${matching}`;
  const p = sql.raw('p');
  return sql`with p as materialized (${page}),
      tk as materialized (${unfinishedTasks(p)}), op as materialized (${unfinishedOperations(p)})
    select ${pageSelectList}
    from (${total}) t(total) left join p on true
      ${activeInstance} left join tk on tk.machine_id = p.id left join op on op.machine_id = p.id
    order by ${shape.order === 'list' ? sql`p.account_id, p.is_launcher desc, p.name, p.id` : sql`p.name ${dir}, p.id ${dir}`}`;
}

/** The compiled statements of the page's shapes (at most 10,368: 2^7 × 3 × 27), made as first asked for. */
const machinePageStatements = new Map<string, CompiledStatement>();

function compiledMachinePage(shape: MachinePageShape): CompiledStatement {
  const key = `${+shape.hidesClasses}${+shape.byAccount}${+shape.byIds}${+shape.capTotal}${+shape.byClass}${+shape.byClasses}${+shape.bySearch}${shape.order}${shape.flags.map(([name, value]) => `${name}=${value}`).join()}`;
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
  const filter = q.filter ?? {};
  const shape: MachinePageShape = {
    hidesClasses: q.hiddenClassIds.length > 0,
    byAccount: q.accountId !== undefined,
    byIds: q.ids !== undefined,
    capTotal: q.capTotal === true,
    byClass: filter.classId !== undefined,
    byClasses: q.classIds !== undefined && q.classIds.length > 0,
    bySearch: q.search !== undefined && q.search !== '',
    order: q.byName ?? 'list',
    flags: FILTER_FLAGS.flatMap((name) => (filter[name] === undefined ? [] : [[name, filter[name]] as [(typeof FILTER_FLAGS)[number], boolean]])),
  };
  const cap = countCap(q, VIEWER_COUNT_AHEAD);
  const namePattern = shape.bySearch ? likePattern(q.search!) : undefined;
  const rows = await queryCompiledArrays(db, compiledMachinePage(shape), { ...q, ...filter, namePattern, cap });
  const totalItems = rows[0]![AT.total] as number;
  const items = rows.filter((row) => row[AT.id] !== null).map(toMachine);
  return q.withCapped ? { items, totalItems, totalCapped: shape.capTotal && reachedCap(totalItems, cap) } : { items, totalItems };
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
