/**
 * Rollouts (DESIGN §15; spec 3 §7 Updater and batch): a rollout's progress per
 * wave, its targets, and the operator's control: pause, resume, abort.
 *
 * - Reads and control need `write` (the Updater is write-only; routes say
 *   `requireWrite`). A rollout with a Customer Production target is 404, and
 *   absent from the list, for users without group CustomerProductionAccess
 *   (DESIGN §5).
 * - Pause: Running → Paused (no new wave starts; running deploys go on and are
 *   still counted). Resume: Paused → Running; Halted → Running at the next wave.
 *   Abort: Running, Paused or Halted → Aborted; Pending targets become NotApplied,
 *   applied ones stay as they are. Any other transition: 409.
 * - `start` (the software update routes' rollout seam): in one transaction,
 *   plans the update (404 naming unknown or hidden targets, 422 naming refused
 *   ones, as the update at once), inserts the rollout with every target Pending
 *   and records the request's activity (UpdateMachinesSoftware or
 *   UpdateAccountsSoftware, params the target ids, rolloutId, plan, update,
 *   changedTargets and listedTargets; changes: those of the first
 *   AUDIT_LISTED_TARGETS targets that change, in request order, so that a
 *   large rollout's entry stays small; each wave's RolloutWave activity
 *   carries all of its targets').
 * - Approve wave and Reject (`engine/rollouts/approvals.ts`): the current
 *   wave, while something of it waits for approval, by a user other than the
 *   starter when ROLLOUT_REQUIRE_SECOND_APPROVER (403 naming the rule). Abort
 *   and a halt cancel every operation of the rollout that has not started.
 * - Roll back (`engine/rollouts/rollback.ts`): a Halted, Aborted or Completed
 *   rollout, once; the dry run first (per target what it would put back), then
 *   a new rollout linked both ways, audited RollbackRollout. A rolled-back
 *   rollout cannot be resumed (409).
 * - A rollout over a production class's machines gets `approval: perWave`
 *   unless the plan says `firstWaveOnly`; `none` is 422 for them.
 * - Each transition is one transaction, audited PauseRollout, ResumeRollout or
 *   AbortRollout (accounts: every account of the targets; params rolloutId;
 *   changes: the status, the wave (numbered from 1, as the rollout page shows
 *   it) and reason), announced as RolloutProgress
 *   after the commit. The engine's pass holds the rollout row while it works; a
 *   transition waits for it, so a wave is never applied after a pause committed.
 */
import {
  AUDIT_LISTED_TARGETS,
  type TBatchResult,
  type TRolloutPlan,
  type TSoftwareUpdateConfig,
  ZRolloutPlan,
  ZSoftwareUpdateConfig,
  type TRollout,
  type TRolloutStatus,
  type TRolloutTargetCounts,
  type TRolloutWave,
  type TWaveApproval,
  type TWaveBake,
  type TRolloutsResponse,
  type TRolloutTarget,
  type ZRolloutTargetsQuery,
  type ZRolloutsQuery,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { hasCustomerProductionAccess, type Principal } from '../../auth/principal.js';
import { HttpProblem, conflict, forbidden, notFound } from '../../lib/problem.js';
import { approveWave, rejectWave, stopRolloutOperations, waveNeedsApproval } from '../../engine/rollouts/approvals.js';
import type { AuditService } from '../audit/audit.service.js';
import type { TaskEvents } from '../../engine/push/events.js';
import { announceProgress } from '../../engine/rollouts/engine.js';
import { rolloutConfigOf, startRollout } from '../../engine/rollouts/start.js';
import { rollbackTargets, startRollback } from '../../engine/rollouts/rollback.js';
import { planRestoreResults } from '../software-update/software-update.restore.js';
import { listedChanges, planTargets, refusedTargets, type UpdateKind } from '../software-update/software-update.apply.js';
import {
  lockRollout,
  markNotApplied,
  notifyRolloutsChanged,
  selectRollout,
  selectHasProductionTargets,
  selectRolloutAccounts,
  setRolloutActivity,
  updateRollout,
  type RolloutRow,
} from '../../engine/rollouts/rollouts.repository.js';
import { selectCountsOf, selectWaveProgress, totalCounts } from '../../engine/rollouts/progress.repository.js';
import { selectWaveDecisions, waveAwaitsApproval, type WaveDecisionRow } from '../../engine/rollouts/approvals.repository.js';
import { selectRolloutsPage, selectTargetsPage } from './rollouts.repository.js';
import { selectBakes, selectFailingProbes, type BakeRow } from '../../engine/rollouts/bake.repository.js';
import { rolloutWaitingFor } from '../../engine/rollouts/windows.js';

type Transition = 'pause' | 'resume' | 'abort';

const ACTIONS: Record<Transition, { action: string; from: TRolloutStatus[]; verb: string }> = {
  pause: { action: 'PauseRollout', from: ['Running'], verb: 'paused' },
  resume: { action: 'ResumeRollout', from: ['Paused', 'Halted'], verb: 'resumed' },
  abort: { action: 'AbortRollout', from: ['Running', 'Paused', 'Halted'], verb: 'aborted' },
};

/** A rollout row as the list shows it (ZRollout without waves). */
function summaryOf(r: RolloutRow, counts: TRolloutTargetCounts, o: { secondApproverRequired: boolean; principal: Principal }): Omit<TRollout, 'waves' | 'waitingFor'> {
  return {
    secondApproverRequired: o.secondApproverRequired,
    startedByYou: r.principal.userId === o.principal.userId,
    id: r.id,
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    plan: ZRolloutPlan.parse(r.plan),
    config: rolloutConfigOf(ZSoftwareUpdateConfig.parse(r.config)),
    createdBy: r.createdBy,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    activityId: r.activityId,
    currentWave: r.currentWave,
    rollbackOf: r.rollbackOf,
    rolledBackBy: r.rolledBackBy,
    counts,
  };
}

/** The status of wave `index` from its counts and the rollout's state. */
function waveStatus(r: RolloutRow, index: number, c: TRolloutTargetCounts, size: number, bake: BakeRow | undefined): TRolloutWave['status'] {
  if (c.NotApplied === size) return 'NotApplied';
  if (c.Pending === size) return 'Pending';
  if (r.status === 'Halted' && index === r.currentWave) return 'Halted';
  if (c.AwaitingApproval > 0) return 'AwaitingApproval';
  if (c.Pending > 0 || c.Deploying > 0) return 'Running';
  if (bake && !bake.result && index === r.currentWave && (r.status === 'Running' || r.status === 'Paused')) return 'Baking';
  return 'Succeeded';
}

/** How many failing probes of a baking wave the rollout page lists. */
const FAILING_PROBES_SHOWN = 10;

/** A wave's bake as the rollout page shows it, or null when it has not baked. */
function bakeView(bake: BakeRow | undefined, failingProbes: TWaveBake['failingProbes']): TWaveBake | null {
  if (!bake) return null;
  return {
    startedAt: bake.startedAt.toISOString(),
    endsAt: bake.endsAt.toISOString(),
    result: bake.result,
    unhealthy: bake.unhealthy,
    failingProbes,
  };
}

/** A wave's approval as the rollout page shows it. */
function approvalView(plan: TRolloutPlan, index: number, d: WaveDecisionRow | undefined): TWaveApproval {
  return {
    required: waveNeedsApproval(plan, index),
    decision: d?.decision ?? null,
    decidedBy: d?.decidedBy ?? null,
    decidedAt: d?.decidedAt.toISOString() ?? null,
    reason: d?.reason ?? null,
  };
}

export interface RolloutService {
  /** Starts a rollout of a software update (see the module docstring); answers the request's result with its `rolloutId`. */
  start(opts: { principal: Principal; kind: UpdateKind; config: TSoftwareUpdateConfig; targetIds: number[]; plan: TRolloutPlan }): Promise<TBatchResult>;
  list(opts: { principal: Principal; query: z.output<typeof ZRolloutsQuery> }): Promise<TRolloutsResponse>;
  get(opts: { principal: Principal; id: number }): Promise<TRollout>;
  targets(opts: { principal: Principal; id: number; query: z.output<typeof ZRolloutTargetsQuery> }): Promise<{ items: TRolloutTarget[]; totalItems: number }>;
  /** Pause, resume or abort (see the module docstring); answers the rollout after it. 404 unknown or hidden, 409 a transition its status refuses. */
  transition(opts: { principal: Principal; id: number; to: Transition }): Promise<TRollout>;
  /**
   * Approve wave or Reject (`engine/rollouts/approvals.ts`; `wave` numbered from
   * 1); answers the rollout after it. 404 unknown or hidden; 403 the rollout's
   * starter while a second approver is required (ROLLOUT_REQUIRE_SECOND_APPROVER);
   * 409 a rollout not Running or Paused, a wave that is not the current one, or
   * one with nothing waiting for approval.
   */
  decideWave(opts: { principal: Principal; id: number; wave: number; decision: 'approve' | 'reject'; reason: string }): Promise<TRollout>;
  /**
   * Roll back (`engine/rollouts/rollback.ts`): with `dryRun`, what the rollback
   * would change per target (refused targets carry the rule); else starts it and
   * answers its id and activity. 404 unknown or hidden; 409 a rollout not
   * Halted, Aborted or Completed, already rolled back, or with nothing to put back.
   */
  rollback(opts: { principal: Principal; id: number; dryRun: boolean }): Promise<TBatchResult>;
}

export function createRolloutService({
  db,
  audit,
  events,
  requireSecondApprover = true,
}: {
  db: Db;
  audit: AuditService;
  events?: TaskEvents;
  /** ROLLOUT_REQUIRE_SECOND_APPROVER (default true). */
  requireSecondApprover?: boolean;
}): RolloutService {
  const hide = (p: Principal) => !hasCustomerProductionAccess(p);

  /** The rollout with its waves: the rollout row and its `rollout_waves` rows only (no count over the targets). */
  async function detail(r: RolloutRow, principal: Principal): Promise<TRollout> {
    const [progress, decisions, bakes] = await Promise.all([selectWaveProgress(db, r.id), selectWaveDecisions(db, r.id), selectBakes(db, r.id)]);
    // The probes failing now, of the bake in progress only (the current wave's).
    const baking = bakes.get(r.currentWave);
    const failingProbes = baking && !baking.result ? await selectFailingProbes(db, r.id, r.currentWave, FAILING_PROBES_SHOWN) : [];
    const summary = summaryOf(r, totalCounts(progress.map((w) => w.counts)), { secondApproverRequired: requireSecondApprover, principal });
    const current = progress[r.currentWave];
    const waiting = r.status === 'Running' && current && current.counts.Pending > 0 ? await rolloutWaitingFor(db, r, new Date()) : null;
    return {
      ...summary,
      waitingFor: waiting,
      waves: progress.map(({ counts, startedAt, lastChange }, index) => {
        const size = Object.values(counts).reduce((a, b) => a + b, 0);
        const final = counts.Pending === 0 && counts.Deploying === 0 && counts.AwaitingApproval === 0;
        return {
          index,
          size,
          status: waveStatus(r, index, counts, size, bakes.get(index)),
          counts,
          startedAt: startedAt?.toISOString() ?? null,
          finishedAt: final && startedAt && lastChange ? lastChange.toISOString() : null,
          approval: approvalView(summary.plan, index, decisions.get(index)),
          bake: bakeView(bakes.get(index), index === r.currentWave ? failingProbes : []),
        };
      }),
    };
  }

  return {
    async start({ principal, kind, config, targetIds, plan }) {
      const result = await db.transaction(async (tx) => {
        const planned = await planTargets(tx, { principal, kind, config, targetIds, lock: true });
        const targets = planned.map((p) => p.result);
        const refused = refusedTargets(kind, targetIds, targets);
        if (refused) throw refused;
        const production = await selectHasProductionTargets(tx, kind, targetIds);
        if (production && plan.approval === 'none') {
          throw new HttpProblem(422, 'Unprocessable Content', 'A rollout over machines of a production class needs approvals', [
            { propertyName: 'rollout.approval', errorMessage: 'Machines of a production class deploy only once approved: choose perWave or firstWaveOnly', attemptedValue: 'none' },
          ]);
        }
        const approved = { ...plan, approval: plan.approval ?? (production ? 'perWave' : 'none') } satisfies TRolloutPlan;
        const rolloutId = await startRollout(tx, { principal, kind, config, targetIds, plan: approved, activityId: null });
        const accounts = [...new Map(planned.map((p) => [p.account.id, p.account])).values()].sort((a, b) => a.id - b.id);
        const { changes, changedTargets, listedTargets } = listedChanges(planned, targetIds, AUDIT_LISTED_TARGETS);
        const activityId = await audit.record(tx, {
          action: kind === 'machines' ? 'UpdateMachinesSoftware' : 'UpdateAccountsSoftware',
          user: principal.username,
          accounts,
          params: { [kind === 'machines' ? 'machineIds' : 'accountIds']: targetIds, rolloutId, plan: approved, update: rolloutConfigOf(config), changedTargets, listedTargets },
          changes,
        });
        await setRolloutActivity(tx, rolloutId, activityId);
        const changed = targets.filter((x) => x.changes.length > 0).length;
        return { dryRun: false, targets, changed, refused: 0, activityId, rolloutId };
      });
      await announceProgress(db, events, result.rolloutId);
      return result;
    },

    async list({ principal, query }) {
      const { rows, total } = await selectRolloutsPage(db, { ...query, hideCustomerProduction: hide(principal) });
      const counts = await selectCountsOf(db, rows.map((r) => r.id));
      return { items: rows.map((r) => summaryOf(r, counts.get(r.id)!, { secondApproverRequired: requireSecondApprover, principal })), totalItems: total };
    },

    async get({ principal, id }) {
      const r = await selectRollout(db, id, hide(principal));
      if (!r) throw notFound(`Rollout ${id}`);
      return detail(r, principal);
    },

    async targets({ principal, id, query }) {
      if (!(await selectRollout(db, id, hide(principal)))) throw notFound(`Rollout ${id}`);
      const { rows, total } = await selectTargetsPage(db, id, query);
      return { items: rows.map((t) => ({ ...t, updatedAt: new Date(t.updatedAt).toISOString() })), totalItems: total };
    },

    async transition({ principal, id, to }) {
      const { action, from, verb } = ACTIONS[to];
      await db.transaction(async (tx) => {
        const r = await lockRollout(tx, id);
        if (!r || (r.customerProduction && hide(principal))) throw notFound(`Rollout ${id}`);
        if (!from.includes(r.status)) throw conflict(`Rollout ${id} is ${r.status}: it cannot be ${verb}`);
        if (to === 'resume' && r.rolledBackBy !== null) throw conflict(`Rollout ${id} is rolled back by rollout ${r.rolledBackBy}: it cannot be resumed`);
        const next =
          to === 'pause'
            ? { status: 'Paused' as const, reason: `Paused by ${principal.username}`, currentWave: r.currentWave }
            : to === 'resume'
              ? { status: 'Running' as const, reason: null, currentWave: r.status === 'Halted' ? r.currentWave + 1 : r.currentWave }
              : { status: 'Aborted' as const, reason: `Aborted by ${principal.username}`, currentWave: r.currentWave };
        await updateRollout(tx, id, next);
        const notApplied = to === 'abort' ? await markNotApplied(tx, id, `Not applied: the rollout was aborted by ${principal.username}`) : 0;
        const cancelled = to === 'abort' ? await stopRolloutOperations(tx, r, 'aborted') : [];
        if (to === 'resume') await notifyRolloutsChanged(tx);
        await audit.record(tx, {
          action,
          user: principal.username,
          accounts: await selectRolloutAccounts(tx, id, r.kind),
          params: { rolloutId: id, ...(to === 'abort' ? { notApplied, ...(cancelled.length > 0 ? { cancelledOperationIds: cancelled } : {}) } : {}) },
          changes: [
            { entityName: `Rollout ${id}`, propertyName: 'status', oldValue: r.status, newValue: next.status },
            ...(next.currentWave !== r.currentWave ? [{ entityName: `Rollout ${id}`, propertyName: 'wave', oldValue: r.currentWave + 1, newValue: next.currentWave + 1 }] : []),
            ...(next.reason !== r.reason ? [{ entityName: `Rollout ${id}`, propertyName: 'reason', oldValue: r.reason, newValue: next.reason }] : []),
          ],
        });
      });
      await announceProgress(db, events, id);
      return detail((await selectRollout(db, id, false))!, principal);
    },

    async rollback({ principal, id, dryRun }) {
      const result = await db.transaction(async (tx) => {
        const r = await lockRollout(tx, id);
        if (!r || (r.customerProduction && hide(principal))) throw notFound(`Rollout ${id}`);
        const targets = (await rollbackTargets(tx, r)).map((t) => ({ id: t.id, restore: t.previous }));
        const results = await planRestoreResults(tx, { principal, kind: r.kind, targets });
        const changed = results.filter((t) => t.changes.length > 0).length;
        const refused = results.filter((t) => t.refused !== null).length;
        if (dryRun) return { dryRun, targets: results, changed, refused, activityId: null, rolloutId: null };
        const { jti: _jti, ...starter } = principal;
        const started = await startRollback(tx, r, { principal: starter, user: principal.username });
        return { dryRun, targets: results, changed, refused, ...started };
      });
      if (result.rolloutId !== null) await announceProgress(db, events, result.rolloutId);
      return result;
    },

    async decideWave({ principal, id, wave, decision, reason }) {
      const index = wave - 1;
      await db.transaction(async (tx) => {
        const r = await lockRollout(tx, id);
        if (!r || (r.customerProduction && hide(principal))) throw notFound(`Rollout ${id}`);
        if (requireSecondApprover && r.principal.userId === principal.userId) {
          throw forbidden(
            `ROLLOUT_REQUIRE_SECOND_APPROVER: ${principal.username} started rollout ${id}; a wave is approved or rejected by another user with write permission`,
          );
        }
        if (r.status !== 'Running' && r.status !== 'Paused') throw conflict(`Rollout ${id} is ${r.status}: its waves are no longer decided`);
        if (index !== r.currentWave) throw conflict(`Wave ${wave} is not the current wave of rollout ${id} (wave ${r.currentWave + 1})`);
        if (!(await waveAwaitsApproval(tx, id, index))) throw conflict(`Wave ${wave} of rollout ${id} has nothing waiting for approval`);
        if (decision === 'approve') await approveWave(tx, r, { wave: index, user: principal.username, reason });
        else await rejectWave(tx, r, { wave: index, user: principal.username, reason });
      });
      await announceProgress(db, events, id);
      return detail((await selectRollout(db, id, false))!, principal);
    },
  };
}
