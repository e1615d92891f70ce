/**
 * SQL of rollouts (DESIGN §15; `README.md`): the rollout rows, their targets and
 * what a wave's targets wait for. Every statement is set-based (`= any($ids)`,
 * `unnest` of arrays): one round trip per kind of change, never one per target.
 */
import { sql } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION, OPERATION_MODE_ANOMALY, type TRolloutStatus, type TRolloutTargetState } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { FLEET_FROZEN } from '../../modules/freeze/freeze.schema.js';

/** NOTIFY channel that wakes the rollout engine (a rollout started or resumed). */
export const ROLLOUTS_CHANGED_CHANNEL = 'rollouts_changed';

export type RolloutKind = 'machines' | 'accounts';

/** A rollout row as the engine and the routes read it. */
export type RolloutRow = {
  id: number;
  kind: RolloutKind;
  status: TRolloutStatus;
  reason: string | null;
  plan: Record<string, unknown>;
  config: Record<string, unknown>;
  createdBy: string;
  principal: Omit<Principal, 'jti'>;
  customerProduction: boolean;
  activityId: number | null;
  currentWave: number;
  /** The rollout this one rolls back (issue 25 point 3), or null. */
  rollbackOf: number | null;
  /** The rollout that rolls this one back, or null. */
  rolledBackBy: number | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The columns of {@link RolloutRow} (the rollback found by the unique index on `rollback_of`). */
export const ROLLOUT_COLUMNS = sql`id, kind, status, reason, plan, config, created_by as "createdBy", principal,
  customer_production as "customerProduction", activity_id as "activityId", current_wave as "currentWave",
  rollback_of as "rollbackOf", (select b.id from rollouts b where b.rollback_of = rollouts.id) as "rolledBackBy",
  created_at as "createdAt", updated_at as "updatedAt"`;

/** A target as named by the request: its name, account and whether it is Customer Production (its or its account's class). */
export type TargetInfo = {
  id: number;
  name: string;
  accountId: number;
  accountName: string;
  accountClassId: number;
  customerProduction: boolean;
};

/** The live targets of `ids` (machines or accounts), in no particular order; unknown ids are absent. */
export async function selectTargetInfo(tx: DbOrTx, kind: RolloutKind, ids: number[]): Promise<TargetInfo[]> {
  const query =
    kind === 'machines'
      ? sql`select m.id, m.name, a.id as "accountId", a.name as "accountName", a.class_id as "accountClassId",
              ${CLASS_CUSTOMER_PRODUCTION} in (m.class_id, a.class_id) as "customerProduction"
            from machines m join accounts a on a.id = m.account_id where m.id = any(${sql.param(ids)}::int[]) and m.deleted_at is null`
      : sql`select a.id, a.name, a.id as "accountId", a.name as "accountName", a.class_id as "accountClassId",
              a.class_id = ${CLASS_CUSTOMER_PRODUCTION} as "customerProduction"
            from accounts a where a.id = any(${sql.param(ids)}::int[]) and a.deleted_at is null`;
  return (await tx.execute<TargetInfo>(query)).rows;
}

/** Whether a target (a machine, or a machine of an account) is of a class with `isProduction` (its deploys wait for approval, DESIGN §12). */
export async function selectHasProductionTargets(tx: DbOrTx, kind: RolloutKind, ids: number[]): Promise<boolean> {
  const column = kind === 'machines' ? sql`m.id` : sql`m.account_id`;
  const { rows } = await tx.execute<{ production: boolean }>(sql`
    select exists (select 1 from machines m join mma_classes c on c.id = m.class_id
      where ${column} = any(${sql.param(ids)}::int[]) and m.deleted_at is null and c.is_production) as production`);
  return rows[0]!.production;
}

/** Inserts a Running rollout (`rollbackOf`: the rollout it rolls back); answers its id. */
export async function insertRollout(
  tx: DbOrTx,
  r: {
    kind: RolloutKind;
    plan: unknown;
    config: unknown;
    principal: Omit<Principal, 'jti'>;
    customerProduction: boolean;
    activityId: number | null;
    rollbackOf?: number | null;
  },
): Promise<number> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    insert into rollouts (kind, status, plan, config, created_by, principal, customer_production, activity_id, rollback_of)
    values (${r.kind}, 'Running', ${JSON.stringify(r.plan)}::jsonb, ${JSON.stringify(r.config)}::jsonb, ${r.principal.username},
      ${JSON.stringify(r.principal)}::jsonb, ${r.customerProduction}, ${r.activityId}, ${r.rollbackOf ?? null})
    returning id`);
  return rows[0]!.id;
}

/**
 * Inserts the targets of a rollout, all Pending: `ids[i]` named `names[i]` in
 * wave `waves[i]`, position i, and for a rollback `restores[i]` (what it puts
 * back). One statement.
 */
export async function insertTargets(
  tx: DbOrTx,
  rolloutId: number,
  t: { ids: number[]; names: string[]; waves: number[]; restores?: unknown[] },
): Promise<void> {
  const restores = (t.restores ?? t.ids.map(() => null)).map((r) => (r === null ? null : JSON.stringify(r)));
  await tx.execute(sql`
    insert into rollout_targets (rollout_id, target_id, position, name, wave, state, restore)
    select ${rolloutId}, t.id, t.ord::int - 1, t.name, t.wave, 'Pending', t.restore::jsonb
    from unnest(${sql.param(t.ids)}::int[], ${sql.param(t.names)}::text[], ${sql.param(t.waves)}::int[], ${sql.param(restores)}::text[])
      with ordinality as t(id, name, wave, restore, ord)`);
}

/** What a rollback's targets put back (`rollout_targets.restore`), by target id. */
export async function selectTargetRestores(tx: DbOrTx, rolloutId: number, targetIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  const { rows } = await tx.execute<{ id: number; restore: Record<string, unknown> | null }>(sql`
    select target_id as id, restore from rollout_targets where rollout_id = ${rolloutId} and target_id = any(${sql.param(targetIds)}::int[])`);
  return new Map(rows.map((r) => [r.id, r.restore ?? {}]));
}

/**
 * The targets of a rollout that a wave applied and changed, with what they had
 * before (`previous`), in request order: what its rollback puts back. Targets
 * applied before rollbacks existed (no `previous`) are left out.
 */
export async function selectRollbackTargets(tx: DbOrTx, rolloutId: number): Promise<{ id: number; name: string; previous: Record<string, unknown> }[]> {
  const { rows } = await tx.execute<{ id: number; name: string; previous: Record<string, unknown> }>(sql`
    select target_id as id, name, previous from rollout_targets
    where rollout_id = ${rolloutId} and activity_id is not null and previous is not null and cardinality(machine_ids) > 0
    order by position`);
  return rows;
}

/** Records the audit activity of the request that started the rollout. */
export async function setRolloutActivity(tx: DbOrTx, rolloutId: number, activityId: number): Promise<void> {
  await tx.execute(sql`update rollouts set activity_id = ${activityId} where id = ${rolloutId}`);
}

/** Wakes the engines after the transaction commits. */
export async function notifyRolloutsChanged(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_notify(${ROLLOUTS_CHANGED_CHANNEL}, '')`);
}

/**
 * What makes a rollout active (a pass looks at it): Running (waves advance),
 * Paused (deploys still finish), or Halted or Aborted with targets still
 * deploying (a halt mid-wave: they are followed to their end).
 */
const ACTIVE = sql`(status in ('Running', 'Paused') or (status in ('Halted', 'Aborted')
  and exists (select 1 from rollout_waves w where w.rollout_id = rollouts.id and w.deploying + w.awaiting_approval > 0)))`;

/** Ids of the active rollouts (see {@link ACTIVE}), oldest first. */
export async function selectActiveRolloutIds(db: DbOrTx): Promise<number[]> {
  const { rows } = await db.execute<{ id: number }>(sql`select id from rollouts where ${ACTIVE} order by id`);
  return rows.map((r) => r.id);
}

/** The rollout, locked for this transaction; null when another worker holds it (`skip locked`) or it is no longer active. */
export async function lockActiveRollout(tx: DbOrTx, id: number): Promise<RolloutRow | null> {
  const { rows } = await tx.execute<RolloutRow>(sql`select ${ROLLOUT_COLUMNS} from rollouts where id = ${id} and ${ACTIVE} for update skip locked`);
  return rows[0] ?? null;
}

/** The rollout locked for an operator's transition (waits for a pass holding it). */
export async function lockRollout(tx: DbOrTx, id: number): Promise<RolloutRow | null> {
  const { rows } = await tx.execute<RolloutRow>(sql`select ${ROLLOUT_COLUMNS} from rollouts where id = ${id} for update`);
  return rows[0] ?? null;
}

/** One rollout, or null. `hideCustomerProduction`: null for a rollout with a Customer Production target. */
export async function selectRollout(db: DbOrTx, id: number, hideCustomerProduction: boolean): Promise<RolloutRow | null> {
  const { rows } = await db.execute<RolloutRow>(
    sql`select ${ROLLOUT_COLUMNS} from rollouts where id = ${id} ${hideCustomerProduction ? sql`and not customer_production` : sql``}`,
  );
  return rows[0] ?? null;
}

/** A rollout's status, current wave and visibility (the progress event), or null. */
export async function selectRolloutState(db: DbOrTx, id: number) {
  const { rows } = await db.execute<{ status: TRolloutStatus; currentWave: number; customerProduction: boolean }>(
    sql`select status, current_wave as "currentWave", customer_production as "customerProduction" from rollouts where id = ${id}`,
  );
  return rows[0] ?? null;
}

/** Sets a rollout's status, reason and current wave, and its updatedAt. */
export async function updateRollout(tx: DbOrTx, id: number, r: { status: TRolloutStatus; reason: string | null; currentWave: number }): Promise<void> {
  await tx.execute(sql`update rollouts set status = ${r.status}, reason = ${r.reason}, current_wave = ${r.currentWave}, updated_at = now() where id = ${id}`);
}

/** The ids of a wave's targets in `state`, in request order. */
export async function selectWaveTargetIds(tx: DbOrTx, rolloutId: number, wave: number, state: TRolloutTargetState): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number }>(
    sql`select target_id as id from rollout_targets where rollout_id = ${rolloutId} and wave = ${wave} and state = ${state} order by position`,
  );
  return rows.map((r) => r.id);
}

/**
 * The Pending targets of a wave in request order, each with the MMA classes its
 * release needs open (change windows, issue 25 point 5): a machine's class; an
 * account's class and its live machines' classes.
 */
export async function selectPendingTargetClasses(tx: DbOrTx, rolloutId: number, wave: number, kind: RolloutKind): Promise<{ id: number; classIds: number[] }[]> {
  const classes =
    kind === 'machines'
      ? sql`array(select m.class_id from machines m where m.id = t.target_id)`
      : sql`array(select a.class_id from accounts a where a.id = t.target_id
          union select m.class_id from machines m where m.account_id = t.target_id and m.deleted_at is null)`;
  const { rows } = await tx.execute<{ id: number; classIds: number[] }>(sql`
    select t.target_id as id, ${classes} as "classIds" from rollout_targets t
    where t.rollout_id = ${rolloutId} and t.wave = ${wave} and t.state = 'Pending' order by t.position`);
  return rows;
}

/** The machines of `machineIds` with their account (to map machines to account targets). */
export async function selectMachineAccounts(tx: DbOrTx, machineIds: number[]): Promise<{ id: number; accountId: number }[]> {
  if (machineIds.length === 0) return [];
  const { rows } = await tx.execute<{ id: number; accountId: number }>(
    sql`select id, account_id as "accountId" from machines where id = any(${sql.param(machineIds)}::int[])`,
  );
  return rows;
}

/**
 * Marks a wave's Pending targets applied by `activityId`: Deploying with the
 * machines each waits for, Skipped (with `skippedDetail`) when none; `previous`
 * is what each had before (kept for a rollback).
 */
export async function markApplied(
  tx: DbOrTx,
  rolloutId: number,
  o: { activityId: number; targetIds: number[]; machineIds: number[][]; previous: unknown[]; skippedDetail: string },
): Promise<void> {
  const machineLists = o.machineIds.map((ids) => `{${ids.join(',')}}`);
  const previous = o.previous.map((p) => (p === undefined || p === null ? null : JSON.stringify(p)));
  await tx.execute(sql`
    update rollout_targets rt set activity_id = ${o.activityId}, machine_ids = t.machines::int[], updated_at = now(),
      previous = t.previous::jsonb,
      state = case when cardinality(t.machines::int[]) = 0 then 'Skipped' else 'Deploying' end,
      detail = case when cardinality(t.machines::int[]) = 0 then ${o.skippedDetail} else null end
    from unnest(${sql.param(o.targetIds)}::int[], ${sql.param(machineLists)}::text[], ${sql.param(previous)}::text[]) as t(id, machines, previous)
    where rt.rollout_id = ${rolloutId} and rt.target_id = t.id and rt.state = 'Pending'`);
}

/** One machine a Deploying target waits for, with what decides its outcome. */
export type DeployingMachine = {
  targetId: number;
  machineId: number;
  machineName: string;
  obsolete: boolean;
  needsAdmin: boolean;
  managed: boolean;
  gone: boolean;
  /** An UpdateSoftware caused by the target's wave activity ended FAILURE. */
  failed: boolean;
  /** Why the rollout cancelled that UpdateSoftware ('rollout 12 halted'), when it did; else null. */
  cancelled: string | null;
  /**
   * An UpdateSoftware caused by the target's wave activity waits for approval
   * (pending, undecided): why, as the start rules say it ('the wave's approval'
   * or 'ANOMALY mode'); null when none waits.
   */
  awaiting: 'wave' | 'anomaly' | null;
};

/** The target states whose machines are still deploying (the engine evaluates them at each pass). */
export const IN_FLIGHT_STATES: TRolloutTargetState[] = ['Deploying', 'AwaitingApproval'];

/** The machines the Deploying and AwaitingApproval targets of a wave wait for (machines deleted since are left out). One statement. */
export async function selectDeployingMachines(tx: DbOrTx, rolloutId: number, wave: number): Promise<DeployingMachine[]> {
  const { rows } = await tx.execute<DeployingMachine>(sql`
    select rt.target_id as "targetId", m.id as "machineId", m.name as "machineName", m.obsolete, m.needs_admin as "needsAdmin",
      m.managed, (m.deleted_at is not null or m.terminate) as gone,
      exists (select 1 from operations o where o.machine_id = m.id and o.activity_id = rt.activity_id
              and o.type_name = 'UpdateSoftware' and o.status = 'FAILURE') as failed,
      coalesce(
        (select o.decision_reason from operations o where o.machine_id = m.id and o.activity_id = rt.activity_id
           and o.type_name = 'UpdateSoftware' and o.status = 'FAILURE' and o.decision = 'CANCEL' and o.decision_reason is not null
         order by o.id desc limit 1),
        -- Stopped before its deploy was queued: the deploy controller queues none for a halted or aborted rollout's wave.
        case when r.status in ('Halted', 'Aborted') and m.obsolete and m.desired_activity_id = rt.activity_id
               and not exists (select 1 from operations o where o.machine_id = m.id and o.activity_id = rt.activity_id
                 and o.type_name = 'UpdateSoftware' and o.finished_at is null)
             then 'rollout ' || r.id || ' ' || lower(r.status) || ' before its deploy started' end) as cancelled,
      (select case when count(*) = 0 then null when bool_or(o.operation_mode = ${OPERATION_MODE_ANOMALY}) then 'anomaly' else 'wave' end
         from operations o where o.machine_id = m.id and o.activity_id = rt.activity_id and o.type_name = 'UpdateSoftware'
           and o.pending and o.decision is null and o.finished_at is null) as awaiting
    from rollout_targets rt join rollouts r on r.id = rt.rollout_id
      cross join lateral unnest(rt.machine_ids) as mid(id) join machines m on m.id = mid.id
    where rt.rollout_id = ${rolloutId} and rt.wave = ${wave} and rt.state in ('Deploying', 'AwaitingApproval')
    order by rt.position, m.id`);
  return rows;
}

/** Sets the state and detail of targets (one statement): only targets still in one of `from`, and only those that change. */
export async function setTargetStates(
  tx: DbOrTx,
  rolloutId: number,
  from: TRolloutTargetState[],
  changes: { targetId: number; state: TRolloutTargetState; detail: string | null }[],
): Promise<void> {
  if (changes.length === 0) return;
  await tx.execute(sql`
    update rollout_targets rt set state = t.state, detail = t.detail, updated_at = now()
    from unnest(${sql.param(changes.map((c) => c.targetId))}::int[], ${sql.param(changes.map((c) => c.state))}::text[], ${sql.param(changes.map((c) => c.detail))}::text[]) as t(id, state, detail)
    where rt.rollout_id = ${rolloutId} and rt.target_id = t.id and rt.state = any(${sql.param(from)}::text[])
      and (rt.state, rt.detail) is distinct from (t.state, t.detail)`);
}

/** The wave's targets in `from` all become `state` with `detail` (a rejected wave's waiting targets); answers how many. */
export async function setWaveTargetsState(
  tx: DbOrTx,
  o: { rolloutId: number; wave: number; from: TRolloutTargetState[]; state: TRolloutTargetState; detail: string | null },
): Promise<number> {
  const { rowCount } = await tx.execute(sql`
    update rollout_targets set state = ${o.state}, detail = ${o.detail}, updated_at = now()
    where rollout_id = ${o.rolloutId} and wave = ${o.wave} and state = any(${sql.param(o.from)}::text[])`);
  return rowCount ?? 0;
}

/** Pending targets of the rollout (of `wave` only, when given) become NotApplied with `detail`; answers how many. */
export async function markNotApplied(tx: DbOrTx, rolloutId: number, detail: string, wave?: number): Promise<number> {
  const { rowCount } = await tx.execute(sql`
    update rollout_targets set state = 'NotApplied', detail = ${detail}, updated_at = now()
    where rollout_id = ${rolloutId} and state = 'Pending' ${wave === undefined ? sql`` : sql`and wave = ${wave}`}`);
  return rowCount ?? 0;
}

/** The first targets of a wave in `state` (names and details), for a halt reason. */
export async function selectFirstTargets(tx: DbOrTx, rolloutId: number, wave: number, state: TRolloutTargetState, limit: number) {
  const { rows } = await tx.execute<{ id: number; name: string; detail: string | null }>(sql`
    select target_id as id, name, detail from rollout_targets where rollout_id = ${rolloutId} and wave = ${wave} and state = ${state}
    order by position limit ${limit}`);
  return rows;
}

/** The accounts of a rollout's targets (the audit's accounts of an operator's transition). */
export async function selectRolloutAccounts(tx: DbOrTx, rolloutId: number, kind: RolloutKind): Promise<{ id: number; name: string; classId: number }[]> {
  const join = kind === 'machines' ? sql`join machines m on m.id = rt.target_id join accounts a on a.id = m.account_id` : sql`join accounts a on a.id = rt.target_id`;
  const { rows } = await tx.execute<{ id: number; name: string; classId: number }>(sql`
    select distinct a.id, a.name, a.class_id as "classId" from rollout_targets rt ${join} where rt.rollout_id = ${rolloutId} order by a.id`);
  return rows;
}

/** Whether an admin froze the fleet (modules/freeze): no wave, nor part of one, is released meanwhile. */
export async function fleetFrozen(tx: DbOrTx): Promise<boolean> {
  const { rows } = await tx.execute<{ frozen: boolean }>(sql`select ${FLEET_FROZEN} as frozen`);
  return rows[0]!.frozen;
}

