/**
 * The updater module (spec 3 §2.8, §7 Updater and batch; DESIGN §15): flag and
 * configuration batches with a dry run, the target lists and saved selections.
 * Provides `app.services.updater` (`UpdaterService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createUpdaterService } from './updater.service.js';
import { updaterRoutes } from './updater.routes.js';

export const updaterModule = defineModule({
  name: 'updater',
  needs: [auditModule],
  service: ({ db }, { audit }) => createUpdaterService({ db, audit }),
  routes: updaterRoutes,
  tags: [{ name: 'Updater', description: 'Bulk changes of machines and accounts: flag and configuration batches with a dry run, the target lists and saved selections (spec 3 §2.8, §7 Updater and batch; DESIGN §15).' }],
});
