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
import { MACHINE_RECENT_OPERATIONS, type TOperation } from '@fleet/contracts';
import { isoTime } from '../../db/sql-json.js';
import { machines } from '../../db/schema.js';

/**
 * JSON of the operation row `o` (TOperation). `machine` gives the machine's
 * name and current failCounter (an unfinished operation shows the machine's
 * counter now, a finished one the counter it left).
 */
export function operationJson(machine: { name: SQL; failCounter: SQL }): SQL<TOperation> {
  const description = sql`(select ot.description from operation_types ot where ot.id = o.type_id)`;
  return sql<TOperation>`json_build_object(
    'id', o.id, 'machineId', o.machine_id, 'accountId', o.account_id,
    'machineName', ${machine.name}, 'machineClassId', o.class_id,
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
    'operationMode', o.operation_mode, 'activityId', o.activity_id)`;
}

/**
 * The recent operations of the outer query's `machines` row as a JSON array of
 * TOperation: unfinished ones first, then the latest finished, at most
 * MACHINE_RECENT_OPERATIONS, newest first within each (spec 2 §2.2: the status
 * column shows the latest). One walk of `operations_machine_idx` per machine.
 */
export const recentOperations = sql<TOperation[]>`(
  select coalesce(json_agg(r.op order by r.unfinished desc, r.id desc), '[]'::json)
  from (
    select o.id, o.finished_at is null as unfinished,
      ${operationJson({ name: sql`${machines.name}`, failCounter: sql`${machines.failCounter}` })} as op
    from operations o where o.machine_id = ${machines.id}
    order by o.finished_at is null desc, o.id desc limit ${MACHINE_RECENT_OPERATIONS}) r)`;
