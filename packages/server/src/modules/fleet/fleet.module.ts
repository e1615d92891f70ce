/**
 * The fleet module (spec 3 §2.9): the top bar's fleet counters, and the MMA
 * counters and classes it reads (tagged 'MMA', the MMA module's). Provides
 * `app.services.fleet` (`FleetService`).
 */
import { defineModule } from '../module.js';
import { createFleetService } from './fleet.service.js';
import { fleetRoutes } from './fleet.routes.js';

export const fleetModule = defineModule({
  name: 'fleet',
  service: ({ db }) => createFleetService({ db }),
  routes: fleetRoutes,
  tags: [{ name: 'Fleet', description: 'Fleet counters of the top bar (spec 3 §2.9).' }],
});
