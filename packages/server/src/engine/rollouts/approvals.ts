/**
 * Approvals at the rollout level (issue 25 point 1; rules in `README.md`
 * Approvals): which waves need one, and the decisions that the rollout routes
 * (`POST /rollouts/{id}/waves/{wave}/approve|reject`) and the engine (an
 * approval that timed out) make, each inside the caller's transaction holding
 * the rollout's row.
 *
 * - A wave needs approval when the plan says `perWave`, or `firstWaveOnly` and
 *   it is the first wave. Its UpdateSoftware operations are queued pending
 *   (`engine/operations/queue.ts`, `approval: 'required'`); its targets are
 *   AwaitingApproval while one waits, and its wave timeout runs from the
 *   approval, not from the wave's start.
 * - Approve: one decision (`rollout_wave_decisions`, the first stands) that
 *   PROCEEDs every operation of the wave waiting for approval, audited once
 *   (RolloutWaveApproved, params rolloutId, wave from 1, reason, operationIds).
 * - Reject: CANCELs every operation of the rollout that has not started
 *   ('Cancelled: rollout {id} halted'), its waiting targets become Failed,
 *   and the rollout halts (RolloutWaveRejected, then RolloutHalted).
 * - Halt and abort ({@link stopRolloutOperations}) cancel the same way, so
 *   nothing deploys after a rollout gave up.
 */
import { ZRolloutPlan, type TRolloutApproval, type TRolloutPlan, type TRolloutStatus } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import { failBakeOnHalt } from './bake.repository.js';
import {
  selectRollbackTargets,
  selectRolloutAccounts,
  setWaveTargetsState,
  updateRollout,
  type RolloutRow,
} from './rollouts.repository.js';
import { cancelRolloutOperations, insertWaveDecision, proceedWaveOperations } from './approvals.repository.js';
import { startRollback } from './rollback.js';

/** User of the decisions the engine makes by itself (an approval that timed out, a halt). */
export const ROLLOUT_USER = 'Rollout';

/** The plan's approval mode; a rollout started before approvals existed has none. */
export function approvalOf(plan: TRolloutPlan): TRolloutApproval {
  return plan.approval ?? 'none';
}

/** Whether wave `wave` (from 0) of a rollout with `plan` needs an operator's approval. */
export function waveNeedsApproval(plan: TRolloutPlan, wave: number): boolean {
  const mode = approvalOf(plan);
  return mode === 'perWave' || (mode === 'firstWaveOnly' && wave === 0);
}

/**
 * After a rollout stopped (`verb`: halted, aborted): cancels every operation it
 * caused that has not started, and its waiting targets (AwaitingApproval, whose
 * operations were just cancelled) become Failed 'Cancelled: rollout {id} {verb}'.
 * Answers the cancelled operations' ids.
 */
export async function stopRolloutOperations(tx: DbOrTx, r: RolloutRow, verb: string): Promise<number[]> {
  const reason = `rollout ${r.id} ${verb}`;
  const cancelled = await cancelRolloutOperations(tx, { rolloutId: r.id, user: ROLLOUT_USER, reason });
  await setWaveTargetsState(tx, { rolloutId: r.id, wave: r.currentWave, from: ['AwaitingApproval'], state: 'Failed', detail: `Cancelled: ${reason}` });
  return cancelled;
}

/**
 * Halts the rollout with `reason` (audited RolloutHalted by {@link ROLLOUT_USER};
 * params `wave` numbered from 1) and cancels what it caused that has not started.
 * With the plan's `onHalt: 'rollback'` (and something applied to put back), its
 * rollback starts in the same transaction (`rollback.ts`, by {@link ROLLOUT_USER},
 * with the starter's permissions). `r` is updated in place.
 */
export async function haltRollout(tx: DbOrTx, r: RolloutRow, reason: string): Promise<void> {
  await updateRollout(tx, r.id, { status: 'Halted', reason, currentWave: r.currentWave });
  // A bake that found unhealthy targets ends Failed with the halt (bake.ts); one that found none stays as it is.
  await failBakeOnHalt(tx, r.id, r.currentWave);
  const cancelled = await stopRolloutOperations(tx, { ...r, status: 'Halted' }, 'halted');
  await insertActivity(tx, {
    action: 'RolloutHalted',
    user: ROLLOUT_USER,
    params: { rolloutId: r.id, wave: r.currentWave + 1, reason, ...(cancelled.length > 0 ? { cancelledOperationIds: cancelled } : {}) },
    changes: [{ entityName: `Rollout ${r.id}`, propertyName: 'status', oldValue: r.status, newValue: 'Halted' }],
  });
  r.status = 'Halted' as TRolloutStatus;
  r.reason = reason;
  const rollback = ZRolloutPlan.parse(r.plan).onHalt === 'rollback' && r.rollbackOf === null && r.rolledBackBy === null;
  if (rollback && (await selectRollbackTargets(tx, r.id)).length > 0) {
    const { rolloutId } = await startRollback(tx, r, { principal: { ...r.principal, username: ROLLOUT_USER, name: ROLLOUT_USER }, user: ROLLOUT_USER });
    r.rolledBackBy = rolloutId;
  }
}

/**
 * Approves wave `wave` (from 0) of the locked rollout `r` as `user`: records the
 * decision (the first stands), proceeds every operation of the wave waiting for
 * approval, ANOMALY ones included (the approver sees them), and audits it once.
 * Answers the proceeded operations' ids.
 */
export async function approveWave(tx: DbOrTx, r: RolloutRow, o: { wave: number; user: string; reason: string }): Promise<number[]> {
  const operationIds = await proceedWaveOperations(tx, { rolloutId: r.id, wave: o.wave, user: o.user, anomalyToo: true });
  const activityId = await insertActivity(tx, {
    action: 'RolloutWaveApproved',
    user: o.user,
    accounts: await selectRolloutAccounts(tx, r.id, r.kind),
    params: { rolloutId: r.id, wave: o.wave + 1, reason: o.reason, operationIds },
    changes: [{ entityName: `Rollout ${r.id}`, propertyName: `wave ${o.wave + 1} approval`, oldValue: null, newValue: 'Approved' }],
  });
  await insertWaveDecision(tx, { rolloutId: r.id, wave: o.wave, decision: 'Approved', decidedBy: o.user, reason: o.reason, activityId });
  await setWaveTargetsState(tx, { rolloutId: r.id, wave: o.wave, from: ['AwaitingApproval'], state: 'Deploying', detail: null });
  return operationIds;
}

/**
 * Rejects wave `wave` (from 0) of the locked rollout `r` as `user` (or
 * {@link ROLLOUT_USER} when its approval timed out): records the decision,
 * marks its waiting targets Failed 'Rejected by {user}: {reason}', and halts the
 * rollout (which cancels every operation of it that has not started). Audited
 * RolloutWaveRejected. `r` is updated in place.
 */
export async function rejectWave(tx: DbOrTx, r: RolloutRow, o: { wave: number; user: string; reason: string }): Promise<void> {
  const activityId = await insertActivity(tx, {
    action: 'RolloutWaveRejected',
    user: o.user,
    accounts: await selectRolloutAccounts(tx, r.id, r.kind),
    params: { rolloutId: r.id, wave: o.wave + 1, reason: o.reason },
    changes: [{ entityName: `Rollout ${r.id}`, propertyName: `wave ${o.wave + 1} approval`, oldValue: null, newValue: 'Rejected' }],
  });
  await insertWaveDecision(tx, { rolloutId: r.id, wave: o.wave, decision: 'Rejected', decidedBy: o.user, reason: o.reason, activityId });
  const detail = `Rejected by ${o.user}: ${o.reason}`;
  await setWaveTargetsState(tx, { rolloutId: r.id, wave: o.wave, from: ['AwaitingApproval'], state: 'Failed', detail });
  await haltRollout(tx, r, `Wave ${o.wave + 1} was rejected by ${o.user}: ${o.reason}`);
}
