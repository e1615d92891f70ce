/**
 * Starting a rollout (DESIGN §15; spec 3 §7 Updater): called by the software
 * update routes, in the request's transaction, when the request's `rollout` is set.
 */
import type { TRolloutPlan, TSoftwareUpdateConfig } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { insertRollout, insertTargets, notifyRolloutsChanged, selectTargetInfo, type RolloutKind } from './rollouts.repository.js';
import { waveOfEach } from './waves.js';

/** The software update payload as a rollout keeps it: only the softwares and library modes not Skip (ZRollout.config). */
export function rolloutConfigOf(config: TSoftwareUpdateConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const entries = Object.entries(config) as [string, unknown][];
  for (const [key, value] of entries) {
    if (key.endsWith('VersionMode') && value !== 'Skip') {
      out[key] = value;
      const version = (config as Record<string, unknown>)[key.replace(/Mode$/, '')];
      if (version) out[key.replace(/Mode$/, '')] = version;
    }
  }
  if (config.mainLibraryMode !== 'Skip') Object.assign(out, { mainLibraryMode: config.mainLibraryMode, mainLibraryFiles: config.mainLibraryFiles });
  if (config.accountLibraryMode !== 'Skip') Object.assign(out, { accountLibraryMode: config.accountLibraryMode, accountLibraryFile: config.accountLibraryFile });
  return out;
}

/**
 * Inserts a Running rollout of `config` to `targetIds` (machines or accounts),
 * split in the order given into the waves of `plan` (`waves.ts`), every target
 * Pending, and wakes the rollout engines when `tx` commits; answers its id. The
 * caller has checked the targets (unknown or hidden ids answered 404 before);
 * the caller's principal is kept to apply the waves later. `activityId` is the
 * audit activity of the starting request; `rollback` makes it the rollback of
 * another rollout (`rollback.ts`). Nothing is applied here: the engine
 * applies wave 1 at its next pass (within a second).
 */
export async function startRollout(
  tx: DbOrTx,
  o: {
    principal: Omit<Principal, 'jti'> & { jti?: string };
    kind: RolloutKind;
    config: TSoftwareUpdateConfig | Record<string, unknown>;
    targetIds: number[];
    plan: TRolloutPlan;
    activityId: number | null;
    /** A rollback (`rollback.ts`): the rollout it rolls back, and per target (as `targetIds`) what it puts back. */
    rollback?: { of: number; restores: unknown[] };
  },
): Promise<number> {
  const info = new Map((await selectTargetInfo(tx, o.kind, o.targetIds)).map((t) => [t.id, t]));
  const { jti: _jti, ...principal } = o.principal;
  const rolloutId = await insertRollout(tx, {
    kind: o.kind,
    plan: o.plan,
    config: o.config,
    principal,
    customerProduction: [...info.values()].some((t) => t.customerProduction),
    activityId: o.activityId,
    rollbackOf: o.rollback?.of ?? null,
  });
  await insertTargets(tx, rolloutId, {
    ids: o.targetIds,
    names: o.targetIds.map((id) => info.get(id)?.name ?? `${o.kind === 'machines' ? 'Machine' : 'Account'} ${id}`),
    waves: waveOfEach(o.targetIds.length, o.plan.waves),
    restores: o.rollback?.restores,
  });
  await notifyRolloutsChanged(tx);
  return rolloutId;
}
