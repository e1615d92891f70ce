/**
 * SQL of machine tasks (DESIGN §6; `README.md` beside this file): queueing,
 * the claim of a machine's next task, the lease of a Running task (attempt,
 * heartbeat), progress, finishing, cancelling and the sweep that finds work
 * nobody is doing.
 *
 * Every write to a Running task is fenced by its attempt number: a worker whose
 * lease was taken over (its heartbeat went stale and another worker resumed the
 * task) can no longer change it.
 */
import { and, count, desc, eq, getTableColumns, inArray, sql, type Placeholder } from 'drizzle-orm';
import type { TTask, TTaskStatus, TTaskType } from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { machineTasks } from '../../db/schema.js';
import { compileStatement, compiledQuery, executeNamed, preparedPerDb, tableRowMapper } from '../../db/prepared.js';
import { raiseIssue } from '../issues/raise.js';
import { activityInserts, type AuditEntry } from '../../modules/audit/audit.repository.js';
import { machineContextCall, type MachineContext } from './machine-state.repository.js';

export type TaskRow = typeof machineTasks.$inferSelect;

/** Channel of the NOTIFY sent when a task is queued (delivered on commit). */
export const TASK_QUEUED_CHANNEL = 'fleet_task_queued';
/**
 * First key of the advisory lock that serialises claims per machine (second key:
 * machine id). The operation agent's claims take it too, so that an operation
 * never starts while a task of its machine is being started (DESIGN §12).
 */
export const CLAIM_LOCK_NAMESPACE = 4_004;

export function toTask(r: TaskRow): TTask {
  return {
    id: r.id,
    machineId: r.machineId,
    accountId: r.accountId,
    type: r.type as TTaskType,
    status: r.status as TTaskStatus,
    description: r.description,
    progress: r.progress,
    queuedAt: r.queuedAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    completedAt: r.completedAt?.toISOString() ?? null,
    error: r.error,
  };
}

export interface NewTask {
  machineId: number;
  accountId: number;
  type: TTaskType;
  description: string;
  params?: Record<string, unknown>;
}

/**
 * Inserts New tasks inside the caller's transaction and notifies the engines of
 * their machines; the notification is delivered only if the transaction commits.
 */
export async function insertTasks(tx: DbOrTx, tasks: NewTask[]): Promise<TaskRow[]> {
  if (tasks.length === 0) return [];
  const rows = await tx
    .insert(machineTasks)
    .values(tasks.map((t) => ({ ...t, status: 'New', params: t.params ?? {} })))
    .returning();
  const machineIds = [...new Set(tasks.map((t) => t.machineId))];
  // A NOTIFY payload holds at most 8000 bytes: 500 ids per notification.
  for (let i = 0; i < machineIds.length; i += 500) {
    await tx.execute(sql`select pg_notify(${TASK_QUEUED_CHANNEL}, ${machineIds.slice(i, i + 500).join(',')})`);
  }
  return rows;
}

/**
 * The claim's common case (see {@link claimNext}), a select from a function Drizzle's builder cannot write: the
 * task claimed, and the machine's context read after the claim's lock (`context_`, migration 0046).
 */
const CLAIM = compileStatement(
  sql`select t.*, ${machineContextCall(sql`t.machine_id`)} as context_
    from claim_machine_task(${CLAIM_LOCK_NAMESPACE}, ${sql.placeholder('machineId')}, ${sql.placeholder('worker')}) t`,
);
const taskRowOf = tableRowMapper(machineTasks);

/**
 * Queues one New task with the audit activity that caused it (DESIGN §12 one
 * trail), in one statement inside the caller's transaction: the task (its
 * `activityId` set), the activity (its params `entry.params` and `taskId`) and
 * the accounts it names, and the NOTIFY of the task's machine (delivered on
 * commit). Answers undefined, writing nothing, when the machine has a New or
 * Running TerminateMachine task (spec 2 §4: it takes no new task); the check
 * runs after the caller's lock of the machine row, with a snapshot of its own.
 */
export async function insertTaskWithActivity(tx: DbOrTx, task: NewTask, entry: AuditEntry): Promise<{ row: TaskRow; activityId: number } | undefined> {
  const rows = await executeNamed<Record<string, unknown>>(tx, sql`
    with caused_by as (select nextval(pg_get_serial_sequence('audit_activities', 'id'))::int as id),
    task as (
      insert into ${machineTasks} (machine_id, account_id, type, status, description, params, activity_id)
      select ${task.machineId}, ${task.accountId}, ${task.type}, 'New', ${task.description}, ${JSON.stringify(task.params ?? {})}::jsonb, caused_by.id
      from caused_by
      where not exists (select 1 from ${machineTasks} t
        where t.machine_id = ${task.machineId} and t.type = 'TerminateMachine' and t.status in ('New', 'Running'))
      returning *
    ),
    ${activityInserts(entry, { id: sql`task.activity_id`, addParams: sql`jsonb_build_object('taskId', task.id)`, from: sql`task` })}
    select task.*, pg_notify(${TASK_QUEUED_CHANNEL}, task.machine_id::text) from task`);
  if (!rows[0]) return undefined;
  const row = taskRowOf(rows[0]);
  return { row, activityId: row.activityId! };
}

/**
 * The outcome of a claim: the task to run, nothing to do, or another worker is running one. A task claimed
 * in the common case comes with its machine's context (`machine`, undefined when the machine is gone).
 */
export type Claim =
  | { kind: 'claimed'; task: TaskRow; resumed: boolean; abandoned: TaskRow[]; machine?: { context: MachineContext | undefined } }
  | { kind: 'idle'; abandoned: TaskRow[] }
  | { kind: 'busy' };

/**
 * Claims the machine's next task for `worker`, in one transaction under an
 * advisory lock of the machine:
 * - no Running task: the oldest New task becomes Running (attempt 1), in one
 *   statement (the common case: lock, claim, commit);
 * - a Running task with a fresh heartbeat: busy (its worker is alive);
 * - a Running task whose heartbeat is older than `staleMs`: its worker died; it
 *   is resumed (attempt + 1) unless it had `maxAttempts` already, then Failed
 *   (returned in `abandoned`) and the claim goes on;
 * - nothing New: idle.
 */
export async function claimNext(
  db: Db,
  { machineId, worker, staleMs, maxAttempts }: { machineId: number; worker: string; staleMs: number; maxAttempts: number },
): Promise<Claim> {
  // The common case in one round trip: the database function `claim_machine_task` (migration 0045) takes
  // the lock and claims the oldest New task when none is Running.
  const [claimed] = (await db.$client.query(compiledQuery(CLAIM, { machineId, worker }))).rows;
  if (claimed) return { kind: 'claimed', task: taskRowOf(claimed), resumed: false, abandoned: [], machine: { context: claimed.context_ ?? undefined } };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_NAMESPACE}, ${machineId})`);
    const claimOldestNew = async () => {
      const [claimed] = await tx
        .update(machineTasks)
        // statement_timestamp(), not now(): the transaction may have begun before the
        // previous task's finish committed, and a task never starts before it.
        .set({ status: 'Running', startedAt: sql`statement_timestamp()`, attempts: 1, heartbeatAt: sql`now()`, worker, progress: 0 })
        .where(
          sql`${machineTasks.id} = (
            select n.id from ${machineTasks} n
            where n.machine_id = ${machineId} and n.status = 'New'
              and not exists (select 1 from ${machineTasks} r where r.machine_id = ${machineId} and r.status = 'Running')
            order by n.id limit 1 for update)`,
        )
        .returning();
      return claimed;
    };
    const first = await claimOldestNew();
    if (first) return { kind: 'claimed', task: first, resumed: false, abandoned: [] };

    const abandoned: TaskRow[] = [];
    const [running] = await tx
      .select({
        id: machineTasks.id,
        attempts: machineTasks.attempts,
        stale: sql<boolean>`coalesce(${machineTasks.heartbeatAt}, ${machineTasks.startedAt}, ${machineTasks.queuedAt}) < now() - ${staleMs} * interval '1 millisecond'`,
      })
      .from(machineTasks)
      .where(and(eq(machineTasks.machineId, machineId), eq(machineTasks.status, 'Running')));
    if (!running) return { kind: 'idle', abandoned };
    if (!running.stale) return { kind: 'busy' };
    if (running.attempts < maxAttempts) {
      const [resumed] = await tx
        .update(machineTasks)
        .set({ attempts: sql`${machineTasks.attempts} + 1`, heartbeatAt: sql`now()`, worker })
        .where(eq(machineTasks.id, running.id))
        .returning();
      return { kind: 'claimed', task: resumed!, resumed: true, abandoned };
    }
    const [failed] = await tx
      .update(machineTasks)
      .set({
        status: 'Failed',
        completedAt: sql`now()`,
        error: `The worker running this task stopped responding (${running.attempts} attempts)`,
      })
      .where(eq(machineTasks.id, running.id))
      .returning();
    await raiseTaskIssue(tx, failed!);
    abandoned.push(failed!);
    const next = await claimOldestNew();
    return next ? { kind: 'claimed', task: next, resumed: false, abandoned } : { kind: 'idle', abandoned };
  });
}

/** The lease of a Running task: its id and the attempt that holds it. */
export interface Lease {
  taskId: number;
  attempt: number;
}

const leased = (lease: { taskId: number | Placeholder; attempt: number | Placeholder }) =>
  and(eq(machineTasks.id, lease.taskId), eq(machineTasks.status, 'Running'), eq(machineTasks.attempts, lease.attempt));

/** Renews the lease; false when it was lost (taken over or finished elsewhere). */
export async function heartbeat(db: DbOrTx, lease: Lease): Promise<boolean> {
  const rows = await db.update(machineTasks).set({ heartbeatAt: sql`now()` }).where(leased(lease)).returning({ id: machineTasks.id });
  return rows.length > 0;
}

/** Sets progress (0–100) and renews the lease; undefined when the lease was lost. */
export async function updateProgress(db: DbOrTx, lease: Lease, progress: number): Promise<TaskRow | undefined> {
  const [row] = await db
    .update(machineTasks)
    .set({ progress: Math.max(0, Math.min(100, Math.round(progress))), heartbeatAt: sql`now()` })
    .where(leased(lease))
    .returning();
  return row;
}

/** Merges checkpoint values into the task's params; false when the lease was lost. */
export async function mergeParams(db: DbOrTx, lease: Lease, patch: Record<string, unknown>): Promise<boolean> {
  const rows = await db
    .update(machineTasks)
    .set({ params: sql`${machineTasks.params} || ${JSON.stringify(patch)}::jsonb`, heartbeatAt: sql`now()` })
    .where(leased(lease))
    .returning({ id: machineTasks.id });
  return rows.length > 0;
}

/**
 * Gives up the lease of a task this worker stops working on (the engine is
 * stopping): its heartbeat is made stale, so the next sweep resumes it at once.
 */
export async function releaseLease(db: DbOrTx, lease: Lease): Promise<void> {
  await db.update(machineTasks).set({ heartbeatAt: new Date(0) }).where(leased(lease));
}

/**
 * Ends a Running task as Completed (progress 100) or Failed with its error;
 * undefined when the lease was lost. A failure raises its `task` issue in the
 * same transaction (DESIGN §14). `more` says whether the machine had a New task
 * when it finished: the drain claims again only then (a task queued after it
 * wakes the machine with its own notification).
 */
export async function finishTask(
  db: Db,
  lease: Lease,
  outcome: { status: 'Completed' } | { status: 'Failed'; error: string },
): Promise<{ task: TaskRow; more: boolean } | undefined> {
  const split = (row: (TaskRow & { more: boolean }) | undefined) => {
    if (!row) return undefined;
    const { more, ...task } = row;
    return { task, more };
  };
  // A completion is one statement, written out once; a failure also raises its issue, in the same transaction.
  if (outcome.status === 'Completed') {
    const [row] = await completeQuery(db).execute({ taskId: lease.taskId, attempt: lease.attempt });
    return split(row);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(machineTasks)
      .set({ status: 'Failed', completedAt: sql`now()`, error: outcome.error.slice(0, 2000) })
      .where(leased(lease))
      .returning(finishedColumns);
    const finished = split(row);
    if (finished) await raiseTaskIssue(tx, finished.task);
    return finished;
  });
}

/** A finished task's row, and whether its machine has a New task. */
const finishedColumns = {
  ...getTableColumns(machineTasks),
  // Qualified by hand: Drizzle writes a RETURNING column unqualified, which inside the subquery would mean n's.
  more: sql<boolean>`exists (select 1 from ${machineTasks} n where n.machine_id = "machine_tasks"."machine_id" and n.status = 'New')`,
};

const completeQuery = preparedPerDb((db: Db) =>
  db
    .update(machineTasks)
    .set({ status: 'Completed', completedAt: sql`now()`, error: null, progress: 100 })
    .where(leased({ taskId: sql.placeholder('taskId'), attempt: sql.placeholder('attempt') }))
    .returning(finishedColumns)
    .prepare('complete_machine_task'),
);

/** The `task` issue of a Failed task: "<type> failed: <error>", tagged task and the type. */
async function raiseTaskIssue(tx: DbOrTx, task: TaskRow): Promise<void> {
  const error = task.error ?? 'unknown error';
  await raiseIssue(tx, {
    machineId: task.machineId,
    source: 'task',
    description: `${task.type} failed: ${error.split('\n')[0]}`,
    tags: ['task', task.type],
    content: `Task ${task.id} (${task.description}) failed after ${task.attempts} attempt(s): ${error}`,
  });
}

/**
 * Machines with work nobody is doing: a New task queued more than
 * `orphanAfterMs` ago while no task of the machine runs (its wake-up was lost,
 * or it was queued without one, as account deletion does), or a Running task
 * whose heartbeat is older than `staleMs` (its worker died).
 */
export async function selectMachinesNeedingWork(
  db: DbOrTx,
  { staleMs, orphanAfterMs, limit }: { staleMs: number; orphanAfterMs: number; limit: number },
): Promise<number[]> {
  const { rows } = await db.execute<{ machineId: number }>(sql`
    select distinct t.machine_id as "machineId" from ${machineTasks} t
    where (t.status = 'New' and t.queued_at < now() - ${orphanAfterMs} * interval '1 millisecond'
           and not exists (select 1 from ${machineTasks} r where r.machine_id = t.machine_id and r.status = 'Running'))
       or (t.status = 'Running'
           and coalesce(t.heartbeat_at, t.started_at, t.queued_at) < now() - ${staleMs} * interval '1 millisecond')
    limit ${limit}`);
  return rows.map((r) => r.machineId);
}

/**
 * Cancels a New task of the machine. Answers the cancelled task, or the status
 * that prevented it, or undefined when the machine has no such task.
 */
export async function cancelNewTask(
  tx: DbOrTx,
  { machineId, taskId }: { machineId: number; taskId: number },
): Promise<{ cancelled: TaskRow } | { status: string } | undefined> {
  const [cancelled] = await tx
    .update(machineTasks)
    .set({ status: 'Cancelled', completedAt: sql`now()` })
    .where(and(eq(machineTasks.id, taskId), eq(machineTasks.machineId, machineId), eq(machineTasks.status, 'New')))
    .returning();
  if (cancelled) return { cancelled };
  const [other] = await tx
    .select({ status: machineTasks.status })
    .from(machineTasks)
    .where(and(eq(machineTasks.id, taskId), eq(machineTasks.machineId, machineId)));
  return other;
}

/** The machine's tasks, newest first. */
export async function selectMachineTasks(db: DbOrTx, { machineId, startIndex, limit }: { machineId: number; startIndex: number; limit: number }) {
  const [rows, [total]] = await Promise.all([
    db.select().from(machineTasks).where(eq(machineTasks.machineId, machineId)).orderBy(desc(machineTasks.id)).offset(startIndex).limit(limit),
    db.select({ n: count() }).from(machineTasks).where(eq(machineTasks.machineId, machineId)),
  ]);
  return { items: rows.map(toTask), totalItems: total?.n ?? 0 };
}

/**
 * Records the audit activity that caused the tasks (DESIGN §12 one trail), in the
 * transaction that queued them and recorded the activity. Services record the
 * activity after queueing, since its params name the task ids.
 */
export async function linkTasksToActivity(tx: DbOrTx, taskIds: number[], activityId: number): Promise<void> {
  if (taskIds.length === 0) return;
  await tx.update(machineTasks).set({ activityId }).where(inArray(machineTasks.id, taskIds));
}
