/**
 * SQL of the operation agent's finish (DESIGN §12 and §14; README.md beside this
 * file, Design 6 and the Failures, Anomaly and Issues invariants): how an
 * operation ends, the batched finish of many leased operations at once (fenced
 * per row by its attempt) with their machines' failCounter, Panic at
 * `panicFailures` and the issues of a counted failure, and the anomaly rule
 * that switches a class's standby on after too many counted failures.
 *
 * A lost lease is not an error: the operation is left out and answered as
 * undefined. A failing statement throws and the transaction writes nothing.
 */
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, operations } from '../../db/schema.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import { raiseIssue } from '../issues/raise.js';
import type { TOperation } from '@fleet/contracts';
import { AGENT_USER, logLine, selectOperationEvents, unwrittenPart, type OperationLease } from './agent.repository.js';

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
  /**
   * Its OperationFinished payload, read in the finish's own transaction: a
   * finish that committed always has its event, even when the database goes
   * away right after the commit (a read after it could fail, and the event was lost).
   */
  event: { operation: TOperation; classIds: number[] };
}

/** The failure of an operation that ran past its timeout. */
export const timedOut = (timeoutSeconds: number): OperationOutcome => ({
  status: 'FAILURE',
  message: `Timed out: the operation ran longer than its timeout of ${timeoutSeconds} s`,
  counts: true,
});

/** Who cancelled an operation (its decision CANCEL): the operator, or the reason a rollout's halt gave. */
export interface CancelDecision {
  decidedBy: string | null;
  decisionReason: string | null;
}

/**
 * The failure of an operation cancelled while it ran (issue 27): not counted
 * toward Panic; its last line says who cancelled it, as a queued one's does.
 */
export const cancelledOutcome = (c: CancelDecision): OperationOutcome => ({
  status: 'FAILURE',
  message: c.decisionReason ? `Cancelled: ${c.decisionReason}` : `Cancelled by ${c.decidedBy ?? 'an operator'}`,
  counts: false,
});

/**
 * An operation to end: its lease, how it ends, and the lines (already
 * formatted) written since the last write. An MMA's finish carries the last
 * lines of its logs with their offsets (characters, as its appends do): only
 * the part not already in the stream is written (`unwrittenPart`). The caller
 * refuses an offset past the stream's end (the MMA protocol's finish, against
 * its lease read: a stream only grows).
 */
export interface OperationFinish {
  lease: OperationLease;
  outcome: OperationOutcome;
  output?: string;
  outputOffset?: number;
  deployerLog?: string;
  deployerLogOffset?: number;
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

/**
 * Ends one leased operation inside `tx` (a claim's transaction, under its
 * machine's claim lock), as {@link finishOperations} does; undefined when the
 * lease was lost.
 */
export async function finishIn(tx: Tx, lease: OperationLease, outcome: OperationOutcome, opts: { panicFailures: number }): Promise<EndedOperation | undefined> {
  const [ended] = await finishAllIn(tx, [{ lease, outcome }], opts);
  return ended;
}

async function finishAllIn(tx: Tx, finishes: OperationFinish[], { panicFailures }: { panicFailures: number }): Promise<(EndedOperation | undefined)[]> {
  const lastLine = (o: OperationOutcome) => logLine(o.status === 'SUCCESS' ? 'Operation succeeded' : o.message.slice(0, 2000));
  // A SUCCESS leaves the machine's counter at 0, so the operation gets 0 in the same write.
  // A log given at an offset (an MMA's) gets only what the stream does not hold yet (as appendAt).
  const { rows } = await tx.execute<{ id: number; machineId: number; classId: number; typeName: string; outputTail: string }>(sql`
    update operations o set status = f.status, finished_at = now(),
      output = o.output || ${atOffset(sql`o.output`, sql`f.output`, sql`f.output_offset`)} || f.last_line,
      deployer_log = o.deployer_log || ${atOffset(sql`o.deployer_log`, sql`f.deployer_log`, sql`f.deployer_log_offset`)},
      fail_counter = case when f.status = 'SUCCESS' then 0 else o.fail_counter end
    from unnest(${sql.param(finishes.map((f) => f.lease.operationId))}::int[], ${sql.param(finishes.map((f) => f.lease.attempt))}::int[],
      ${sql.param(finishes.map((f) => f.outcome.status))}::text[], ${sql.param(finishes.map((f) => f.output ?? ''))}::text[],
      ${sql.param(finishes.map((f) => f.outputOffset ?? null))}::int[], ${sql.param(finishes.map((f) => lastLine(f.outcome)))}::text[],
      ${sql.param(finishes.map((f) => f.deployerLog ?? ''))}::text[], ${sql.param(finishes.map((f) => f.deployerLogOffset ?? null))}::int[])
      as f(id, attempt, status, output, output_offset, last_line, deployer_log, deployer_log_offset)
    where o.id = f.id and o.status = 'RUNNING' and o.attempts = f.attempt
    returning o.id, o.machine_id as "machineId", o.class_id as "classId", o.type_name as "typeName",
      right(o.output, ${OUTPUT_TAIL_CHARS}) as "outputTail"`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const results = new Map<number, Omit<EndedOperation, 'event'>>();

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
  const events = new Map((await selectOperationEvents(tx, [...results.keys()])).map((e) => [e.operation.id, e]));
  return finishes.map((f) => {
    const ended = results.get(f.lease.operationId);
    return ended && { ...ended, event: events.get(ended.id)! };
  });
}

/** Of `text` written at `offset` of `stream` (null: at its end, all of it), the part the stream does not hold yet. */
const atOffset = (stream: SQL, text: SQL, offset: SQL) => sql`case when ${offset} is null then ${text} else ${unwrittenPart(stream, text, offset)} end`;

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
 * `worker` is set and it was not cancelled. A cancel before the start leaves
 * no worker, one while it ran keeps its decision CANCEL, and a reset clears
 * the lease (OPS-SEMANTICS), so none counts.
 */
export async function switchStandbyOnAnomaly(
  db: Db,
  { classId, failures, windowMinutes }: { classId: number; failures: number; windowMinutes: number },
): Promise<{ activityId: number; failures: number } | undefined> {
  return db.transaction(async (tx) => {
    const { rows: recent } = await tx.execute<{ id: number; accountId: number; machineId: number }>(sql`
      select o.id, o.account_id as "accountId", o.machine_id as "machineId" from operations o
      where o.class_id = ${classId} and o.status = 'FAILURE' and o.worker is not null and o.decision is distinct from 'CANCEL'
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
