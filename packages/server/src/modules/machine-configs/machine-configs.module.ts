/**
 * The machine configs module (spec 2 §7 Machines, spec 3 §7 Updater and batch):
 * machines' component and deployer configurations and their defaults. Provides
 * `app.services.machineConfigs` (`MachineConfigService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createMachineConfigService } from './machine-configs.service.js';
import { machineConfigRoutes } from './machine-configs.routes.js';

export const machineConfigsModule = defineModule({
  name: 'machineConfigs',
  needs: [auditModule],
  service: ({ db }, { audit }) => createMachineConfigService({ db, audit }),
  routes: machineConfigRoutes,
  tags: [{ name: 'Machine configs', description: 'Component and deployer configurations of machines and their defaults (spec 2 §7 Machines, spec 3 §7 Updater and batch).' }],
});
