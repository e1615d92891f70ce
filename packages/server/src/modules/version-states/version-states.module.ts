/**
 * The version states module (spec 2 §2.3 Version Info, §2.8, §7 Machines): what
 * each machine runs, ran and should run. Provides `app.services.versionStates`
 * (`VersionStateService`).
 */
import { defineModule } from '../module.js';
import { createVersionStateService } from './version-states.service.js';
import { versionStateRoutes } from './version-states.routes.js';

export const versionStatesModule = defineModule({
  name: 'versionStates',
  service: ({ db }) => createVersionStateService({ db }),
  routes: versionStateRoutes,
  tags: [{ name: 'Version states', description: 'What each machine runs, ran and should run: current, historical and desired version states (spec 2 §2.3 Version Info, §2.8, §3, §7 Machines).' }],
});
