/**
 * Rollouts (DESIGN §15; spec 3 §7 Updater and batch; issue 25): a rollout's
 * status and targets' states, its waves with their approval and bake, the
 * decisions on a wave, and the RolloutProgress push event. The plan a rollout
 * follows (`ZRolloutPlan`) is the software update's (`updater.ts`).
 */
import { z } from 'zod';
import { PAGE_QUERY_FIELDS, ZId, zPaged } from './common.js';
import { MAX_UPDATE_TARGETS, ZRolloutPlan } from './updater.js';

export const ROLLOUT_STATUSES = ['Running', 'Paused', 'Halted', 'Aborted', 'Completed'] as const;
export const ZRolloutStatus = z.enum(ROLLOUT_STATUSES);
export type TRolloutStatus = z.infer<typeof ZRolloutStatus>;
/**
 * A target's state in a rollout: Pending (its wave has not started), Deploying
 * (changed, deploys running), AwaitingApproval (changed, a deploy waits for
 * approval: Approve wave, or the operation's Proceed for a rule of its own),
 * Succeeded, Failed (a deploy failed or timed out, or its wave was rejected),
 * Skipped (nothing to deploy there, e.g. unmanaged), NotApplied (the rollout
 * was aborted or halted before its wave).
 */
export const ROLLOUT_TARGET_STATES = ['Pending', 'Deploying', 'AwaitingApproval', 'Succeeded', 'Failed', 'Skipped', 'NotApplied'] as const;
export const ZRolloutTargetState = z.enum(ROLLOUT_TARGET_STATES);
export type TRolloutTargetState = z.infer<typeof ZRolloutTargetState>;
export const ROLLOUT_KINDS = ['machines', 'accounts'] as const;
export const ZRolloutKind = z.enum(ROLLOUT_KINDS);

export const ZRolloutTargetCounts = z.object(Object.fromEntries(ROLLOUT_TARGET_STATES.map((s) => [s, z.number().int()])) as Record<TRolloutTargetState, z.ZodNumber>);
export type TRolloutTargetCounts = z.infer<typeof ZRolloutTargetCounts>;

/** An operator's decision on a wave's approval (`POST /rollouts/{id}/waves/{wave}/approve|reject`). */
export const WAVE_DECISIONS = ['Approved', 'Rejected'] as const;
export const ZWaveDecision = z.enum(WAVE_DECISIONS);

/**
 * A wave's approval: `required` by the plan (perWave, or the first wave of
 * firstWaveOnly), and the decision once made (user `Rollout` for an approval
 * that timed out), with its reason and time.
 */
export const ZWaveApproval = z.object({
  required: z.boolean(),
  decision: ZWaveDecision.nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TWaveApproval = z.infer<typeof ZWaveApproval>;

/** A probe of a baking wave's machine that fails now (its launcher or site master URL), failing since `since`. */
export const ZBakeFailingProbe = z.object({
  machineId: z.number().int(),
  machineName: z.string(),
  kind: z.enum(['launcher', 'siteMaster']),
  url: z.string(),
  since: z.string(),
});

/**
 * A wave's bake (issue 25 point 2): when it started and ends, its result once
 * over (Passed, or Failed with the unhealthy targets), and the probes of its
 * machines failing now (at most 10).
 */
export const ZWaveBake = z.object({
  startedAt: z.string(),
  endsAt: z.string(),
  result: z.enum(['Passed', 'Failed']).nullable(),
  unhealthy: z.number().int(),
  failingProbes: z.array(ZBakeFailingProbe),
});
export type TWaveBake = z.infer<typeof ZWaveBake>;

export const ZRolloutWave = z.object({
  index: z.number().int(),
  size: z.number().int(),
  status: z.enum(['Pending', 'Running', 'AwaitingApproval', 'Baking', 'Succeeded', 'Halted', 'NotApplied']),
  counts: ZRolloutTargetCounts,
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  approval: ZWaveApproval,
  /** Null while the wave has not baked (or the plan has no bake). */
  bake: ZWaveBake.nullable(),
});
export type TRolloutWave = z.infer<typeof ZRolloutWave>;

/** A rollout with its progress per wave (`GET /rollouts/{id}`). */
export const ZRollout = z.object({
  id: z.number().int(),
  kind: ZRolloutKind,
  status: ZRolloutStatus,
  /** Why it stopped (halted, aborted), or null. */
  reason: z.string().nullable(),
  plan: ZRolloutPlan,
  /** The software update it rolls out (only the softwares and library modes not Skip). */
  config: z.record(z.string(), z.unknown()),
  createdBy: z.string(),
  /** Whether a wave must be approved by another user than `createdBy` (ROLLOUT_REQUIRE_SECOND_APPROVER). */
  secondApproverRequired: z.boolean(),
  /** Whether the user asking started it (then, with `secondApproverRequired`, they may not approve or reject its waves). */
  startedByYou: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The audit activity of the request that started it. */
  activityId: z.number().int().nullable(),
  currentWave: z.number().int(),
  /** The rollout this one rolls back (its targets get their versions from before that rollout's waves), or null. */
  rollbackOf: z.number().int().nullable(),
  /** The rollout that rolls this one back, or null (a rollout is rolled back once). */
  rolledBackBy: z.number().int().nullable(),
  /**
   * Why a Running rollout's current wave releases nothing now, or null: the
   * fleet freeze (who and why) or a change window ('Waiting for the change
   * window (opens Tue 02:00 Europe/Berlin)'; issue 25 point 5). `GET
   * /rollouts/{id}` only (null in the list).
   */
  waitingFor: z.string().nullable(),
  waves: z.array(ZRolloutWave),
  counts: ZRolloutTargetCounts,
});
export type TRollout = z.infer<typeof ZRollout>;
export const ZRolloutsQuery = z.object({ ...PAGE_QUERY_FIELDS, status: ZRolloutStatus.optional() });

/** `/rollouts/{id}/waves/{wave}/…`: the rollout and its wave, numbered from 1 as the rollout page shows it. */
export const ZRolloutWaveParams = z.object({
  id: ZId,
  wave: z.coerce.number().int().min(1).max(20),
});
/** The body of Approve wave and Reject: why (kept in the audit trail). */
export const ZWaveDecisionRequest = z.object({
  reason: z.string().trim().min(1, 'Say why').max(500),
});
export type TWaveDecisionRequest = z.infer<typeof ZWaveDecisionRequest>;
/**
 * `POST /rollouts/{id}/rollback` (issue 25 point 3): `dryRun` answers what the
 * rollback would change per target, without starting it.
 */
export const ZRollbackRequest = z.object({ dryRun: z.boolean().default(false) });
export type TRollbackRequest = z.input<typeof ZRollbackRequest>;
export const ZRolloutsResponse = zPaged(ZRollout.omit({ waves: true, waitingFor: true }));
export type TRolloutsResponse = z.infer<typeof ZRolloutsResponse>;

/** One target of a rollout (`GET /rollouts/{id}/targets`). */
export const ZRolloutTarget = z.object({
  id: z.number().int(),
  name: z.string(),
  wave: z.number().int(),
  state: ZRolloutTargetState,
  detail: z.string().nullable(),
  updatedAt: z.string(),
});
export type TRolloutTarget = z.infer<typeof ZRolloutTarget>;
export const ZRolloutTargetsQuery = z.object({
  ...PAGE_QUERY_FIELDS,
  wave: z.coerce.number().int().min(0).max(MAX_UPDATE_TARGETS).optional(),
  state: ZRolloutTargetState.optional(),
});
export const ZRolloutTargetsResponse = zPaged(ZRolloutTarget);

/** The push event of a rollout's progress on `/taskHub` (same visibility as its targets). */
export const ROLLOUT_PROGRESS_EVENT = 'RolloutProgress';
export const ZRolloutProgressEvent = z.object({
  rolloutId: z.number().int(),
  status: ZRolloutStatus,
  currentWave: z.number().int(),
  counts: ZRolloutTargetCounts,
});
export type TRolloutProgressEvent = z.infer<typeof ZRolloutProgressEvent>;

