/**
 * The start rules of a queued operation (DESIGN §12 "An operation's life",
 * OPS-SEMANTICS; issue 24 point 1 "Waiting work explained"): one table, read
 * both by the agent's claim and pass (`agent-claim.repository.ts`,
 * `agent-pass.repository.ts`: may it start now?) and by every list of
 * operations (`modules/operations/operation-json.ts`: why has it not started?),
 * so the reason the console shows is the rule the agent applies.
 *
 * Each rule is an SQL condition on the operation row `o` and its machine row
 * `m` that is true (never null) while the rule holds the operation back, and
 * the sentence an operator reads: what it waits for and who can release it.
 * The claim lets an operation start when no rule holds it back; on top of the
 * rules it starts one operation per machine at a time, the oldest first
 * ({@link WAITING_BEHIND}).
 */
import { sql, type SQL } from 'drizzle-orm';
import { OPERATION_MODE_ANOMALY, type TOperationWaitingReason } from '@fleet/contracts';
import { isoTime } from '../../db/sql-json.js';
import { FLEET_FROZEN } from '../../modules/freeze/freeze.schema.js';
import { AGENT_CONNECTED } from '../../modules/mma-agents/mma-agents.schema.js';

/** A start rule: `holds` is true while it keeps the operation `o` of machine `m` from starting. */
export interface StartRule {
  reason: TOperationWaitingReason;
  holds: SQL;
  /** The sentence shown for it (SQL text): what the operation waits for and who can release it. */
  message: SQL;
}

/**
 * The state of the machine's active instance as the simulated cloud will report
 * it at its next read: a transition whose time has come counts as done.
 */
export const activeInstanceState = sql`(select case when c.next_status is not null and c.settles_at <= now() then c.next_status else c.status end
  from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1)`;

/** The machine `m`'s class runs its operations on remote MMAs (issue 27; `modules/mma-agents`). */
export const remoteClass = sql`exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.mode = 'remote')`;
/** The name of the machine `m`'s class (SQL text). */
const className = sql`coalesce((select mc.name from mma_classes mc where mc.id = m.class_id), 'Class ' || m.class_id)`;

/** The rules on the operation itself, in the order the console names them. */
export const OPERATION_RULES: readonly StartRule[] = [
  {
    reason: 'cancelling',
    holds: sql`o.decision is not distinct from 'CANCEL'`,
    message: sql`'Being cancelled by ' || coalesce(o.decided_by, 'an operator') || ': the agent ends it at its next pass'`,
  },
  {
    reason: 'approval',
    holds: sql`o.pending`,
    // Why (engine/operations/queue.ts, the approval rule): the machine was in ANOMALY mode when it was queued, else a
    // rollout's wave caused it (engine/rollouts/approvals.ts: released by Approve wave), else its class is a production class.
    message: sql`coalesce(case when o.operation_mode <> ${OPERATION_MODE_ANOMALY} then (
        select 'Waiting for the approval of wave ' || (rt.wave + 1) || ' of rollout ' || rt.rollout_id
          || ': a user with write permission other than its starter can Approve wave or Reject on the rollout page'
        from rollout_targets rt where rt.activity_id = o.activity_id limit 1) end,
      'Waiting for approval (' || case when o.operation_mode = ${OPERATION_MODE_ANOMALY} then 'the machine was in ANOMALY mode when it was queued'
      else 'class ' || coalesce((select mc.name from mma_classes mc where mc.id = o.class_id), 'Class ' || o.class_id) || ' is a production class' end
      || '): a user with write permission can Proceed or Cancel it')`,
  },
  {
    reason: 'freeze',
    // The fleet freeze (modules/freeze): no UpdateSoftware starts while an admin has frozen the fleet.
    holds: sql`(o.type_name = 'UpdateSoftware' and ${FLEET_FROZEN})`,
    message: sql`(select 'The fleet is frozen by ' || coalesce(ff.frozen_by, 'an admin') || ' (' || coalesce(ff.reason, 'no reason') || ')'
      || ': no UpdateSoftware starts until an admin releases the freeze' from fleet_freeze ff where ff.id = 1)`,
  },
  {
    reason: 'notBefore',
    holds: sql`coalesce(o.not_before > now(), false)`,
    message: sql`'Scheduled: not before ' || ${isoTime(sql`o.not_before`)}`,
  },
];

/** The rules on the operation's machine and its class, in the order the console names them. */
export const MACHINE_RULES: readonly StartRule[] = [
  {
    reason: 'machineTerminating',
    holds: sql`(m.deleted_at is not null or m.terminate)`,
    message: sql`'The machine is being terminated: the operation will not run'`,
  },
  {
    reason: 'classStandby',
    holds: sql`exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.standby)`,
    message: sql`'MMA class ' || coalesce((select mc.name from mma_classes mc where mc.id = m.class_id), 'Class ' || m.class_id)
      || ' is on standby: an admin can switch standby off on the MMA screen'`,
  },
  {
    reason: 'mmaDisconnected',
    // Issue 27: a remote class's operations are claimed by its registered MMAs only (see inProcessClass).
    holds: sql`(${remoteClass} and not exists (select 1 from mma_agents where mma_agents.class_id = m.class_id and ${AGENT_CONNECTED}))`,
    message: sql`'MMA class ' || ${className}
      || ' runs its operations on remote MMAs and none is connected: it starts when one connects (an admin registers MMAs on the MMA screen)'`,
  },
  {
    reason: 'panic',
    holds: sql`m.needs_admin`,
    message: sql`'The machine is in Panic: Reset failure (write permission) lets it run'`,
  },
  {
    reason: 'unmanaged',
    holds: sql`not m.managed`,
    message: sql`'The machine is unmanaged: switching Managed on (write permission) lets it run'`,
  },
  {
    reason: 'manualMaintenance',
    holds: sql`m.manual_maintenance`,
    message: sql`'The machine is in manual maintenance: switching Maintenance off (write permission) lets it run'`,
  },
  {
    reason: 'instanceNotRunning',
    holds: sql`${activeInstanceState} is distinct from 'running'`,
    message: sql`'The machine''s instance is ' || coalesce(${activeInstanceState}, 'missing') || ': it runs once the instance is running (Start)'`,
  },
  {
    reason: 'taskRunning',
    holds: sql`exists (select 1 from machine_tasks t where t.machine_id = m.id and t.status = 'Running')`,
    message: sql`'Waiting for the running task ' || coalesce((select t.type || ' (task ' || t.id || ')' from machine_tasks t
      where t.machine_id = m.id and t.status = 'Running' order by t.id limit 1), '') || ' to end'`,
  },
];

/** Every rule in the console's order: the operation's own first. */
export const START_RULES: readonly StartRule[] = [...OPERATION_RULES, ...MACHINE_RULES];

const noneHolds = (rules: readonly StartRule[]) => sql.join(rules.map((r) => sql`not ${r.holds}`), sql` and `);

/** The operation `o` may start as far as it goes: queued and held back by none of {@link OPERATION_RULES}. */
export const operationStartable = sql`o.status is null and o.finished_at is null and ${noneHolds(OPERATION_RULES)}`;

/** The machine `m` lets an operation start: none of {@link MACHINE_RULES} holds. (No RUNNING operation is checked apart.) */
export const machineReady = noneHolds(MACHINE_RULES);

/**
 * The machine `m`'s operations are the worker's to run: its class's MMA
 * instance is not `remote` (issue 27 point 1). Not a start rule: a remote
 * class's operation waits for its MMAs (`mmaDisconnected`), and the worker's
 * engine leaves it to them whether they are connected or not.
 */
export const inProcessClass = sql`not ${remoteClass}`;

/**
 * Beyond the rules, a machine runs one operation at a time, its oldest
 * startable one first: the operation waits for the RUNNING one, else for an
 * older one that may start. Read inside {@link waitingJson} only: `m` is the
 * machine, `w.id` the waiting operation's id (the subqueries name their own
 * operations `o`, so that {@link operationStartable} reads them).
 */
export const WAITING_BEHIND: readonly StartRule[] = [
  {
    reason: 'operationRunning',
    holds: sql`exists (select 1 from operations o where o.machine_id = m.id and o.status = 'RUNNING')`,
    message: sql`'Waiting for the running operation ' || coalesce((select o.type_name || ' (' || o.id || ')' from operations o
      where o.machine_id = m.id and o.status = 'RUNNING' order by o.id limit 1), '') || ' to end'`,
  },
  {
    reason: 'behindOperation',
    holds: sql`exists (select 1 from operations o where o.machine_id = m.id and o.id < w.id and ${operationStartable})`,
    message: sql`'Queued behind operation ' || coalesce((select o.type_name || ' (' || o.id || ')' from operations o
      where o.machine_id = m.id and o.id < w.id and ${operationStartable} order by o.id limit 1), '')`,
  },
];

/**
 * Why the operation `o` has not started (TOperationWaiting as JSON), or null
 * when it has started or finished: the first of {@link START_RULES} that holds,
 * else {@link WAITING_BEHIND}, else 'starting' (the agent takes it at its next
 * claim, within seconds).
 */
export const waitingJson = sql`case when o.status is null and o.finished_at is null then (
  select case
    ${sql.join(
      [...START_RULES, ...WAITING_BEHIND].map((r) => sql`when ${r.holds} then json_build_object('reason', ${r.reason}::text, 'message', ${r.message})`),
      sql`\n    `,
    )}
    else json_build_object('reason', 'starting', 'message', 'Starting: the agent takes it within seconds')
  end
  from machines m cross join lateral (select o.id) w(id) where m.id = o.machine_id) end`;
