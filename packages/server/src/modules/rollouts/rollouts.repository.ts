/**
 * SQL of the rollout reads (`GET /rollouts`, `/rollouts/{id}/targets`); the
 * rollout rows themselves and the engine's statements are in
 * `engine/rollouts/rollouts.repository.ts`.
 */
import { sql } from 'drizzle-orm';
import type { TRolloutStatus, TRolloutTargetState } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { ROLLOUT_COLUMNS, type RolloutRow } from '../../engine/rollouts/rollouts.repository.js';

/** A page of rollouts, newest first, with the total; without Customer Production ones when `hideCustomerProduction`. */
export async function selectRolloutsPage(
  db: DbOrTx,
  q: { status?: TRolloutStatus; startIndex: number; limit: number; hideCustomerProduction: boolean },
): Promise<{ rows: RolloutRow[]; total: number }> {
  const where = sql`where true ${q.status ? sql`and status = ${q.status}` : sql``} ${q.hideCustomerProduction ? sql`and not customer_production` : sql``}`;
  const [{ rows }, count] = await Promise.all([
    db.execute<RolloutRow>(sql`
      select ${ROLLOUT_COLUMNS}
      from rollouts ${where} order by id desc offset ${q.startIndex} limit ${q.limit}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from rollouts ${where}`),
  ]);
  return { rows, total: count.rows[0]!.n };
}

export type RolloutTargetRow = { id: number; name: string; wave: number; state: TRolloutTargetState; detail: string | null; updatedAt: Date };

/** A page of a rollout's targets in request order (wave, then position), with the total. */
export async function selectTargetsPage(
  db: DbOrTx,
  rolloutId: number,
  q: { wave?: number; state?: TRolloutTargetState; startIndex: number; limit: number },
): Promise<{ rows: RolloutTargetRow[]; total: number }> {
  const where = sql`where rollout_id = ${rolloutId} ${q.wave === undefined ? sql`` : sql`and wave = ${q.wave}`} ${q.state ? sql`and state = ${q.state}` : sql``}`;
  const [{ rows }, count] = await Promise.all([
    db.execute<RolloutTargetRow>(sql`
      select target_id as id, name, wave, state, detail, updated_at as "updatedAt"
      from rollout_targets ${where} order by position offset ${q.startIndex} limit ${q.limit}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from rollout_targets ${where}`),
  ]);
  return { rows, total: count.rows[0]!.n };
}
