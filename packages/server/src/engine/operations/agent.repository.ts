/**
 * SQL of the operation agent (DESIGN §12; invariants in `README.md` beside this
 * file): the claim of the next operation of many machines at once under the
 * start rules, the lease of a RUNNING operation (attempt, heartbeat, worker),
 * its logs and checkpoints, the finish of many operations at once with their
 * machines' failCounter and Panic, the level-driven pass that finds work
 * nobody is doing, and the anomaly rule.
 *
 * Every write to a RUNNING operation is fenced by its lease:
 * `where status = 'RUNNING' and attempts = <attempt>`. A worker whose operation
 * was resumed elsewhere, timed out, or reset by an operator changes nothing.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TOperation } from '@fleet/contracts';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { accounts, irmnVersions, machines, operations, saasImages } from '../../db/schema.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import { operationJson } from '../../modules/operations/operation-json.js';
import { CLAIM_LOCK_NAMESPACE } from '../tasks/tasks.repository.js';
import { raiseIssue } from '../issues/raise.js';
import type { EffectMachine } from './effects.js';
import type { OperationRow } from './operations.repository.js';

/** The user the agent records its own actions as (DESIGN §12). */
export const AGENT_USER = 'MMA';

/** The lease of a RUNNING operation: its id and the attempt that holds it. */
export interface OperationLease {
  operationId: number;
  attempt: number;
}

/** How an operation ends. `counts`: a failure that raises the machine's failCounter (not a cancel). */
export type OperationOutcome = { status: 'SUCCESS' } | { status: 'FAILURE'; message: string; counts: boolean };

/** An operation the agent ended. */
export interface EndedOperation {
  id: number;
  machineId: number;
  classId: number;
  status: 'SUCCESS' | 'FAILURE';
  /** A failure that raised the machine's failCounter (feeds the anomaly rule). */
  counted: boolean;
  /** The machine's failCounter after it. */
  failCounter: number;
  /** This failure put the machine in Panic (failCounter reached the threshold). */
  panicked: boolean;
}

/** One log line as stored: ISO time (UTC, ms), a space, the text, a newline. */
export const logLine = (text: string, at = new Date()) => `${at.toISOString()} ${text}\n`;

/** The same line made by PostgreSQL (for lines written inside a claim). */
const sqlLogLine = (text: SQL) => sql`to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' ' || ${text} || E'\\n'`;

const leased = (lease: OperationLease) =>
  and(eq(operations.id, lease.operationId), eq(operations.status, 'RUNNING'), eq(operations.attempts, lease.attempt));

/**
 * The operation `o` may start as far as it goes (DESIGN §12, OPS-SEMANTICS):
 * queued, not waiting for approval, not cancelled, its notBefore reached.
 */
const operationStartable = sql`o.status is null and o.finished_at is null and not o.pending
  and o.decision is distinct from 'CANCEL' and (o.not_before is null or o.not_before <= now())`;

/**
 * The state of the machine's active instance as the simulated cloud will report
 * it at its next read: a transition whose time has come counts as done.
 */
const activeInstanceState = sql`(select case when c.next_status is not null and c.settles_at <= now() then c.next_status else c.status end
  from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1)`;

/**
 * The machine `m` lets an operation start: managed, not in manual maintenance,
 * not in Panic, not deleted or being terminated, no Running task, its instance
 * running, its class not on standby. (No RUNNING operation is checked apart.)
 */
const machineReady = sql`m.managed and not m.manual_maintenance and not m.needs_admin
  and m.deleted_at is null and not m.terminate
  and not exists (select 1 from machine_tasks t where t.machine_id = m.id and t.status = 'Running')
  and not exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.standby)
  and ${activeInstanceState} = 'running'`;

/** A RUNNING operation `o` whose worker stopped renewing its lease. */
const staleLease = (staleMs: number) => sql`coalesce(o.heartbeat_at, o.started_at) < now() - ${staleMs} * interval '1 millisecond'`;
/** A RUNNING operation `o` past its timeout by more than `graceMs`. */
const overdue = (graceMs: number) => sql`o.started_at + o.timeout_seconds * interval '1 second' + ${graceMs} * interval '1 millisecond' < now()`;

export interface ClaimOptions {
  /** The machines to claim for (any order, duplicates ignored). */
  machineIds: number[];
  worker: string;
  staleMs: number;
  maxAttempts: number;
  panicFailures: number;
}

/** An operation a claim made RUNNING for the worker: started (attempt 1) or resumed (attempt + 1). */
export interface ClaimedOperation {
  operation: OperationRow;
  resumed: boolean;
  /** Milliseconds left before its timeout. */
  remainingMs: number;
}

/**
 * The outcome of a claim: the operations it made RUNNING (at most one per
 * machine), the operations it ended itself (cancelled, timed out, abandoned),
 * and the machines whose RUNNING operation holds a fresh lease (busy).
 * A machine in none of these has nothing it may start now (idle).
 */
export interface OperationClaims {
  claimed: ClaimedOperation[];
  ended: EndedOperation[];
  busy: number[];
}

/**
 * Claims the next operation of each of the machines for `worker`, in one
 * transaction under their claim locks (shared with the task engine; taken in
 * machine id order, so two claims never wait on each other in a cycle). For
 * each machine:
 * 1. operations decided CANCEL and not started end FAILURE "Cancelled by X"
 *    (failCounter unchanged);
 * 2. a RUNNING operation past its timeout whose lease is stale, or past it by
 *    more than `staleMs` whatever its lease, ends FAILURE (timed out); one whose
 *    lease is stale is resumed (attempt + 1) or, after `maxAttempts`, ends
 *    FAILURE "The worker running this operation stopped responding"; one whose
 *    lease is fresh makes the machine busy;
 * 3. otherwise the oldest startable operation (lowest id) becomes RUNNING
 *    (attempt 1) if the machine lets it start.
 *
 * Steps 1 and 3 are one statement each for all the machines; step 2 touches
 * only machines with a RUNNING operation. Answers empty lists for no machines.
 */
export async function claimOperations(db: Db, o: ClaimOptions): Promise<OperationClaims> {
  const ids = [...new Set(o.machineIds)].sort((a, b) => a - b);
  if (ids.length === 0) return { claimed: [], ended: [], busy: [] };
  return db.transaction(async (tx) => {
    // unnest keeps the array's (ascending) order, so the locks are taken in machine id order.
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_NAMESPACE}, t.id) from unnest(${sql.param(ids)}::int[]) as t(id)`);
    const ended: EndedOperation[] = [];
    const claimed: ClaimedOperation[] = [];
    const busy: number[] = [];
    const cancelled = await tx.execute<{ id: number; machineId: number; classId: number; failCounter: number }>(sql`
      update operations o set status = 'FAILURE', finished_at = now(), pending = false,
        fail_counter = (select m.fail_counter from machines m where m.id = o.machine_id),
        output = o.output || ${sqlLogLine(sql`'Cancelled by ' || coalesce(o.decided_by, 'an operator')`)}
      where o.machine_id = any(${sql.param(ids)}::int[]) and o.status is null and o.finished_at is null and o.decision = 'CANCEL'
      returning o.id, o.machine_id as "machineId", o.class_id as "classId", o.fail_counter as "failCounter"`);
    for (const c of cancelled.rows) ended.push({ ...c, status: 'FAILURE', counted: false, panicked: false });

    const { rows: running } = await tx.execute<{ id: number; machineId: number; attempts: number; timeoutSeconds: number; stale: boolean; timedOut: boolean; overdue: boolean }>(sql`
      select o.id, o.machine_id as "machineId", o.attempts, o.timeout_seconds as "timeoutSeconds", ${staleLease(o.staleMs)} as stale,
        ${overdue(0)} as "timedOut", ${overdue(o.staleMs)} as overdue
      from operations o where o.machine_id = any(${sql.param(ids)}::int[]) and o.status = 'RUNNING' order by o.machine_id`);
    for (const r of running) {
      const lease = { operationId: r.id, attempt: r.attempts };
      if (r.overdue || (r.stale && r.timedOut)) {
        const done = await finishIn(tx, lease, timedOut(r.timeoutSeconds), { panicFailures: o.panicFailures });
        if (done) ended.push(done);
      } else if (!r.stale) {
        busy.push(r.machineId);
      } else if (r.attempts < o.maxAttempts) {
        const line = logLine(`Resumed on ${o.worker} after the worker running it stopped responding (attempt ${r.attempts + 1})`);
        const { rows } = await tx.execute<{ id: number; remainingMs: number }>(sql`
          update operations o set attempts = o.attempts + 1, heartbeat_at = now(), worker = ${o.worker}, output = o.output || ${line}
          where o.id = ${r.id}
          returning o.id, ${remainingMs} as "remainingMs"`);
        const [resumed] = await tx.select().from(operations).where(eq(operations.id, rows[0]!.id));
        claimed.push({ operation: resumed!, resumed: true, remainingMs: Number(rows[0]!.remainingMs) });
      } else {
        const outcome: OperationOutcome = { status: 'FAILURE', message: `The worker running this operation stopped responding (${r.attempts} attempts)`, counts: true };
        const done = await finishIn(tx, lease, outcome, { panicFailures: o.panicFailures });
        if (done) ended.push(done);
      }
    }

    const taken = new Set([...busy, ...claimed.map((c) => c.operation.machineId)]);
    const free = ids.filter((id) => !taken.has(id));
    if (free.length === 0) return { claimed, ended, busy };
    const { rows: next } = await tx.execute<{ id: number }>(sql`
      select x.id from unnest(${sql.param(free)}::int[]) as t(machine_id) cross join lateral (
        select o.id from operations o join machines m on m.id = o.machine_id
        where o.machine_id = t.machine_id and ${operationStartable} and ${machineReady}
        order by o.id limit 1 for update of o) x`);
    if (next.length === 0) return { claimed, ended, busy };
    const started = await tx
      .update(operations)
      // statement_timestamp(), not now(): the transaction may have begun before the
      // previous operation's finish committed, and an operation never starts before it.
      .set({
        status: 'RUNNING',
        startedAt: sql`statement_timestamp()`,
        attempts: 1,
        heartbeatAt: sql`now()`,
        worker: o.worker,
        output: sql`${operations.output} || ${logLine(`Started on ${o.worker}`)}`,
      })
      .where(inArray(operations.id, next.map((n) => n.id)))
      .returning();
    for (const row of started) claimed.push({ operation: row, resumed: false, remainingMs: row.timeoutSeconds * 1000 });
    return { claimed, ended, busy };
  });
}

/** Milliseconds the RUNNING operation `o` has left before its timeout. */
const remainingMs = sql<number>`greatest(0, extract(epoch from o.started_at + o.timeout_seconds * interval '1 second' - now()) * 1000)::bigint`;

/** The failure of an operation that ran past its timeout. */
export const timedOut = (timeoutSeconds: number): OperationOutcome => ({
  status: 'FAILURE',
  message: `Timed out: the operation ran longer than its timeout of ${timeoutSeconds} s`,
  counts: true,
});

/** An operation to end: its lease, how it ends, and the lines (already formatted) written since the last write. */
export interface OperationFinish {
  lease: OperationLease;
  outcome: OperationOutcome;
  output?: string;
  deployerLog?: string;
}

/**
 * Ends the leased operation with `outcome`, appending `output` and
 * `deployerLog` (already formatted lines) and the outcome's last output line,
 * and applies the failCounter rule to its machine: SUCCESS sets it to 0; a
 * counted FAILURE raises it by 1 and, at `panicFailures`, sets needsAdmin
 * (Panic). The operation keeps the machine's counter after it. Answers
 * undefined when the lease was lost (nothing is written).
 */
export async function finishOperation(
  db: Db,
  lease: OperationLease,
  outcome: OperationOutcome,
  opts: { panicFailures: number; output?: string; deployerLog?: string },
): Promise<EndedOperation | undefined> {
  const [ended] = await finishOperations(db, [{ lease, outcome, output: opts.output, deployerLog: opts.deployerLog }], opts);
  return ended;
}

/**
 * Ends many leased operations in one transaction, each as
 * {@link finishOperation} does: one fenced UPDATE for all of them, one UPDATE
 * of the machines of the successes whose failCounter is not 0 yet (a machine
 * already at 0 is not written, so its row and its account's status row are not
 * locked), and the failures' counters, Panic and issues one by one. Answers,
 * in the order of `finishes`, the ended operation or undefined for a lost lease.
 * Throws (and writes nothing) when any statement fails.
 */
export async function finishOperations(db: Db, finishes: OperationFinish[], opts: { panicFailures: number }): Promise<(EndedOperation | undefined)[]> {
  if (finishes.length === 0) return [];
  return db.transaction((tx) => finishAllIn(tx, finishes, opts));
}

async function finishIn(tx: Tx, lease: OperationLease, outcome: OperationOutcome, opts: { panicFailures: number }): Promise<EndedOperation | undefined> {
  const [ended] = await finishAllIn(tx, [{ lease, outcome }], opts);
  return ended;
}

async function finishAllIn(tx: Tx, finishes: OperationFinish[], { panicFailures }: { panicFailures: number }): Promise<(EndedOperation | undefined)[]> {
  const lastLine = (o: OperationOutcome) => logLine(o.status === 'SUCCESS' ? 'Operation succeeded' : o.message.slice(0, 2000));
  // A SUCCESS leaves the machine's counter at 0, so the operation gets 0 in the same write.
  const { rows } = await tx.execute<{ id: number; machineId: number; classId: number; typeName: string; outputTail: string }>(sql`
    update operations o set status = f.status, finished_at = now(),
      output = o.output || f.output, deployer_log = o.deployer_log || f.deployer_log,
      fail_counter = case when f.status = 'SUCCESS' then 0 else o.fail_counter end
    from unnest(${sql.param(finishes.map((f) => f.lease.operationId))}::int[], ${sql.param(finishes.map((f) => f.lease.attempt))}::int[],
      ${sql.param(finishes.map((f) => f.outcome.status))}::text[], ${sql.param(finishes.map((f) => (f.output ?? '') + lastLine(f.outcome)))}::text[],
      ${sql.param(finishes.map((f) => f.deployerLog ?? ''))}::text[]) as f(id, attempt, status, output, deployer_log)
    where o.id = f.id and o.status = 'RUNNING' and o.attempts = f.attempt
    returning o.id, o.machine_id as "machineId", o.class_id as "classId", o.type_name as "typeName",
      right(o.output, ${OUTPUT_TAIL_CHARS}) as "outputTail"`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const results = new Map<number, EndedOperation>();

  const successes = finishes.filter((f) => f.outcome.status === 'SUCCESS' && byId.has(f.lease.operationId));
  if (successes.length > 0) {
    const machineIds = [...new Set(successes.map((f) => byId.get(f.lease.operationId)!.machineId))].sort((a, b) => a - b);
    await tx.execute(sql`update machines set fail_counter = 0 where id = any(${sql.param(machineIds)}::int[]) and fail_counter <> 0`);
    for (const f of successes) {
      const row = byId.get(f.lease.operationId)!;
      results.set(row.id, { id: row.id, machineId: row.machineId, classId: row.classId, status: 'SUCCESS', counted: false, failCounter: 0, panicked: false });
    }
  }

  const failures = finishes
    .filter((f) => f.outcome.status === 'FAILURE' && byId.has(f.lease.operationId))
    .sort((a, b) => byId.get(a.lease.operationId)!.machineId - byId.get(b.lease.operationId)!.machineId);
  for (const f of failures) {
    const row = byId.get(f.lease.operationId)!;
    const outcome = f.outcome as Extract<OperationOutcome, { status: 'FAILURE' }>;
    const counted = outcome.counts;
    const { rows: counters } = await tx.execute<{ failCounter: number }>(
      counted
        ? sql`update machines set fail_counter = fail_counter + 1, needs_admin = needs_admin or fail_counter + 1 >= ${panicFailures}
              where id = ${row.machineId} returning fail_counter as "failCounter"`
        : sql`select fail_counter as "failCounter" from machines where id = ${row.machineId}`,
    );
    const failCounter = counters[0]?.failCounter ?? 0;
    await tx.update(operations).set({ failCounter }).where(eq(operations.id, row.id));
    const panicked = counted && failCounter === panicFailures;
    if (counted) await raiseOperationIssues(tx, { ...row, message: outcome.message, failCounter, panicked });
    results.set(row.id, { id: row.id, machineId: row.machineId, classId: row.classId, status: 'FAILURE', counted, failCounter, panicked });
  }
  return finishes.map((f) => results.get(f.lease.operationId));
}

/** Characters of an operation's output an issue log keeps (its end, where the failure is). */
const OUTPUT_TAIL_CHARS = 4_000;

/**
 * The issues of a counted failure (DESIGN §14), in the finish's transaction: one
 * `operation` occurrence "<type> failed: <message>", and a `panic` one when this
 * failure put the machine in Panic. Cancels and resets are not failures of the
 * machine and raise nothing.
 */
async function raiseOperationIssues(
  tx: Tx,
  o: { id: number; machineId: number; typeName: string; outputTail: string; message: string; failCounter: number; panicked: boolean },
): Promise<void> {
  const firstLine = o.message.split('\n')[0] ?? o.message;
  await raiseIssue(tx, {
    machineId: o.machineId,
    source: 'operation',
    description: `${o.typeName} failed: ${firstLine}`,
    tags: ['operation', o.typeName],
    content: `Operation ${o.id} (${o.typeName}) failed: ${o.message}\n\n${o.outputTail}`,
  });
  if (o.panicked) {
    await raiseIssue(tx, {
      machineId: o.machineId,
      source: 'panic',
      description: `Machine in Panic after ${o.failCounter} failed operations in a row`,
      tags: ['panic', o.typeName],
      content: `The machine needs admin attention: its failCounter reached ${o.failCounter}; nothing more starts on it until an operator resets its failure state. Last failure: operation ${o.id} (${o.typeName}): ${o.message}`,
    });
  }
}

/** Renews the lease; false when it was lost. */
export async function renewLease(db: DbOrTx, lease: OperationLease): Promise<boolean> {
  const rows = await db.update(operations).set({ heartbeatAt: sql`now()` }).where(leased(lease)).returning({ id: operations.id });
  return rows.length > 0;
}

/** Appends formatted lines to the output and deployer log and renews the lease; false when the lease was lost. */
export async function appendLogs(db: DbOrTx, lease: OperationLease, output: string, deployerLog: string): Promise<boolean> {
  const rows = await db
    .update(operations)
    .set({
      output: sql`${operations.output} || ${output}`,
      deployerLog: sql`${operations.deployerLog} || ${deployerLog}`,
      heartbeatAt: sql`now()`,
    })
    .where(leased(lease))
    .returning({ id: operations.id });
  return rows.length > 0;
}

/** Merges checkpoint values into the operation's params; false when the lease was lost. */
export async function mergeOperationParams(db: DbOrTx, lease: OperationLease, patch: Record<string, unknown>): Promise<boolean> {
  const rows = await db
    .update(operations)
    .set({ params: sql`${operations.params} || ${JSON.stringify(patch)}::jsonb`, heartbeatAt: sql`now()` })
    .where(leased(lease))
    .returning({ id: operations.id });
  return rows.length > 0;
}

/** Locks the leased operation's row inside `tx`; false when the lease was lost. */
export async function lockLease(tx: Tx, lease: OperationLease): Promise<boolean> {
  const rows = await tx.select({ id: operations.id }).from(operations).where(leased(lease)).for('update');
  return rows.length > 0;
}

/** Gives up the lease (the agent is stopping): its heartbeat is made stale, so the next agent resumes it at once. */
export async function releaseOperationLease(db: DbOrTx, lease: OperationLease): Promise<void> {
  await db.update(operations).set({ heartbeatAt: new Date(0) }).where(leased(lease));
}

/**
 * Machines that need the agent (the level-driven pass): an operation decided
 * CANCEL and not started, a RUNNING one whose lease is stale or that is past
 * its timeout by more than `staleMs`, or a startable one on a machine that
 * lets it start and runs no operation. Oldest work first.
 */
export async function selectMachinesNeedingAgent(db: DbOrTx, { staleMs, limit }: { staleMs: number; limit: number }): Promise<number[]> {
  const { rows } = await db.execute<{ machineId: number }>(sql`
    select o.machine_id as "machineId" from operations o join machines m on m.id = o.machine_id
    where o.finished_at is null and (
      (o.status is null and o.decision = 'CANCEL')
      or (o.status = 'RUNNING' and (${staleLease(staleMs)} or ${overdue(staleMs)}))
      or (${operationStartable} and ${machineReady}
          and not exists (select 1 from operations r where r.machine_id = m.id and r.status = 'RUNNING')))
    group by o.machine_id order by min(o.id) limit ${limit}`);
  return rows.map((r) => r.machineId);
}

/**
 * Delivers pending notification messages (spec 2 §3 Pending message, §7
 * Notifications; issue 11 point 4) of machines that can receive them now: live,
 * managed, and with an active instance that is running (a transition whose time
 * has come counts as done). Each message is delivered exactly once, whoever
 * runs this at the same time: rows are taken `for update skip locked` and the
 * update itself requires `delivered_at is null`. Sets `delivered_at` to `at`,
 * oldest messages first, at most `limit`; answers the delivered messages.
 *
 * Known limitations: delivery is the mark; no agent on the machine shows the
 * message to its users (the simulated fleet has none).
 */
export async function deliverPendingMessages(
  db: DbOrTx,
  { at, limit }: { at: Date; limit: number },
): Promise<{ id: number; machineId: number }[]> {
  const { rows } = await db.execute<{ id: number; machineId: number }>(sql`
    update notification_messages n set delivered_at = ${at.toISOString()}::timestamptz
    where n.id in (
      select x.id from notification_messages x join machines m on m.id = x.machine_id
      where x.delivered_at is null and m.managed and m.deleted_at is null and ${activeInstanceState} = 'running'
      order by x.id limit ${limit}
      for update of x skip locked)
    and n.delivered_at is null
    returning n.id, n.machine_id as "machineId"`);
  return rows;
}

/** The machines effects work on (see {@link EffectMachine}) by id; a machine that does not exist is left out. */
export async function selectEffectMachines(db: DbOrTx, machineIds: number[]): Promise<Map<number, EffectMachine>> {
  if (machineIds.length === 0) return new Map();
  // Aliased SQL: an interpolated column renders unqualified inside a subquery, where it would name the instance's own id.
  const { rows } = await db.execute<EffectMachine & Record<string, unknown>>(sql`
    select m.id, m.name, m.account_id as "accountId", m.class_id as "classId", m.is_launcher as "isLauncher",
      m.is_site_master as "isSiteMaster", m.sample_data as "sampleData", m.sample_data_file as "sampleDataFile",
      (select c.cloud_id from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1) as "cloudId"
    from machines m where m.id = any(${sql.param(machineIds)}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Operations as events carry them: the TOperation and the class ids deciding who may see it [machine class, account class]. */
export async function selectOperationEvents(db: DbOrTx, ids: number[]): Promise<{ operation: TOperation; classIds: number[] }[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.execute<{ op: TOperation; machineClass: number; accountClass: number }>(sql`
    select ${operationJson({ name: sql`m.name`, failCounter: sql`m.fail_counter` })} as op,
      m.class_id as "machineClass", a.class_id as "accountClass"
    from operations o join machines m on m.id = o.machine_id join accounts a on a.id = m.account_id
    where ${inArray(sql`o.id`, ids)} order by o.id`);
  return rows.map((r) => ({ operation: r.op, classIds: [r.machineClass, r.accountClass] }));
}

/**
 * The anomaly rule (DESIGN §12): when `failures` counted failures of the
 * class's operations ended within `windowMinutes` (and after the class's last
 * automatic standby, so that an operator who switches standby off gives the
 * class a fresh window), switches the class's standby on and records an audit
 * activity `MmaStandby` by user MMA naming the accounts of those failures.
 * Answers the activity id when it switched standby on, else undefined (below
 * the threshold, or standby already on).
 *
 * A counted failure is a FAILURE the agent ended after starting it: its
 * `worker` is set. Cancelled operations never started; a reset clears the
 * lease (OPS-SEMANTICS), so neither counts.
 */
export async function switchStandbyOnAnomaly(
  db: Db,
  { classId, failures, windowMinutes }: { classId: number; failures: number; windowMinutes: number },
): Promise<{ activityId: number; failures: number } | undefined> {
  return db.transaction(async (tx) => {
    const { rows: recent } = await tx.execute<{ id: number; accountId: number; machineId: number }>(sql`
      select o.id, o.account_id as "accountId", o.machine_id as "machineId" from operations o
      where o.class_id = ${classId} and o.status = 'FAILURE' and o.worker is not null
        and o.finished_at > now() - ${windowMinutes} * interval '1 minute'
        and o.finished_at > coalesce((select max(a.time) from audit_activities a
          where a.action = 'MmaStandby' and a.params->>'classId' = ${String(classId)}), '-infinity')`);
    if (recent.length < failures) return undefined;
    const { rows: flipped } = await tx.execute<{ className: string | null }>(sql`
      update mma_instances mi set standby = true where mi.class_id = ${classId} and not mi.standby
      returning (select c.name from mma_classes c where c.id = mi.class_id) as "className"`);
    if (!flipped[0]) return undefined;
    const accountIds = [...new Set(recent.map((r) => r.accountId))];
    const accountRows = await tx
      .select({ id: accounts.id, name: accounts.name, classId: accounts.classId })
      .from(accounts)
      .where(inArray(accounts.id, accountIds));
    const activityId = await insertActivity(tx, {
      action: 'MmaStandby',
      user: AGENT_USER,
      accounts: accountRows,
      params: {
        classId,
        className: flipped[0].className,
        failures: recent.length,
        windowMinutes,
        operationIds: recent.map((r) => r.id).slice(0, 100),
      },
      changes: [{ entityName: 'MmaInstance', propertyName: 'standby', oldValue: false, newValue: true }],
    });
    // One standby issue on each machine whose failures tipped the class (at most 100), in this transaction.
    const className = flipped[0].className ?? `class ${classId}`;
    for (const machineId of [...new Set(recent.map((r) => r.machineId))].slice(0, 100)) {
      await raiseIssue(tx, {
        machineId,
        source: 'standby',
        description: `Class ${className} switched to standby (anomaly): ${recent.length} failed operations within ${windowMinutes} minutes`,
        tags: ['standby', 'anomaly', className],
        content: `The agent switched standby on for class ${className} after ${recent.length} counted failures within ${windowMinutes} minutes (operations ${recent
          .map((r) => r.id)
          .slice(0, 100)
          .join(', ')}). No operation of the class starts until an operator switches standby off.`,
      });
    }
    return { activityId, failures: recent.length };
  });
}

/** The machine's current software versions (a jump-start image records them). */
export async function selectCurrentVersions(db: DbOrTx, machineId: number): Promise<Record<string, string>> {
  const [row] = await db.select({ versions: machines.currentVersions }).from(machines).where(eq(machines.id, machineId));
  return row?.versions ?? {};
}

/** The IRMN version's id by name, or undefined. */
export async function selectIrmnVersionId(db: DbOrTx, name: string): Promise<number | undefined> {
  const [row] = await db.select({ id: irmnVersions.id }).from(irmnVersions).where(eq(irmnVersions.name, name));
  return row?.id;
}

/**
 * Registers a jump-start SaaS image for the cloud image unless one exists
 * (idempotent: a retried CreateJumpStartAmi finds the first attempt's row).
 * Answers whether it inserted.
 */
export async function insertJumpStartImage(
  tx: DbOrTx,
  image: { name: string; description: string; region: string; irmnVersionId: number; cloudImage: string; versions: Record<string, string> },
): Promise<boolean> {
  const existing = await tx.select({ id: saasImages.id }).from(saasImages).where(eq(saasImages.cloudImage, image.cloudImage));
  if (existing.length > 0) return false;
  await tx.insert(saasImages).values({
    name: image.name,
    region: image.region,
    description: image.description,
    irmnVersionId: image.irmnVersionId,
    official: false,
    active: true,
    jumpStart: true,
    jumpStartConfig: { versions: image.versions },
    osType: 'Windows',
    cloudImage: image.cloudImage,
  });
  return true;
}
