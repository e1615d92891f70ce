/**
 * The fleet freeze module (issue 25 point 5): whether the fleet is frozen, and
 * freezing or releasing it. Provides `app.services.freeze` (`FreezeService`);
 * needs audit. Its routes use the Fleet tag.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createFreezeService } from './freeze.service.js';
import { freezeRoutes } from './freeze.routes.js';

export const freezeModule = defineModule({
  name: 'freeze',
  needs: [auditModule],
  service: ({ db }, { audit }) => createFreezeService({ db, audit }),
  routes: freezeRoutes,
});
