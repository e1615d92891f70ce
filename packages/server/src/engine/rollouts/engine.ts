/**
 * The rollout engine (DESIGN §15; invariants in `README.md`): level-driven, like
 * the deploy controller. Each pass looks at every Running and Paused rollout, in
 * its own transaction holding the rollout's row (`for update skip locked`, so two
 * workers never work on one rollout at once), and moves it as far as it can:
 *
 * Each step evaluates the current wave's targets in flight (step 2) before it
 * releases more (step 1), so a failure past the threshold halts the rollout
 * before another target is released.
 *
 * 1. Running, the current wave's targets Pending (those of a class whose
 *    change windows are all closed wait: `windows.ts`): applies them in this
 *    transaction: an audit activity RolloutWave (user: the rollout's starter;
 *    params rolloutId, wave (numbered from 1, as the rollout page shows it),
 *    targets; changes of every target) and the software
 *    update with that activity as the cause of the desired-version change; the
 *    targets become Deploying (waiting for the machines whose desired versions
 *    changed), or Skipped when none changed. A refused update (a rule, a target
 *    gone) halts the rollout and marks the wave NotApplied instead.
 * 2. Evaluates the wave's in-flight targets (also while Paused): a machine is
 *    Failed when an UpdateSoftware caused by the wave's activity ended FAILURE or
 *    it needs admin, Succeeded when it runs its desired versions, Skipped when
 *    nothing will deploy there (unmanaged, deleted), AwaitingApproval while its
 *    UpdateSoftware waits for approval (`approvals.ts`), Failed 'Timed out' past
 *    `plan.waveTimeoutMinutes` after the wave started (or was approved, when it
 *    needs approval); an account is the aggregate of its machines (Failed if any
 *    failed; AwaitingApproval if any waits; Succeeded when all succeeded or were
 *    skipped). An approved wave's operations that still wait proceed; a wave
 *    whose approval timed out is rejected.
 * 3. Running, every target of the wave final: the wave bakes first when the
 *    plan says so (`bake.ts`: its machines' probes and issues watched; the
 *    targets found unhealthy fail); then more failures than
 *    `plan.maxFailedTargets` or than `plan.maxFailedPercent` % of the wave halt
 *    the rollout (audit RolloutHalted by user `Rollout`, the reason naming the
 *    counts and the first failed targets); otherwise the next wave, or Completed
 *    after the last.
 *
 * After the commit, a rollout whose counts or status changed is announced as
 * RolloutProgress on the push channel (once per pass per rollout).
 */
import type { Logger } from 'pino';
import {
  ROLLOUT_PROGRESS_EVENT,
  ZRolloutPlan,
  ZSoftwareUpdateConfig,
  type TAuditChange,
  type TRolloutPlan,
  type TRolloutTargetState,
  type TSoftwareUpdateConfig,
  type TTargetResult,
} from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { startPassLoop } from '../pass-loop.js';
import type { Principal } from '../../auth/principal.js';
import { HttpProblem } from '../../lib/problem.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import { ROLLOUT_USER, haltRollout, rejectWave, waveNeedsApproval } from './approvals.js';
import { concurrencyOf, thresholdExceeded } from './waves.js';
import { stepBake, type BakeState } from './bake.js';
import { selectWaveCounts, selectWaveTimes, totalCounts } from './progress.repository.js';
import { selectClosedClasses } from './windows.js';
import type { TaskEvents } from '../push/events.js';
export { ROLLOUT_USER } from './approvals.js';
import {
  IN_FLIGHT_STATES,
  ROLLOUTS_CHANGED_CHANNEL,
  lockActiveRollout,
  markApplied,
  markNotApplied,
  fleetFrozen,
  selectActiveRolloutIds,
  selectDeployingMachines,
  selectFirstTargets,
  selectMachineAccounts,
  selectPendingTargetClasses,
  selectRolloutState,
  selectTargetInfo,
  selectTargetRestores,
  selectWaveTargetIds,
  setTargetStates,
  updateRollout,
  type DeployingMachine,
  type RolloutKind,
  type RolloutRow,
} from './rollouts.repository.js';
import { selectWaveDecisions, proceedWaveOperations } from './approvals.repository.js';

/** Default pass interval, ms (ROLLOUT_PASS_MS). */
export const ROLLOUT_PASS_MS = 1_000;

/** How many failed targets a halt reason names. */
const NAMED_FAILURES = 5;

/**
 * What a wave applies: the rollout's update to `targetIds`, or for a rollback
 * (`restores` set) each target's own versions back (issue 25 point 3).
 */
export type WaveUpdate = {
  principal: Principal;
  kind: RolloutKind;
  config: TSoftwareUpdateConfig;
  targetIds: number[];
  restores: Map<number, Record<string, unknown>> | null;
};

/**
 * The software update as the rollout engine applies it, per wave (implemented by
 * `modules/software-update/software-update.apply.ts` and `.restore.ts`): `plan`
 * answers each target's changes (the wave's audit changes), `apply` applies
 * them inside `tx` with `activityId` as the cause of the desired-version change,
 * throws a 422 problem naming refused targets, and answers the machines whose
 * desired versions changed and what each target had before (`previous`, kept
 * for the rollback).
 */
export interface SoftwareUpdateApplier {
  plan(tx: DbOrTx, o: WaveUpdate): Promise<TTargetResult[]>;
  apply(tx: DbOrTx, o: WaveUpdate & { activityId: number }): Promise<{ machineIds: number[]; previous: Map<number, unknown> }>;
}

export interface RolloutEngineDeps {
  db: Db;
  updates: SoftwareUpdateApplier;
  events?: TaskEvents;
  log?: Logger;
  /** The clock of wave timeouts (tests move it); default the system clock. */
  now?: () => Date;
}

type Outcome = { state: TRolloutTargetState; detail: string | null };

/**
 * The outcome of one machine an in-flight target waits for (step 2 of the
 * module docstring): final, AwaitingApproval while its UpdateSoftware waits for
 * approval, null while it deploys.
 */
function machineOutcome(m: DeployingMachine, wave: number): Outcome | null {
  if (m.cancelled) return { state: 'Failed', detail: `Cancelled: ${m.cancelled}` };
  if (m.failed) return { state: 'Failed', detail: `UpdateSoftware failed on ${m.machineName}` };
  if (!m.obsolete) return { state: 'Succeeded', detail: null };
  if (m.needsAdmin) return { state: 'Failed', detail: `${m.machineName} needs admin` };
  if (m.gone) return { state: 'Skipped', detail: `${m.machineName} is deleted or being terminated` };
  if (!m.managed) return { state: 'Skipped', detail: `${m.machineName} is unmanaged: nothing deploys there` };
  if (m.awaiting === 'anomaly') return { state: 'AwaitingApproval', detail: `${m.machineName} was in ANOMALY mode: its UpdateSoftware waits for approval (Approve wave, or its own Proceed once the wave is approved)` };
  if (m.awaiting === 'wave') return { state: 'AwaitingApproval', detail: `Waiting for the approval of wave ${wave + 1}` };
  return null;
}

/**
 * A target's state from its machines' outcomes (an account aggregates its
 * machines; a machine target has one): Failed if one failed, AwaitingApproval
 * if one waits for approval, null (Deploying) while one deploys, else Skipped
 * when all were skipped, else Succeeded.
 */
function targetOutcome(outcomes: (Outcome | null)[]): Outcome | null {
  const failed = outcomes.find((o) => o?.state === 'Failed');
  if (failed) return failed;
  const awaiting = outcomes.find((o) => o?.state === 'AwaitingApproval');
  if (awaiting) return awaiting;
  if (outcomes.some((o) => o === null)) return null;
  if (outcomes.length > 0 && outcomes.every((o) => o!.state === 'Skipped')) return { state: 'Skipped', detail: outcomes[0]!.detail };
  return { state: 'Succeeded', detail: null };
}

/**
 * The first `limit` Pending targets of the rollout's current wave, in request
 * order, that may be released at `now`: those whose classes (`windows.ts`:
 * a machine's, an account's and its machines') have no change window closed.
 */
async function releasableTargets(tx: DbOrTx, r: RolloutRow, limit: number, now: Date): Promise<number[]> {
  const closed = await selectClosedClasses(tx, now);
  if (closed.size === 0) return (await selectWaveTargetIds(tx, r.id, r.currentWave, 'Pending')).slice(0, limit);
  const pending = await selectPendingTargetClasses(tx, r.id, r.currentWave, r.kind);
  return pending.filter((t) => !t.classIds.some((c) => closed.has(c))).slice(0, limit).map((t) => t.id);
}

/**
 * Applies `targetIds` (Pending targets of the rollout's current wave: step 1).
 * Answers false when the update was refused (the rollout is then halted).
 */
async function applyWave(tx: DbOrTx, deps: RolloutEngineDeps, r: RolloutRow, config: TSoftwareUpdateConfig, targetIds: number[]): Promise<boolean> {
  const wave = r.currentWave;
  const principal: Principal = { ...r.principal, jti: `rollout-${r.id}` };
  const restores = r.rollbackOf === null ? null : await selectTargetRestores(tx, r.id, targetIds);
  const o: WaveUpdate = { principal, kind: r.kind, config, targetIds, restores };
  try {
    return await tx.transaction(async (sp) => {
      const planned = await deps.updates.plan(sp, o);
      const info = await selectTargetInfo(sp, r.kind, targetIds);
      const accounts = [...new Map(info.map((t) => [t.accountId, { id: t.accountId, name: t.accountName, classId: t.accountClassId }])).values()];
      const entity = r.kind === 'machines' ? 'Machine' : 'Account';
      const changes: TAuditChange[] = planned.flatMap((t) =>
        t.changes.map((c) => ({ entityName: `${entity} ${t.id}`, propertyName: c.field, oldValue: c.oldValue, newValue: c.newValue })),
      );
      const activityId = await insertActivity(sp, {
        action: 'RolloutWave',
        user: r.createdBy,
        accounts,
        params: { rolloutId: r.id, wave: wave + 1, [r.kind]: targetIds },
        changes,
      });
      const { machineIds, previous } = await deps.updates.apply(sp, { ...o, activityId });
      const byTarget = new Map<number, number[]>(targetIds.map((id) => [id, []]));
      if (r.kind === 'machines') for (const id of machineIds) byTarget.get(id)?.push(id);
      else for (const m of await selectMachineAccounts(sp, machineIds)) byTarget.get(m.accountId)?.push(m.id);
      await markApplied(sp, r.id, {
        activityId,
        targetIds,
        machineIds: targetIds.map((id) => byTarget.get(id)!),
        previous: targetIds.map((id) => previous.get(id) ?? null),
        skippedDetail: 'Desired versions did not change: nothing to deploy',
      });
      return true;
    });
  } catch (err) {
    if (!(err instanceof HttpProblem) || err.status >= 500) throw err;
    const named = (err.errors ?? []).slice(0, NAMED_FAILURES).map((e) => `${e.propertyName}: ${e.errorMessage}`);
    const reason = `Wave ${wave + 1} was refused: ${err.detail ?? err.title}${named.length > 0 ? ` (${named.join('; ')})` : ''}`;
    await markNotApplied(tx, r.id, reason, wave);
    await haltRollout(tx, r, reason);
    return false;
  }
}

/**
 * Evaluates the in-flight targets of wave `wave` (step 2; the current wave, or an
 * earlier one that a halt left deploying): each becomes what its
 * machines say (Deploying, AwaitingApproval or final). The wave timeout runs
 * from the wave's start, or from its approval when it needs one (not at all
 * before), and never fails a target that waits for approval. A wave that needs
 * approval and still waits for it `plan.approvalTimeoutMinutes` after its start
 * is rejected ('Approval timed out'), which halts the rollout.
 */
async function evaluateWave(tx: DbOrTx, deps: RolloutEngineDeps, r: RolloutRow, plan: TRolloutPlan, wave = r.currentWave): Promise<void> {
  const decision = (await selectWaveDecisions(tx, r.id)).get(wave);
  // An approved wave's operations queued since the approval (a deploy controller's pass racing it) proceed too.
  if (decision?.decision === 'Approved') await proceedWaveOperations(tx, { rolloutId: r.id, wave, user: decision.decidedBy, anomalyToo: false });
  const machines = await selectDeployingMachines(tx, r.id, wave);
  const inFlight = [...(await selectWaveTargetIds(tx, r.id, wave, 'Deploying')), ...(await selectWaveTargetIds(tx, r.id, wave, 'AwaitingApproval'))];
  if (inFlight.length === 0) return;
  const byTarget = new Map<number, (Outcome | null)[]>(inFlight.map((id) => [id, []]));
  for (const m of machines) byTarget.get(m.targetId)!.push(machineOutcome(m, wave));
  const startedAt = (await selectWaveTimes(tx, r.id)).get(wave)?.startedAt ?? null;
  const needsApproval = waveNeedsApproval(plan, wave);
  const clockFrom = needsApproval ? (decision?.decision === 'Approved' ? decision.decidedAt : null) : startedAt;
  const now = deps.now?.() ?? new Date();
  const timedOut = clockFrom !== null && now.getTime() - clockFrom.getTime() > plan.waveTimeoutMinutes * 60_000;
  const changes = [...byTarget].map(([targetId, outcomes]) => {
    // A target whose machines were all deleted since waits for nothing: Skipped.
    const outcome = outcomes.length === 0 ? { state: 'Skipped' as const, detail: 'Its machines are gone' } : targetOutcome(outcomes);
    if (outcome) return { targetId, ...outcome };
    return timedOut
      ? { targetId, state: 'Failed' as const, detail: `Timed out: not deployed ${plan.waveTimeoutMinutes} minutes after the wave ${needsApproval ? 'was approved' : 'started'}` }
      : { targetId, state: 'Deploying' as const, detail: null };
  });
  await setTargetStates(tx, r.id, IN_FLIGHT_STATES, changes);
  const awaiting = changes.some((c) => c.state === 'AwaitingApproval');
  const approvalExpired =
    needsApproval && !decision && startedAt !== null && now.getTime() - startedAt.getTime() > plan.approvalTimeoutMinutes * 60_000;
  if (awaiting && approvalExpired && r.status === 'Running' && wave === r.currentWave) {
    await rejectWave(tx, r, { wave, user: ROLLOUT_USER, reason: 'Approval timed out' });
  }
}

/**
 * Moves one locked rollout as far as it can (steps 1 to 3), inside `tx`. Answers
 * whether anything changed. Bounded: at most one step per wave plus one.
 */
async function advance(tx: DbOrTx, deps: RolloutEngineDeps, r: RolloutRow): Promise<boolean> {
  const plan = ZRolloutPlan.parse(r.plan);
  const config = ZSoftwareUpdateConfig.parse(r.config);
  const before = JSON.stringify([r.status, r.currentWave, await selectWaveCounts(tx, r.id)]);
  // Targets still deploying in an earlier wave (a halt mid-wave, then Resume) are followed to their end.
  const earlier = (await selectWaveCounts(tx, r.id)).slice(0, r.currentWave);
  for (const [wave, c] of earlier.entries()) if (c.Deploying + c.AwaitingApproval > 0) await evaluateWave(tx, deps, r, plan, wave);
  for (let step = 0; step <= plan.waves.length + 2; step++) {
    const waves = await selectWaveCounts(tx, r.id);
    if (!waves[r.currentWave]) {
      if (r.status === 'Running') {
        r.status = 'Completed';
        await updateRollout(tx, r.id, { status: 'Completed', reason: null, currentWave: Math.max(0, waves.length - 1) });
      }
      break;
    }
    // The targets in flight first: a failure past the threshold halts the rollout before anything more is released.
    await evaluateWave(tx, deps, r, plan);
    const counts = (await selectWaveCounts(tx, r.id))[r.currentWave]!;
    const size = Object.values(counts).reduce((a, b) => a + b, 0);
    // The cap (maxConcurrent): only as many targets deploy at once; the next pass releases more as they finish.
    const room = concurrencyOf(size, plan.maxConcurrent) - counts.Deploying - counts.AwaitingApproval;
    if (counts.Pending > 0 && r.status === 'Running' && room > 0 && !thresholdExceeded(counts.Failed, size, plan) && !(await fleetFrozen(tx))) {
      // Change windows (windows.ts): targets of a class whose windows are closed wait for the next opening.
      const ready = await releasableTargets(tx, r, room, deps.now?.() ?? new Date());
      if (ready.length > 0 && !(await applyWave(tx, deps, r, config, ready))) break;
    }
    let after = (await selectWaveCounts(tx, r.id))[r.currentWave]!;
    if (r.status !== 'Running') break;
    // Every target final and the threshold holding: the wave bakes (bake.ts) before the next one, which may fail targets.
    let bake: BakeState = 'none';
    if (after.Deploying + after.AwaitingApproval + after.Pending === 0 && !thresholdExceeded(after.Failed, size, plan)) {
      bake = await stepBake(tx, r, plan, deps.now?.() ?? new Date());
      after = (await selectWaveCounts(tx, r.id))[r.currentWave]!;
    }
    // The threshold, checked as each target finishes: past it, nothing more is released and the rollout halts at once.
    if (thresholdExceeded(after.Failed, size, plan)) {
      const first = await selectFirstTargets(tx, r.id, r.currentWave, 'Failed', NAMED_FAILURES);
      const names = first.map((t) => `${t.name}${t.detail ? ` (${t.detail})` : ''}`).join(', ');
      const unreleased = await markNotApplied(tx, r.id, `Not applied: wave ${r.currentWave + 1} passed its failure threshold`, r.currentWave);
      await haltRollout(
        tx,
        r,
        `Wave ${r.currentWave + 1}: ${after.Failed} of ${size} targets failed, more than the threshold ` +
          `(${plan.maxFailedTargets} targets or ${plan.maxFailedPercent} %): ${names}${after.Failed > first.length ? ', …' : ''}` +
          (unreleased > 0 ? `; ${unreleased} target${unreleased === 1 ? '' : 's'} of the wave not released` : ''),
      );
      break;
    }
    if (after.Deploying > 0 || after.AwaitingApproval > 0 || after.Pending > 0 || bake === 'baking') break;
    if (r.currentWave + 1 >= waves.length) {
      r.status = 'Completed';
      await updateRollout(tx, r.id, { status: 'Completed', reason: null, currentWave: r.currentWave });
      break;
    }
    r.currentWave += 1;
    await updateRollout(tx, r.id, { status: r.status, reason: r.reason, currentWave: r.currentWave });
  }
  return JSON.stringify([r.status, r.currentWave, await selectWaveCounts(tx, r.id)]) !== before;
}

/** Announces a rollout's progress (RolloutProgress) to the users who may see it. */
export async function announceProgress(db: DbOrTx, events: TaskEvents | undefined, rolloutId: number): Promise<void> {
  if (!events) return;
  const row = await selectRolloutState(db, rolloutId);
  if (!row) return;
  const counts = totalCounts(await selectWaveCounts(db, rolloutId));
  events.emit({
    name: ROLLOUT_PROGRESS_EVENT,
    rollout: { rolloutId, status: row.status, currentWave: row.currentWave, counts },
    customerProduction: row.customerProduction,
  });
}

/**
 * One pass over the active rollouts (see the module docstring); each rollout in
 * its own transaction, skipped when another worker holds it. Answers the ids of
 * the rollouts that changed (announced after their commits).
 */
export async function rolloutPass(deps: RolloutEngineDeps): Promise<number[]> {
  const changed: number[] = [];
  for (const id of await selectActiveRolloutIds(deps.db)) {
    const moved = await deps.db.transaction(async (tx) => {
      const r = await lockActiveRollout(tx, id);
      return r ? advance(tx, deps, r) : false;
    });
    if (moved) {
      changed.push(id);
      await announceProgress(deps.db, deps.events, id);
    }
  }
  return changed;
}

export interface RolloutEngineOptions extends RolloutEngineDeps {
  /** Pass interval, ms (default {@link ROLLOUT_PASS_MS}). */
  everyMs?: number;
  /** Listen for {@link ROLLOUTS_CHANGED_CHANNEL} (default true). */
  listen?: boolean;
}

export interface RolloutEngine {
  /** Runs a pass soon (coalesced with one in flight: it runs again after it). */
  wake(): void;
  /** Runs one pass now (after the one in flight) and answers the rollouts it changed. */
  pass(): Promise<number[]>;
  /** Stops the timer and the listener, waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * Starts the rollout engine (worker role): a pass at once, then every `everyMs`
 * and when woken by `wake()` or a NOTIFY on {@link ROLLOUTS_CHANGED_CHANNEL} (a
 * rollout started or resumed). Failures are logged and retried at the next pass.
 * Call `stop()` before closing the pool.
 */
export function startRolloutEngine(opts: RolloutEngineOptions): RolloutEngine {
  return startPassLoop({
    pass: () => rolloutPass(opts),
    everyMs: opts.everyMs ?? ROLLOUT_PASS_MS,
    channel: opts.listen === false ? null : ROLLOUTS_CHANGED_CHANNEL,
    connection: opts.db.$client.options,
    log: opts.log,
    what: 'rollout',
  });
}
