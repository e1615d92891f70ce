/**
 * Rollback (issue 25 point 3; rules in `README.md` Rollback): a new rollout,
 * linked both ways (`rollouts.rollback_of`, unique), that puts back on the
 * applied targets of a rollout the desired versions each had before its wave
 * (`rollout_targets.previous`), with the same waves and approvals by the same
 * rules. Started by `POST /rollouts/{id}/rollback` (a user) or by a halt whose
 * plan says `onHalt: 'rollback'` (user `Rollout`), in the caller's
 * transaction holding the rolled-back rollout's row, so a rollout is rolled back
 * once.
 */
import { ZRolloutPlan, type TRolloutPlan } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { conflict } from '../../lib/problem.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import { startRollout } from './start.js';
import {
  notifyRolloutsChanged,
  selectHasProductionTargets,
  selectRollbackTargets,
  selectRolloutAccounts,
  setRolloutActivity,
  type RolloutRow,
} from './rollouts.repository.js';

/** The statuses a rollout can be rolled back from: it no longer moves by itself. */
export const ROLLBACK_FROM = ['Halted', 'Aborted', 'Completed'] as const;

/**
 * The rollback's plan: the rolled-back rollout's waves, threshold, cap and
 * timeouts; approvals by the same rules (`perWave` when a target is now of a
 * production class and the plan said `none`). It does not bake (the versions
 * it puts back ran before: getting them back soon matters more) and never rolls
 * back by itself.
 */
export function rollbackPlan(plan: TRolloutPlan, production: boolean): TRolloutPlan {
  const approval = plan.approval === undefined || plan.approval === 'none' ? (production ? 'perWave' : 'none') : plan.approval;
  return { ...plan, approval, bakeMinutes: 0, onHalt: 'stay' };
}

/**
 * Checks that the locked rollout `r` can be rolled back and answers its
 * rollback targets (what {@link startRollback} would put back). 409 when it is
 * not Halted, Aborted or Completed, was rolled back already, or has no applied
 * target whose versions are known.
 */
export async function rollbackTargets(tx: DbOrTx, r: RolloutRow): Promise<{ id: number; name: string; previous: Record<string, unknown> }[]> {
  if (!(ROLLBACK_FROM as readonly string[]).includes(r.status)) throw conflict(`Rollout ${r.id} is ${r.status}: pause and abort it, or wait for it to end, before rolling it back`);
  if (r.rolledBackBy !== null) throw conflict(`Rollout ${r.id} is already rolled back by rollout ${r.rolledBackBy}`);
  const targets = await selectRollbackTargets(tx, r.id);
  if (targets.length === 0) throw conflict(`Rollout ${r.id} changed no target whose previous versions are known: nothing to roll back`);
  return targets;
}

/**
 * Starts the rollback of the locked rollout `r` (see the module docstring) as
 * `principal` (whose permissions its waves apply with), audited RollbackRollout
 * by `user` (params rolloutId, rollbackId, targets); answers the rollback's id
 * and its activity. Throws 409 as {@link rollbackTargets}. The engines are woken
 * when `tx` commits.
 */
export async function startRollback(
  tx: DbOrTx,
  r: RolloutRow,
  o: { principal: Omit<Principal, 'jti'>; user: string },
): Promise<{ rolloutId: number; activityId: number }> {
  const targets = await rollbackTargets(tx, r);
  const ids = targets.map((t) => t.id);
  const plan = rollbackPlan(ZRolloutPlan.parse(r.plan), await selectHasProductionTargets(tx, r.kind, ids));
  const rolloutId = await startRollout(tx, {
    principal: o.principal,
    kind: r.kind,
    config: r.config,
    targetIds: ids,
    plan,
    activityId: null,
    rollback: { of: r.id, restores: targets.map((t) => t.previous) },
  });
  const activityId = await insertActivity(tx, {
    action: 'RollbackRollout',
    user: o.user,
    accounts: await selectRolloutAccounts(tx, r.id, r.kind),
    params: { rolloutId: r.id, rollbackId: rolloutId, targets: ids.length },
    changes: [{ entityName: `Rollout ${r.id}`, propertyName: 'rolledBackBy', oldValue: null, newValue: `Rollout ${rolloutId}` }],
  });
  await setRolloutActivity(tx, rolloutId, activityId);
  await notifyRolloutsChanged(tx);
  return { rolloutId, activityId };
}
