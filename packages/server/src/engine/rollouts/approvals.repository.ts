/**
 * SQL of the approvals of rollout waves (issue 25 point 1; `approvals.ts`,
 * `README.md` Approvals): the decisions (`rollout_wave_decisions`), and the
 * UpdateSoftware operations a wave or a rollout caused (by their activity),
 * proceeded or cancelled set-based, one statement each.
 */
import { sql } from 'drizzle-orm';
import { OPERATION_MODE_ANOMALY } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { notifyOperationMachines } from '../operations/operations.repository.js';

/** A wave's approval decision as `rollout_wave_decisions` keeps it, or undefined while none was made. */
export type WaveDecisionRow = { wave: number; decision: 'Approved' | 'Rejected'; decidedBy: string; reason: string; decidedAt: Date };

/** The decisions on a rollout's waves, by wave (from 0). */
export async function selectWaveDecisions(db: DbOrTx, rolloutId: number): Promise<Map<number, WaveDecisionRow>> {
  const { rows } = await db.execute<WaveDecisionRow>(sql`
    select wave, decision, decided_by as "decidedBy", reason, decided_at as "decidedAt"
    from rollout_wave_decisions where rollout_id = ${rolloutId}`);
  return new Map(rows.map((r) => [r.wave, { ...r, decidedAt: new Date(r.decidedAt) }]));
}

/** Records the decision on a wave; the first one stands (answers false when the wave already had one). */
export async function insertWaveDecision(
  tx: DbOrTx,
  d: { rolloutId: number; wave: number; decision: 'Approved' | 'Rejected'; decidedBy: string; reason: string; activityId: number },
): Promise<boolean> {
  const { rowCount } = await tx.execute(sql`
    insert into rollout_wave_decisions (rollout_id, wave, decision, decided_by, reason, activity_id)
    values (${d.rolloutId}, ${d.wave}, ${d.decision}, ${d.decidedBy}, ${d.reason}, ${d.activityId})
    on conflict (rollout_id, wave) do nothing`);
  return (rowCount ?? 0) > 0;
}

/**
 * PROCEEDs the UpdateSoftware operations of a wave that wait for approval
 * (pending and undecided, not started), as `user`; `anomalyToo` false leaves the
 * ones queued in ANOMALY mode waiting (the engine's repair of an approved wave:
 * only an operator's Approve wave proceeds those). Notifies the agents (on
 * commit). Answers the ids, ascending.
 */
export async function proceedWaveOperations(tx: DbOrTx, o: { rolloutId: number; wave: number; user: string; anomalyToo: boolean }): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number; machineId: number }>(sql`
    update operations o set pending = false, decision = 'PROCEED', decided_by = ${o.user}
    where o.activity_id in (select distinct rt.activity_id from rollout_targets rt
                            where rt.rollout_id = ${o.rolloutId} and rt.wave = ${o.wave} and rt.activity_id is not null)
      and o.type_name = 'UpdateSoftware' and o.pending and o.decision is null and o.status is null and o.finished_at is null
      ${o.anomalyToo ? sql`` : sql`and o.operation_mode <> ${OPERATION_MODE_ANOMALY}`}
    returning o.id, o.machine_id as "machineId"`);
  await notifyOperationMachines(tx, rows);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * Cancels every UpdateSoftware the rollout's waves caused that has not started
 * (queued, or waiting for approval): decision CANCEL by user `Rollout` with
 * `reason` (the operation's log then says 'Cancelled: {reason}'), so that
 * nothing deploys after the rollout gave up. Notifies the agents (on commit),
 * which end them. Answers the ids, ascending.
 */
export async function cancelRolloutOperations(tx: DbOrTx, o: { rolloutId: number; user: string; reason: string }): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number; machineId: number }>(sql`
    update operations o set pending = false, decision = 'CANCEL', decided_by = ${o.user}, decision_reason = ${o.reason}
    where o.activity_id in (select distinct rt.activity_id from rollout_targets rt
                            where rt.rollout_id = ${o.rolloutId} and rt.activity_id is not null)
      and o.type_name = 'UpdateSoftware' and o.status is null and o.finished_at is null
      and o.decision is distinct from 'CANCEL'
    returning o.id, o.machine_id as "machineId"`);
  await notifyOperationMachines(tx, rows);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Whether any UpdateSoftware of the wave waits for approval (pending, undecided, not started). */
export async function waveAwaitsApproval(tx: DbOrTx, rolloutId: number, wave: number): Promise<boolean> {
  const { rows } = await tx.execute<{ awaits: boolean }>(sql`
    select exists (select 1 from operations o
      where o.activity_id in (select distinct rt.activity_id from rollout_targets rt
                              where rt.rollout_id = ${rolloutId} and rt.wave = ${wave} and rt.activity_id is not null)
        and o.type_name = 'UpdateSoftware' and o.pending and o.decision is null and o.finished_at is null) as awaits`);
  return rows[0]!.awaits;
}

/**
 * The rollout wave whose approval holds operation `operationId`: a wave that
 * needs approval (perWave, or the first wave of firstWaveOnly) and has no
 * decision yet, of a Running or Paused rollout, caused the operation. Null when
 * no such wave holds it (its own Proceed may release it).
 */
export async function selectHoldingWave(tx: DbOrTx, operationId: number): Promise<{ rolloutId: number; wave: number } | null> {
  const { rows } = await tx.execute<{ rolloutId: number; wave: number }>(sql`
    select rt.rollout_id as "rolloutId", rt.wave
    from operations o join rollout_targets rt on rt.activity_id = o.activity_id join rollouts r on r.id = rt.rollout_id
    where o.id = ${operationId} and r.status in ('Running', 'Paused')
      and (r.plan->>'approval' = 'perWave' or (r.plan->>'approval' = 'firstWaveOnly' and rt.wave = 0))
      and not exists (select 1 from rollout_wave_decisions d where d.rollout_id = rt.rollout_id and d.wave = rt.wave)
    limit 1`);
  return rows[0] ?? null;
}
