/**
 * SQL of the operation agent's level-driven pass (DESIGN §12 and README.md
 * beside this file, Design 3): the machines that need the agent whatever
 * notifications were lost, found with the claim's own start rules
 * (`start-rules.ts`), and the delivery of pending notification
 * messages (spec 2 §3, §7) to machines that run managed. Both answer at most
 * `limit` rows, oldest first; `staleMs` is milliseconds.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { DEFAULT_REMOTE_LEASE, leaseStale, overdue, type RemoteLease } from './agent-claim.repository.js';
import { activeInstanceState, inProcessClass, machineReady, operationStartable } from './start-rules.js';

/**
 * Machines that need the agent (the level-driven pass): an operation decided
 * CANCEL and not started, a RUNNING one whose lease is stale or that is past
 * its timeout by more than `staleMs`, or a startable one on a machine that
 * lets it start, runs no operation and is of a class the worker runs (not a
 * remote MMA's: issue 27). Oldest work first.
 */
export async function selectMachinesNeedingAgent(
  db: DbOrTx,
  { staleMs, limit, scope = inProcessClass, only, remoteLease = DEFAULT_REMOTE_LEASE }: {
    staleMs: number;
    limit: number;
    /** The machines `m` the caller starts operations on (default: the worker's classes; a remote MMA's claim: its class). */
    scope?: SQL;
    /** Operations `o` of machines `m` to look at at all (a remote MMA's claim: its class); default every one. */
    only?: SQL;
    /** A remote MMA's lease (issue 27). */
    remoteLease?: RemoteLease;
  },
): Promise<number[]> {
  const { rows } = await db.execute<{ machineId: number }>(sql`
    select o.machine_id as "machineId" from operations o join machines m on m.id = o.machine_id
    where o.finished_at is null and ${only ?? sql`true`} and (
      (o.status is null and o.decision = 'CANCEL')
      or (o.status = 'RUNNING' and (${leaseStale(staleMs, remoteLease)} or ${overdue(staleMs)}))
      or (${operationStartable} and ${machineReady} and ${scope}
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
