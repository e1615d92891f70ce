/**
 * The software update as the rollout engine applies it wave by wave (DESIGN §15):
 * `modules/software-update/software-update.apply.ts`, the same code as an update
 * at once, or for a rollback's wave `software-update.restore.ts` (each target's
 * versions back, issue 25 point 3), behind the engine's {@link SoftwareUpdateApplier}
 * seam (tests hand in their own).
 */
import { applySoftwareUpdate, planSoftwareUpdate, type UpdateRestore } from '../../modules/software-update/software-update.apply.js';
import { applyRestore, planRestoreResults, type RestoreTargets } from '../../modules/software-update/software-update.restore.js';
import type { SoftwareUpdateApplier, WaveUpdate } from './engine.js';

const restoreTargets = (o: WaveUpdate): RestoreTargets => ({
  principal: o.principal,
  kind: o.kind,
  targets: o.targetIds.map((id) => ({ id, restore: (o.restores!.get(id) ?? {}) as UpdateRestore })),
});

export const SOFTWARE_UPDATE_APPLIER: SoftwareUpdateApplier = {
  plan: (tx, o) => (o.restores ? planRestoreResults(tx, restoreTargets(o)) : planSoftwareUpdate(tx, o)),
  apply: (tx, o) => (o.restores ? applyRestore(tx, { ...restoreTargets(o), activityId: o.activityId }) : applySoftwareUpdate(tx, o)),
};
