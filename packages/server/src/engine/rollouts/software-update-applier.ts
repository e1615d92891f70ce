/**
 * The software update as the rollout engine applies it wave by wave (DESIGN §15):
 * `modules/software-update/software-update.apply.ts`, the same code as an update
 * at once, behind the engine's {@link SoftwareUpdateApplier} seam (tests hand in
 * their own).
 */
import { applySoftwareUpdate, planSoftwareUpdate } from '../../modules/software-update/software-update.apply.js';
import type { SoftwareUpdateApplier } from './engine.js';

export const SOFTWARE_UPDATE_APPLIER: SoftwareUpdateApplier = {
  plan: (tx, o) => planSoftwareUpdate(tx, o),
  apply: (tx, o) => applySoftwareUpdate(tx, o),
};
