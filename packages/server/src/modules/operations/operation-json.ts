/**
 * An operation as the API answers it (TOperation, spec 2 §3 Operation), built by
 * PostgreSQL, so that lists of operations and the machines list (which carries
 * each machine's recent operations) need one statement per page.
 *
 * The fragments read an `operations` row aliased `o`; the caller joins nothing:
 * the type's description and the class name are scalar subqueries on the
 * catalogues (tiny, cached), the machine's name and failCounter are given.
 */
import { sql, type SQL } from 'drizzle-orm';
import { MACHINE_UNFINISHED_OPERATIONS, type TOperation } from '@fleet/contracts';
import { isoTime } from '../../db/sql-json.js';
import { waitingJson } from '../../engine/operations/start-rules.js';

/**
 * JSON of the operation row `o` (TOperation). `machine` gives the machine's
 * name and current failCounter (an unfinished operation shows the machine's
 * counter now, a finished one the counter it left).
 */
export function operationJson(machine: { name: SQL; failCounter: SQL }): SQL<TOperation> {
  const description = sql`(select ot.description from operation_types ot where ot.id = o.type_id)`;
  return sql<TOperation>`json_build_object(
    'id', o.id, 'machineId', o.machine_id, 'accountId', o.account_id,
    'machineName', ${machine.name}, 'accountName', coalesce((select a.name from accounts a where a.id = o.account_id), 'Account ' || o.account_id),
    'machineClassId', o.class_id,
    'machineClassName', coalesce((select mc.name from mma_classes mc where mc.id = o.class_id), 'Class ' || o.class_id),
    'type', json_build_object('name', o.type_name, 'description', ${description}),
    'typeName', o.type_name, 'operationTypeName', o.type_name, 'operationTypeDescription', ${description},
    'timestamp', ${isoTime(sql`o.queued_at`)}, 'notBefore', ${isoTime(sql`o.not_before`)},
    'startTime', ${isoTime(sql`o.started_at`)}, 'finishTime', ${isoTime(sql`o.finished_at`)},
    'runningTime', case when o.started_at is null then null
      else round(extract(epoch from coalesce(o.finished_at, statement_timestamp()) - o.started_at)::numeric, 3) end,
    'user', o.user_name, 'status', o.status, 'pending', o.pending,
    'decision', o.decision, 'decidedBy', o.decided_by, 'params', o.params,
    'timeout', o.timeout_seconds,
    'failCounter', case when o.finished_at is null then ${machine.failCounter} else o.fail_counter end,
    'operationMode', o.operation_mode, 'activityId', o.activity_id, 'waiting', ${waitingJson})`;
}

/**
 * The unfinished operations of the machines of `page` (a relation with the
 * machines' id, name and fail_counter: the machine list's page) as rows
 * (machine_id, operations): a JSON array of TOperation per machine that has
 * any, newest first, at most MACHINE_UNFINISHED_OPERATIONS (spec 2 §2.2: the
 * status column shows the latest pending, cancelled or running one; the row is
 * a warning while one is pending). One scan of the partial index
 * `operations_unfinished_idx` for the whole page, not a subquery per machine.
 */
export function unfinishedOperations(page: SQL): SQL {
  // The operations are chosen first and joined to their machine after: joining
  // the page inside the scan made each of its index probes test the page's ids
  // again (a sort of the id array per probe).
  return sql`select o.machine_id, json_agg(${operationJson({ name: sql`pm.name`, failCounter: sql`pm.fail_counter` })} order by o.id desc) as operations
    from (
      select o.*, row_number() over (partition by o.machine_id order by o.id desc) as n
      from operations o
      where o.machine_id = any(array(select id from ${page})) and o.finished_at is null) o
    join ${page} pm on pm.id = o.machine_id
    where o.n <= ${MACHINE_UNFINISHED_OPERATIONS}
    group by o.machine_id`;
}
