/**
 * The machines module (spec 2 §2.2, §2.3, §7 Machines): machines, their lifecycle
 * actions as tasks (`tasks`, DESIGN §9), their tasks and credentials. Provides
 * `app.services.machines` (`MachineService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createMachineService } from './machines.service.js';
import { machineRoutes } from './machines.routes.js';

export const machinesModule = defineModule({
  name: 'machines',
  needs: [auditModule],
  service: ({ db, tasks, events, secrets, operations, grafanaUrl }, { audit }) =>
    createMachineService({ db, audit, tasks, events, secrets, operations, grafanaUrl }),
  routes: machineRoutes,
  tags: [{ name: 'Machines', description: 'Machines, their lifecycle actions, tasks and credentials, and the machines of an account (spec 2 §2.2, §2.3, §7 Machines).' }],
});
