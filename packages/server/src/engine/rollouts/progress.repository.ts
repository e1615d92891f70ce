/**
 * Reads of a rollout's progress (DESIGN §16): the per-wave counts by target
 * state and the waves' times, from `rollout_waves`, which the triggers of
 * migration 0026 keep in the transaction of each target change, so every read
 * is one primary-key range whatever the number of targets. Split from
 * rollouts.repository.ts (the rollouts' and targets' rows and writes).
 */
import { sql } from 'drizzle-orm';
import { ROLLOUT_TARGET_STATES, type TRolloutTargetCounts } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';

const zeroCounts = (): TRolloutTargetCounts => Object.fromEntries(ROLLOUT_TARGET_STATES.map((s) => [s, 0])) as TRolloutTargetCounts;

/** One wave's progress as `rollout_waves` keeps it (migration 0026): its counts, start and last change. */
export type WaveProgress = { counts: TRolloutTargetCounts; startedAt: Date | null; lastChange: Date | null };

const WAVE_COUNT_COLUMNS = sql`pending as "Pending", deploying as "Deploying", awaiting_approval as "AwaitingApproval",
  succeeded as "Succeeded", failed as "Failed", skipped as "Skipped", not_applied as "NotApplied"`;

/**
 * The progress of each wave of a rollout (index = wave; a wave without targets
 * has zero counts and no times): one primary-key range read of `rollout_waves`,
 * whatever the number of targets. Exact in the caller's transaction too (the
 * triggers of migration 0026 run in the transaction of each target change).
 */
export async function selectWaveProgress(db: DbOrTx, rolloutId: number): Promise<WaveProgress[]> {
  const { rows } = await db.execute<TRolloutTargetCounts & { wave: number; startedAt: Date | null; lastChange: Date | null }>(sql`
    select wave, ${WAVE_COUNT_COLUMNS}, started_at as "startedAt", last_change_at as "lastChange"
    from rollout_waves where rollout_id = ${rolloutId} order by wave`);
  const waves: WaveProgress[] = [];
  for (const r of rows) {
    while (waves.length < r.wave) waves.push({ counts: zeroCounts(), startedAt: null, lastChange: null });
    const counts = zeroCounts();
    for (const s of ROLLOUT_TARGET_STATES) counts[s] = r[s];
    waves.push({ counts, startedAt: r.startedAt ? new Date(r.startedAt) : null, lastChange: r.lastChange ? new Date(r.lastChange) : null });
  }
  return waves;
}

/** Counts of a rollout's targets by state, per wave (index = wave); from `rollout_waves`. */
export async function selectWaveCounts(db: DbOrTx, rolloutId: number): Promise<TRolloutTargetCounts[]> {
  return (await selectWaveProgress(db, rolloutId)).map((w) => w.counts);
}

/** Counts by state of several rollouts at once (the list): rollout id → counts; sums of their `rollout_waves` rows. */
export async function selectCountsOf(db: DbOrTx, rolloutIds: number[]): Promise<Map<number, TRolloutTargetCounts>> {
  const out = new Map<number, TRolloutTargetCounts>(rolloutIds.map((id) => [id, zeroCounts()]));
  if (rolloutIds.length === 0) return out;
  const { rows } = await db.execute<TRolloutTargetCounts & { id: number }>(sql`
    select rollout_id as id, sum(pending)::int as "Pending", sum(deploying)::int as "Deploying",
      sum(awaiting_approval)::int as "AwaitingApproval", sum(succeeded)::int as "Succeeded",
      sum(failed)::int as "Failed", sum(skipped)::int as "Skipped", sum(not_applied)::int as "NotApplied"
    from rollout_waves where rollout_id = any(${sql.param(rolloutIds)}::int[]) group by rollout_id`);
  for (const r of rows) {
    const counts = out.get(r.id)!;
    for (const s of ROLLOUT_TARGET_STATES) counts[s] = r[s];
  }
  return out;
}

/** Sums per-wave counts. */
export function totalCounts(waves: TRolloutTargetCounts[]): TRolloutTargetCounts {
  const total = zeroCounts();
  for (const w of waves) for (const s of ROLLOUT_TARGET_STATES) total[s] += w[s];
  return total;
}

/**
 * When each wave started (the time of its RolloutWave activity; null while not
 * applied) and its last target's change, per wave; from `rollout_waves`.
 */
export async function selectWaveTimes(db: DbOrTx, rolloutId: number): Promise<Map<number, { startedAt: Date | null; lastChange: Date }>> {
  const waves = await selectWaveProgress(db, rolloutId);
  const out = new Map<number, { startedAt: Date | null; lastChange: Date }>();
  waves.forEach((w, wave) => {
    if (w.lastChange) out.set(wave, { startedAt: w.startedAt, lastChange: w.lastChange });
  });
  return out;
}
