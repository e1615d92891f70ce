/**
 * The MMA module (spec 3 §2.7, §7 MMA): machine management agent classes and
 * instances. Provides `app.services.mma` (`MmaService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createMmaService } from './mma.service.js';
import { mmaRoutes } from './mma.routes.js';

export const mmaModule = defineModule({
  name: 'mma',
  needs: [auditModule],
  service: ({ db }, { audit }) => createMmaService({ db, audit }),
  routes: mmaRoutes,
  tags: [{ name: 'MMA', description: 'Machine management agent classes and instances (spec 3 §2.7, §7 MMA).' }],
});
