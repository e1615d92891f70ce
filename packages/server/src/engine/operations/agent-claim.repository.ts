/**
 * SQL of the operation agent's claim (DESIGN §12 and README.md beside this file,
 * Design 4): the start rules of an operation and of its machine, and the claim
 * of the next operation of many machines at once under them, in one transaction
 * under the machines' claim locks (shared with the task engine). A claim also
 * ends what it finds finished (cancelled, timed out, abandoned by a dead
 * worker) through `agent-finish.repository.ts`, and resumes a RUNNING operation
 * whose lease is stale. The start rules are `start-rules.ts` (the lists of
 * operations explain a waiting operation with them); the level-driven pass
 * (`agent-pass.repository.ts`) finds the machines to claim for with them too.
 *
 * Times are PostgreSQL's (`now()`, `statement_timestamp()`); `staleMs` and the
 * remaining time of a claimed operation are milliseconds.
 */
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { operations } from '../../db/schema.js';
import { CLAIM_LOCK_NAMESPACE } from '../tasks/tasks.repository.js';
import type { OperationRow } from './operations.repository.js';
import { logLine, selectOperationEvents } from './agent.repository.js';
import { cancelledOutcome, finishIn, timedOut, type EndedOperation, type OperationOutcome } from './agent-finish.repository.js';
import { inProcessClass, machineReady, operationStartable, remoteClass } from './start-rules.js';
import { IDEMPOTENT_OPERATION_TYPES, MMA_LEASE_S_DEFAULT } from '@fleet/contracts';

/** The same line made by PostgreSQL (for lines written inside a claim). */
const sqlLogLine = (text: SQL) => sql`to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' ' || ${text} || E'\\n'`;

/**
 * A remote MMA's lease (issue 27): `leaseMs` without a heartbeat (`MMA_LEASE_S`),
 * counted from `graceFrom` when its last heartbeat is older: the start of this
 * server process, since MMAs cannot renew while the server is away (a
 * restart does not cost them their operations). Default: 60 s, no grace.
 */
export interface RemoteLease {
  leaseMs: number;
  graceFrom: Date;
}
export const DEFAULT_REMOTE_LEASE: RemoteLease = { leaseMs: MMA_LEASE_S_DEFAULT * 1000, graceFrom: new Date(0) };

/** The lease of the RUNNING operation `o` of machine `m` is stale: not renewed for `staleMs` (the worker's) or for its remote lease. */
export const leaseStale = (staleMs: number, remote: RemoteLease) => sql`(case when ${remoteClass}
  then greatest(coalesce(o.heartbeat_at, o.started_at), ${remote.graceFrom.toISOString()}::timestamptz) < now() - ${remote.leaseMs}::int * interval '1 millisecond'
  else coalesce(o.heartbeat_at, o.started_at) < now() - ${staleMs}::int * interval '1 millisecond' end)`;

/** A RUNNING operation `o` past its timeout by more than `graceMs`. */
export const overdue = (graceMs: number) => sql`o.started_at + o.timeout_seconds * interval '1 second' + ${graceMs} * interval '1 millisecond' < now()`;

export interface ClaimOptions {
  /** The machines to claim for (any order, duplicates ignored). */
  machineIds: number[];
  worker: string;
  staleMs: number;
  maxAttempts: number;
  panicFailures: number;
  /**
   * Which machines `m` this claimer starts operations on (an SQL condition):
   * by default the classes the worker runs ({@link inProcessClass}); a remote
   * MMA's claim names its class (issue 27).
   */
  scope?: SQL;
  /** A remote MMA's lease (`MMA_LEASE_S`; default {@link DEFAULT_REMOTE_LEASE}). */
  remoteLease?: RemoteLease;
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
 *    lease is fresh makes the machine busy (also one decided CANCEL: its runner
 *    stops it at its next heartbeat). A stale lease of one decided CANCEL ends
 *    FAILURE "Cancelled by X" (not counted). Any other stale lease (older than `staleMs`,
 *    or the `remoteLease` on a remote class: issue 27): a remote MMA's operation
 *    of a type not in IDEMPOTENT_OPERATION_TYPES ends FAILURE 'MMA lost'
 *    (counted), whoever claims; otherwise an operation out of `scope` is left
 *    to its own claimers (busy), and one in scope is resumed (attempt + 1) or,
 *    after `maxAttempts`, ends FAILURE "The worker running this operation
 *    stopped responding";
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
        output = o.output || ${sqlLogLine(sql`case when o.decision_reason is not null then 'Cancelled: ' || o.decision_reason else 'Cancelled by ' || coalesce(o.decided_by, 'an operator') end`)}
      where o.machine_id = any(${sql.param(ids)}::int[]) and o.status is null and o.finished_at is null and o.decision = 'CANCEL'
      returning o.id, o.machine_id as "machineId", o.class_id as "classId", o.fail_counter as "failCounter"`);
    const cancelEvents = new Map((await selectOperationEvents(tx, cancelled.rows.map((c) => c.id))).map((e) => [e.operation.id, e]));
    for (const c of cancelled.rows) ended.push({ ...c, status: 'FAILURE', counted: false, panicked: false, event: cancelEvents.get(c.id)! });

    const scope = o.scope ?? inProcessClass;
    const { rows: running } = await tx.execute<{
      id: number;
      machineId: number;
      attempts: number;
      timeoutSeconds: number;
      typeName: string;
      remote: boolean;
      inScope: boolean;
      stale: boolean;
      timedOut: boolean;
      overdue: boolean;
      decision: string | null;
      decidedBy: string | null;
      decisionReason: string | null;
    }>(sql`
      select o.id, o.machine_id as "machineId", o.attempts, o.timeout_seconds as "timeoutSeconds", o.type_name as "typeName",
        o.decision, o.decided_by as "decidedBy", o.decision_reason as "decisionReason",
        ${remoteClass} as remote, ${scope} as "inScope",
        ${leaseStale(o.staleMs, o.remoteLease ?? DEFAULT_REMOTE_LEASE)} as stale,
        ${overdue(0)} as "timedOut", ${overdue(o.staleMs)} as overdue
      from operations o join machines m on m.id = o.machine_id
      where o.machine_id = any(${sql.param(ids)}::int[]) and o.status = 'RUNNING' order by o.machine_id`);
    for (const r of running) {
      const lease = { operationId: r.id, attempt: r.attempts };
      const end = async (outcome: OperationOutcome) => {
        const done = await finishIn(tx, lease, outcome, { panicFailures: o.panicFailures });
        if (done) ended.push(done);
      };
      if (r.overdue || (r.stale && r.timedOut)) {
        await end(timedOut(r.timeoutSeconds));
      } else if (!r.stale) {
        busy.push(r.machineId);
      } else if (r.decision === 'CANCEL') {
        // Cancelled while it ran, and whoever ran it is gone: it ends as cancelled, never resumed.
        await end(cancelledOutcome(r));
      } else if (r.remote && !(IDEMPOTENT_OPERATION_TYPES as readonly string[]).includes(r.typeName)) {
        // Issue 27: a remote MMA stopped renewing its lease; the type cannot run again from the start.
        await end({ status: 'FAILURE', message: 'MMA lost: the MMA running it stopped renewing its lease', counts: true });
      } else if (!r.inScope) {
        // Another claimer's to resume (a remote class's MMAs, or the worker): left alone.
        busy.push(r.machineId);
      } else if (r.attempts < o.maxAttempts) {
        const why = r.remote ? 'the MMA running it was lost' : 'the worker running it stopped responding';
        const line = logLine(`Resumed on ${o.worker} after ${why} (attempt ${r.attempts + 1})`);
        const { rows } = await tx.execute<{ id: number; remainingMs: number }>(sql`
          update operations o set attempts = o.attempts + 1, heartbeat_at = now(), worker = ${o.worker}, output = o.output || ${line}
          where o.id = ${r.id}
          returning o.id, ${remainingMs} as "remainingMs"`);
        const [resumed] = await tx.select().from(operations).where(eq(operations.id, rows[0]!.id));
        claimed.push({ operation: resumed!, resumed: true, remainingMs: Number(rows[0]!.remainingMs) });
      } else {
        await end({ status: 'FAILURE', message: `The worker running this operation stopped responding (${r.attempts} attempts)`, counts: true });
      }
    }

    const taken = new Set([...busy, ...claimed.map((c) => c.operation.machineId)]);
    const free = ids.filter((id) => !taken.has(id));
    if (free.length === 0) return { claimed, ended, busy };
    const { rows: next } = await tx.execute<{ id: number }>(sql`
      select x.id from unnest(${sql.param(free)}::int[]) as t(machine_id) cross join lateral (
        select o.id from operations o join machines m on m.id = o.machine_id
        where o.machine_id = t.machine_id and ${operationStartable} and ${machineReady} and ${scope}
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
