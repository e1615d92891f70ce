/**
 * SQL of the operations calls (spec 2 §2.6, §7 Machines and Operations; DESIGN
 * §12): pages of operations, one operation's logs, operators' decisions, the
 * reset of a machine's last operation, the catalogue facts the dialogs are
 * checked against, and the facts of the simulated site server status.
 *
 * Visibility (DESIGN §5): an operation is visible when neither its machine's
 * class nor its account's class is hidden (the current classes, joined, as the
 * machines list decides). Operations of deleted machines stay visible: the
 * viewer is a history.
 */
import { and, asc, desc, eq, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  OPERATION_FILTER_STATUSES,
  OPERATIONS_COUNT_AHEAD,
  type TActivityTrail,
  type TOperation,
  type TOperationDecision,
  type TOperationFilterStatus,
  type TOperationSort,
  type TSortOrder,
  type TOperationType,
  type TOperationTypeName,
  type TSiteServerStatus,
} from '@fleet/contracts';
import { cappedCount, cappedTotalFields, countCap, pageCtes } from '../../db/capped-count.js';
import type { DbOrTx } from '../../db/client.js';
import { queryPrepared } from '../../db/prepared.js';
import {
  auditActivities,
  auditActivityAccounts,
  cloudInstances,
  irmnVersions,
  machines,
  machineTasks,
  operations,
  operationTypes,
  softwareBranches,
} from '../../db/schema.js';
import { toTask } from '../../engine/tasks/tasks.repository.js';
import { OPERATION_QUEUED_CHANNEL } from '../../engine/operations/operations.repository.js';
import { remoteClass } from '../../engine/operations/start-rules.js';
import { operationJson } from './operation-json.js';

/** The JSON of the operation row `o` joined with its machine `m`. */
const json = operationJson({ name: sql`m.name`, failCounter: sql`m.fail_counter` });

/** `o` is visible: neither its machine's class nor its account's class is hidden. Needs `m` and `a` joined. */
function visible(hiddenClassIds: number[]): SQL | undefined {
  if (hiddenClassIds.length === 0) return undefined;
  return and(notInArray(sql`m.class_id`, hiddenClassIds), notInArray(sql`a.class_id`, hiddenClassIds));
}

export interface OperationFilter {
  hiddenClassIds: number[];
  machineId?: number;
  accountId?: number;
  classId?: number;
  status?: TOperationFilterStatus[];
  type?: TOperationTypeName;
  pending?: boolean;
  /** Queued at or after / at or before (ISO 8601). */
  from?: string;
  to?: string;
}

/**
 * The rows of the viewer's statuses: a stored status, QUEUED (none, not
 * pending, unfinished) or PENDING. The stored statuses are literals (each one
 * of {@link OPERATION_FILTER_STATUSES}, checked here), not parameters: a
 * generic plan could not use the partial index of the failures
 * (`operations_class_failures_idx`) otherwise, and walked every operation
 * in the viewer's order to find a class's few failures (issue 24, bench/fleet).
 */
function statusCondition(statuses: TOperationFilterStatus[]): SQL | undefined {
  if (statuses.length === 0) return undefined;
  const stored = statuses.filter((s) => s !== 'QUEUED' && s !== 'PENDING');
  for (const s of stored) if (!OPERATION_FILTER_STATUSES.includes(s)) throw new Error(`Unknown operation status ${s}`);
  const parts = [
    stored.length > 0 ? sql.raw(`o.status in (${stored.map((s) => `'${s}'`).join(', ')})`) : undefined,
    statuses.includes('QUEUED') ? sql`(o.status is null and not o.pending and o.finished_at is null)` : undefined,
    statuses.includes('PENDING') ? sql`(o.status is null and o.pending)` : undefined,
  ].filter((x): x is SQL => x !== undefined);
  return sql`(${sql.join(parts, sql` or `)})`;
}

function where(f: OperationFilter): SQL {
  return and(
    sql`true`,
    visible(f.hiddenClassIds),
    f.machineId !== undefined ? sql`o.machine_id = ${f.machineId}` : undefined,
    f.accountId !== undefined ? sql`o.account_id = ${f.accountId}` : undefined,
    f.classId !== undefined ? sql`o.class_id = ${f.classId}` : undefined,
    f.status ? statusCondition(f.status) : undefined,
    f.type !== undefined ? sql`o.type_name = ${f.type}` : undefined,
    f.from !== undefined ? sql`o.queued_at >= ${f.from}::timestamptz` : undefined,
    f.to !== undefined ? sql`o.queued_at <= ${f.to}::timestamptz` : undefined,
    // A literal, not a parameter: a generic plan could not use the partial index `operations_pending_idx` otherwise.
    f.pending === undefined ? undefined : f.pending ? sql`o.pending` : sql`not o.pending`,
  )!;
}

/** The joins the filter needs: the machine (its name is in the JSON) when asked, both when classes are hidden. */
const joins = (f: OperationFilter, withMachine: boolean) =>
  sql.join(
    [
      withMachine || f.hiddenClassIds.length > 0 ? sql`join machines m on m.id = o.machine_id` : undefined,
      f.hiddenClassIds.length > 0 ? sql`join accounts a on a.id = o.account_id` : undefined,
    ].filter((x): x is SQL => x !== undefined),
    sql` `,
  );

/**
 * A page of visible operations matching the filter, newest (highest id) first,
 * as JSON text (TOperationsPage: `{ items, totalItems, totalCapped }`) for the
 * route to send as it is (lib/json-text.ts).
 *
 * The page walks an index backwards by id (the primary key, or
 * `(machine_id, id)`, `(account_id, id)`, `(type_name, id)`, the partial
 * `pending` index) and stops after `startIndex + limit` rows. A short page ends
 * the list (db/capped-count.ts pageTotal); else the total is counted
 * on the same plan but stops `OPERATIONS_COUNT_AHEAD` rows past the page: a
 * filter matching more answers that many with `totalCapped` (a count of a
 * million rows per page would cost more than the page). One named prepared
 * statement (db/prepared.ts): the page's plan cost more than its run, and
 * the rows as JSON text spare the server parsing, checking and writing them
 * out again.
 */
/** A page of the viewer: paging and its order (`queued` by default, newest first). */
export interface OperationPageQuery extends OperationFilter {
  startIndex: number;
  limit: number;
  sort?: TOperationSort;
  order?: TSortOrder;
}

/**
 * The page's order: `queued` is the id (queue order); `started` and `finished`
 * their time then the id, on `operations_started_idx` / `operations_finished_idx`
 * (walked forwards or backwards whole, so nulls come first descending, last
 * ascending, PostgreSQL's default for each direction).
 */
function orderBy(q: OperationPageQuery): SQL {
  const dir = sql.raw(q.order === 'asc' ? 'asc' : 'desc');
  if (q.sort === 'started') return sql`o.started_at ${dir}, o.id ${dir}`;
  if (q.sort === 'finished') return sql`o.finished_at ${dir}, o.id ${dir}`;
  return sql`o.id ${dir}`;
}

export async function selectOperationPageText(db: DbOrTx, q: OperationPageQuery): Promise<string> {
  const [row] = await queryPrepared<{ page: string }>(db, operationPageStatement(q));
  return row!.page;
}

/** A page of visible operations (see {@link selectOperationPageText}). */
export async function selectOperationPage(
  db: DbOrTx,
  q: OperationPageQuery,
): Promise<{ items: TOperation[]; totalItems: number; totalCapped: boolean }> {
  return JSON.parse(await selectOperationPageText(db, q)) as { items: TOperation[]; totalItems: number; totalCapped: boolean };
}

/**
 * The statement of {@link selectOperationPageText}: one row, `page`. The page's
 * ids first, then the JSON of those rows only (rows skipped by the offset are
 * not built), each in a lateral subquery (`limit 1`); the capped count beside
 * them, evaluated once (exported for EXPLAIN in tests and benchmarks).
 *
 * Its offset and limit are parameters, which the generic plan estimates at a
 * tenth of the table: the page therefore tests hidden classes per row in
 * scalar subqueries (never turned into joins, so the index walk stays a walk,
 * `db/visible-machine.ts`) and joins its rows back one by one; a plain join
 * back was planned as a hash join over every operation.
 */
export function operationPageStatement(q: OperationPageQuery): SQL {
  const cap = countCap(q, OPERATIONS_COUNT_AHEAD);
  const hidden = sql.param(q.hiddenClassIds);
  const pageVisible =
    q.hiddenClassIds.length > 0
      ? sql`and coalesce((select m.class_id <> all(${hidden}::int[]) from machines m where m.id = o.machine_id), false)
          and coalesce((select a.class_id <> all(${hidden}::int[]) from accounts a where a.id = o.account_id), false)`
      : sql``;
  const order = orderBy(q);
  const ids = sql`select o.id from operations o where ${where({ ...q, hiddenClassIds: [] })} ${pageVisible} order by ${order}`;
  // The count is ordered like the page, so that the planner walks the page's index: without an
  // order, a filter it expects to match often is counted by a scan of the table, which is slow
  // when the filter (two columns together) matches little.
  const counted = sql`select o.id from operations o ${joins(q, false)} where ${where(q)} order by ${order}`;
  return sql`with ${pageCtes(ids, q, cappedCount(counted, cap))}
    select json_build_object(
      'items', coalesce((select json_agg(x.op order by p.n)
        from p cross join lateral (select ${json} as op from operations o join machines m on m.id = o.machine_id where o.id = p.id limit 1) x),
        '[]'::json),
      ${cappedTotalFields(sql`t.n`, cap)})::text as page
    from t`;
}

/** A machine's operations, newest first, with the exact total (a machine has few). */
export async function selectMachineOperations(
  db: DbOrTx,
  q: { machineId: number; startIndex: number; limit: number },
): Promise<{ items: TOperation[]; totalItems: number }> {
  const [page, counted] = await Promise.all([
    db.execute<{ op: TOperation }>(sql`
      select ${json} as op from operations o join machines m on m.id = o.machine_id
      where o.machine_id = ${q.machineId} order by o.id desc offset ${q.startIndex} limit ${q.limit}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from operations o where o.machine_id = ${q.machineId}`),
  ]);
  return { items: page.rows.map((r) => r.op), totalItems: counted.rows[0]?.n ?? 0 };
}

/** How many visible operations wait for approval (pending, not started, not decided): one scan of `operations_pending_idx`. */
export async function countPendingApprovals(db: DbOrTx, q: { hiddenClassIds: number[] }): Promise<number> {
  const f: OperationFilter = { hiddenClassIds: q.hiddenClassIds, pending: true };
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from operations o ${joins(f, false)}
    where ${where(f)} and o.status is null and o.finished_at is null`);
  return rows[0]?.n ?? 0;
}

/** A visible operation (TOperation, with what it waits for), or undefined (unknown or hidden). */
export async function selectVisibleOperation(db: DbOrTx, q: { id: number; hiddenClassIds: number[] }): Promise<TOperation | undefined> {
  const f: OperationFilter = { hiddenClassIds: q.hiddenClassIds };
  const { rows } = await db.execute<{ op: TOperation }>(sql`select ${json} as op from operations o ${joins(f, true)} where o.id = ${q.id} and ${where(f)}`);
  return rows[0]?.op;
}

/** A visible operation's output or deployer log, or undefined (unknown or hidden). */
export async function selectOperationLog(
  db: DbOrTx,
  q: { id: number; hiddenClassIds: number[]; log: 'output' | 'deployer_log' },
): Promise<string | undefined> {
  const f: OperationFilter = { hiddenClassIds: q.hiddenClassIds };
  const { rows } = await db.execute<{ content: string }>(sql`
    select ${sql.raw(`o.${q.log}`)} as content from operations o ${joins(f, false)}
    where o.id = ${q.id} and ${where(f)}`);
  return rows[0]?.content;
}

/** The operation of the machine with its state, or undefined. */
export async function findMachineOperation(db: DbOrTx, q: { machineId: number; operationId: number }) {
  const [row] = await db
    .select({ id: operations.id, status: operations.status, pending: operations.pending, finishedAt: operations.finishedAt, decision: operations.decision })
    .from(operations)
    .where(and(eq(operations.id, q.operationId), eq(operations.machineId, q.machineId)));
  return row;
}

/**
 * Records an operator's decision (OPS-SEMANTICS): PROCEED only while pending
 * (not started); CANCEL while not finished (queued, pending or RUNNING: a
 * running one is stopped by whoever runs it at its next heartbeat, issue 27).
 * Both clear `pending`, name who decided and notify the agents (delivered on
 * commit).
 * Answers false when the operation is not (or no longer) in a state that allows
 * it: the condition is part of the update, so an agent starting it at the same
 * moment wins or loses cleanly.
 */
export async function decideOperation(
  tx: DbOrTx,
  q: { machineId: number; operationId: number; decision: TOperationDecision; user: string },
): Promise<boolean> {
  const rows = await tx
    .update(operations)
    .set({ pending: false, decision: q.decision, decidedBy: q.user })
    .where(
      and(
        eq(operations.id, q.operationId),
        eq(operations.machineId, q.machineId),
        isNull(operations.finishedAt),
        q.decision === 'PROCEED' ? and(eq(operations.pending, true), isNull(operations.status)) : sql`${operations.decision} is distinct from 'CANCEL'`,
      ),
    )
    .returning({ id: operations.id });
  if (rows.length === 0) return false;
  await tx.execute(sql`select pg_notify(${OPERATION_QUEUED_CHANNEL}, ${String(q.machineId)})`);
  return true;
}

/**
 * Ends the machine's latest unfinished operation (queued, pending or running) as
 * FAILURE with the line `Reset by {user}`, clearing its lease so that a worker
 * still running it is fenced out (its writes require status RUNNING). The
 * machine's failCounter is stored unchanged. Answers the operation's id and the
 * status it had, or undefined when the machine has none.
 */
export async function resetLastOperation(tx: DbOrTx, q: { machineId: number; user: string }): Promise<{ id: number; status: string | null } | undefined> {
  const [last] = await tx
    .select({ id: operations.id, status: operations.status })
    .from(operations)
    .where(and(eq(operations.machineId, q.machineId), isNull(operations.finishedAt)))
    .orderBy(desc(operations.id))
    .limit(1)
    .for('update');
  if (!last) return undefined;
  await tx
    .update(operations)
    .set({
      status: 'FAILURE',
      finishedAt: sql`now()`,
      pending: false,
      output: sql`${operations.output} || to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' ' || ${`Reset by ${q.user}`} || E'\n'`,
      worker: null,
      heartbeatAt: null,
      failCounter: sql`(select ${machines.failCounter} from ${machines} where ${machines.id} = ${q.machineId})`,
    })
    .where(eq(operations.id, last.id));
  return last;
}

/** The operation types of a class that Queue Operations offers (canBeManual), by name. */
export async function selectManualOperationTypes(db: DbOrTx, classId: number): Promise<TOperationType[]> {
  const rows = await db
    .select()
    .from(operationTypes)
    .where(and(eq(operationTypes.machineClassId, classId), eq(operationTypes.canBeManual, true)))
    .orderBy(asc(operationTypes.name));
  return rows.map((r) => ({
    id: r.id,
    name: r.name as TOperationTypeName,
    description: r.description,
    canBeManual: r.canBeManual,
    machineClassId: r.machineClassId,
    timeout: r.timeoutSeconds,
  }));
}

/** The branches of that name: several repositories may have one. */
export async function selectBranches(db: DbOrTx, name: string) {
  return db.select({ repo: softwareBranches.repo, repoMissing: softwareBranches.repoMissing }).from(softwareBranches).where(eq(softwareBranches.name, name));
}

/** Whether an IRMN version of that name exists. */
export async function irmnVersionExists(db: DbOrTx, name: string): Promise<boolean> {
  const [row] = await db.select({ id: irmnVersions.id }).from(irmnVersions).where(eq(irmnVersions.name, name));
  return row !== undefined;
}

/** What the simulated site server status is computed from: the active instance's status and the last finished operation's. */
export async function selectSiteServerFacts(db: DbOrTx, machineId: number) {
  const [instance] = await db
    .select({ status: cloudInstances.status })
    .from(cloudInstances)
    .where(and(eq(cloudInstances.machineId, machineId), eq(cloudInstances.active, true)))
    .orderBy(desc(cloudInstances.id))
    .limit(1);
  const [last] = await db
    .select({ status: operations.status, typeName: operations.typeName })
    .from(operations)
    .where(and(eq(operations.machineId, machineId), sql`${operations.finishedAt} is not null`))
    .orderBy(desc(operations.id))
    .limit(1);
  const { rows } = await db.execute<{ remote: boolean; reported: TSiteServerStatus | null }>(sql`
    select ${remoteClass} as remote,
      (select r.site_server_status from machine_reports r where r.machine_id = m.id) as reported
    from machines m where m.id = ${machineId}`);
  return { instanceStatus: instance?.status ?? null, lastFinished: last ?? null, remote: rows[0]?.remote ?? false, reported: rows[0]?.reported ?? null };
}

/**
 * The trail of an audit activity (DESIGN §12 one trail): the tasks and the
 * operations it caused, oldest first, those of hidden machines left out; or
 * undefined when the activity is unknown or concerns an account of a hidden class
 * (hidden like in `GET /user-activities`).
 */
export async function selectTrail(db: DbOrTx, q: { activityId: number; hiddenClassIds: number[] }): Promise<TActivityTrail | undefined> {
  const hidden = q.hiddenClassIds;
  const [activity] = await db
    .select({ id: auditActivities.id })
    .from(auditActivities)
    .where(
      and(
        eq(auditActivities.id, q.activityId),
        hidden.length > 0
          ? sql`not exists (select 1 from ${auditActivityAccounts} aa where aa.activity_id = ${auditActivities.id} and ${inArray(sql`aa.class_id`, hidden)})`
          : undefined,
      ),
    );
  if (!activity) return undefined;
  const f: OperationFilter = { hiddenClassIds: hidden };
  const [tasks, ops] = await Promise.all([
    db
      .select({ task: machineTasks })
      .from(machineTasks)
      .innerJoin(sql`machines m`, sql`m.id = ${machineTasks.machineId}`)
      .innerJoin(sql`accounts a`, sql`a.id = ${machineTasks.accountId}`)
      .where(and(eq(machineTasks.activityId, q.activityId), visible(hidden)))
      .orderBy(asc(machineTasks.id)),
    db.execute<{ op: TOperation }>(sql`
      select ${json} as op from operations o ${joins(f, true)}
      where o.activity_id = ${q.activityId} and ${where(f)} order by o.id`),
  ]);
  return { tasks: tasks.map((r) => toTask(r.task)), operations: ops.rows.map((r) => r.op) };
}
