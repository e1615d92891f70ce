/**
 * The rollouts module (DESIGN §15; spec 3 §7 Updater and batch): software updates
 * rolled out in waves (the waves run in `engine/rollouts/`), their progress,
 * targets, pause, resume and abort, and the approval of waves. Provides `app.services.rollouts`
 * (`RolloutService`), which the software update module starts rollouts with;
 * needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createRolloutService } from './rollouts.service.js';
import { rolloutRoutes } from './rollouts.routes.js';

export const rolloutsModule = defineModule({
  name: 'rollouts',
  needs: [auditModule],
  service: ({ db, events, rolloutRequireSecondApprover }, { audit }) => createRolloutService({ db, audit, events, requireSecondApprover: rolloutRequireSecondApprover }),
  routes: rolloutRoutes,
  tags: [{ name: 'Rollouts', description: 'Software updates rolled out in waves: progress per wave, targets, pause, resume and abort (DESIGN §15, spec 3 §7 Updater and batch).' }],
});
