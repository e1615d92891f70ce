/**
 * SQL of the Cloud Instances viewer (spec 2 §2.9, §3 Cloud instance, §7
 * `GET /cloud-instance`, `GET /machines/{id}/cloud-instances`): pages of the
 * instances of visible live machines, newest (highest id) first.
 *
 * Visibility (DESIGN §5) is part of the query: the instance's machine and its
 * account are live and of no hidden class. Instances without a machine (none
 * today) are not listed.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TCloudInstance, TInstanceState, TMachineCloudInstance, TSortOrder } from '@fleet/contracts';
import { cappedCount, cappedTotalFields, pageCtes } from '../../db/capped-count.js';
import type { DbOrTx } from '../../db/client.js';
import { queryPrepared } from '../../db/prepared.js';
import { classNameOf, isoTime } from '../../db/sql-json.js';
import { classIs, joinedMachineAndAccountVisible, joinedMachineVisible, machineVisible } from '../../db/visible-machine.js';


/** The instance's state now: a transition whose time has come counts as done (the simulated cloud settles on read). */
const statusNow = sql`case when c.next_status is not null and c.settles_at <= now() then c.next_status else c.status end`;

/**
 * SQL boolean: the state now of instance `c` is `status` ({@link statusNow}), written so that the planner
 * estimates it from the column statistics of `status` and `next_status` (a generic plan assumed 0.5 % of the rows
 * for the `case` expression, and sorted every match where it should have walked the index to the page).
 */
function statusIs(status: TInstanceState): SQL {
  return sql`((c.status = ${status} and (c.next_status is null or c.settles_at is null or c.settles_at > now()))
    or (c.next_status = ${status} and c.settles_at <= now()))`;
}

/** The JSON of the instance row `c` with its machine `m` (TCloudInstance, spec 2 §3 Cloud instance). */
const instanceJson = sql<TCloudInstance>`json_build_object('id', c.id, 'machineId', c.machine_id, 'machineName', m.name,
  'machineClassName', ${classNameOf(sql`m.class_id`)}, 'hostName', c.host_name, 'ipAddress', c.ip_address,
  'privateIpAddress', c.private_ip_address, 'cloudId', c.cloud_id, 'region', c.region, 'storageSize', c.storage_size,
  'timestamp', ${isoTime(sql`c.created_at`)}, 'updatedAt', ${isoTime(sql`c.updated_at`)}, 'status', ${statusNow},
  'active', c.active, 'dnsReady', c.dns_ready)`;

/** A page of the viewer: visibility, filters, paging, the launch order's direction and the count's cap. */
export interface CloudInstancePageQuery {
  hiddenClassIds: number[];
  machineId?: number;
  classId?: number;
  status?: TInstanceState;
  active?: boolean;
  /** `timestamp`: by launch time then id (`cloud_instances_created_idx`); else by id. */
  sort?: 'timestamp';
  order?: TSortOrder;
  startIndex: number;
  limit: number;
  cap: number;
}

/**
 * The statement of a page of the instances of visible machines (or of one
 * machine) matching the filters (class, state now, active), newest first
 * (or oldest, `order` asc: the primary key walked forwards): one row, `page`, the TCloudInstancesPage as JSON
 * text (`{ items, totalItems, totalCapped }`), the total counted at most `cap`
 * rows. The page walks the primary key (or `cloud_instances_machine_id_idx`
 * for one machine) backwards and stops after the page. A short page ends the
 * list (db/capped-count.ts pageTotal); else the total, beside it, is counted in machine order instead (the first `cap` matches in any order
 * count the same): `machines_live_idx` merged with
 * `cloud_instances_machine_id_idx`, both read index-only, and a machine's
 * account looked up once for its run of instances, where the page's order
 * looked up a machine and an account for every instance (0.6 against 1.5 ms
 * for 1,010 rows). The JSON of the page's rows is built
 * in a lateral subquery per row (`limit 1` keeps it one): in the prepared
 * statement's generic plan the page's `limit` is a parameter, estimated at a
 * tenth of the table, and a plain join back to the table was planned as a hash
 * join over every row (15 ms instead of 2).
 */
export function cloudInstancePageStatement(q: CloudInstancePageQuery): SQL {
  const filters = sql`${q.machineId !== undefined ? sql`and c.machine_id = ${q.machineId}::int` : sql``}
    ${q.status !== undefined ? sql`and ${statusIs(q.status)}` : sql``}
    ${q.active === undefined ? sql`` : q.active ? sql`and c.active` : sql`and not c.active`}`;
  const byClass = q.classId !== undefined ? sql`and m.class_id = ${q.classId}::int` : sql``;
  const matching = sql`from cloud_instances c join machines m on m.id = c.machine_id join accounts a on a.id = m.account_id
    where ${joinedMachineAndAccountVisible(q.hiddenClassIds)} ${filters} ${byClass}`;
  const dir = sql.raw(q.order === 'asc' ? 'asc' : 'desc');
  // The page tests visibility per row (db/visible-machine.ts: the generic plan would join every instance and sort).
  // The class is a join (joinedMachineVisible): with it and the state's estimable form (statusIs) the generic
  // plan walks the launch order to the page (2 ms), where it read every active instance and sorted (550 ms).
  const ids = sql`select c.id from cloud_instances c
    ${q.classId !== undefined ? sql`join machines m on m.id = c.machine_id and ${classIs(sql`m.class_id`, q.classId, q.hiddenClassIds)} where ${joinedMachineVisible(q.hiddenClassIds)}` : sql`where ${machineVisible(sql`c.machine_id`, { hiddenClassIds: q.hiddenClassIds, live: true })}`}
    ${filters}
    order by ${q.sort === 'timestamp' ? sql`c.created_at ${dir}, ` : sql``}c.id ${dir}`;
  return sql`with ${pageCtes(ids, q, cappedCount(sql`select 1 ${matching} order by m.id, c.machine_id`, q.cap))}
    select json_build_object(
      'items', coalesce((select json_agg(x.item order by p.n)
        from p cross join lateral (select ${instanceJson} as item from cloud_instances c join machines m on m.id = c.machine_id where c.id = p.id limit 1) x),
        '[]'::json),
      ${cappedTotalFields(sql`t.n`, q.cap)})::text as page
    from t`;
}

/**
 * A page of the Cloud Instances viewer as JSON text (see
 * {@link cloudInstancePageStatement}), for the routes to send as it is
 * (lib/json-text.ts); a named prepared statement per filter shape.
 */
export async function selectCloudInstancePageText(db: DbOrTx, q: CloudInstancePageQuery): Promise<string> {
  const [row] = await queryPrepared<{ page: string }>(db, cloudInstancePageStatement(q));
  return row!.page;
}

/**
 * The cloud instances of machine `machineId`, newest (highest id) first, at
 * most `limit`, as a machine's record carries them (TMachineCloudInstance,
 * spec 2 §3 Machine cloudInstances): `timestamp` is the launch time, `status`
 * the state now. The caller has checked that the user may see the machine.
 * One walk of `cloud_instances_machine_id_idx` backwards.
 */
export async function selectMachineCloudInstances(db: DbOrTx, machineId: number, limit: number): Promise<TMachineCloudInstance[]> {
  const { rows } = await db.execute<{ instance: TMachineCloudInstance }>(sql`
    select json_build_object('id', c.id, 'cloudId', c.cloud_id, 'hostName', c.host_name, 'ipAddress', c.ip_address,
      'privateIpAddress', c.private_ip_address, 'region', c.region, 'storageSize', c.storage_size,
      'timestamp', ${isoTime(sql`c.created_at`)}, 'status', ${statusNow}, 'active', c.active, 'dnsReady', c.dns_ready) as instance
    from cloud_instances c
    where c.machine_id = ${machineId}::int
    order by c.id desc
    limit ${limit}::int`);
  return rows.map((r) => r.instance);
}
