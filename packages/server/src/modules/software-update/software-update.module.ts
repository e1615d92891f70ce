/**
 * The software update module (spec 1 §5, spec 3 §2.8, §7; DESIGN §15): checks
 * before an instance settings push, and versions of many targets at once, a
 * rollout in waves handed to the rollouts module. Provides
 * `app.services.softwareUpdate` (`SoftwareUpdateService`); needs audit and rollouts.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { rolloutsModule } from '../rollouts/rollouts.module.js';
import { createSoftwareUpdateService } from './software-update.service.js';
import { softwareUpdateRoutes } from './software-update.routes.js';

export const softwareUpdateModule = defineModule({
  name: 'softwareUpdate',
  needs: [auditModule, rolloutsModule],
  service: ({ db }, { audit, rollouts }) => createSoftwareUpdateService({ db, audit, startRollout: (o) => rollouts.start(o) }),
  routes: softwareUpdateRoutes,
  tags: [{ name: 'Software update', description: 'Checks before an instance settings push (spec 1 §5, §7).' }],
});
