/**
 * The operations module (spec 2 §2.3, §2.6, §7; DESIGN §12): the dialogs that
 * queue operations of the machine management agent (`operations`, the queue the
 * agent drains), approvals, resets, the Operations viewer, logs, site server
 * status and the activity trail (tagged 'Audit'). Provides
 * `app.services.operations` (`OperationService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createOperationService } from './operations.service.js';
import { operationRoutes } from './operations.routes.js';

export const operationsModule = defineModule({
  name: 'operations',
  needs: [auditModule],
  service: ({ db, operations, events }, { audit }) => createOperationService({ db, audit, operations, events }),
  routes: operationRoutes,
  tags: [{ name: 'Operations', description: 'Operations of the machine management agent: the dialogs that queue them, approvals, resets, the Operations viewer, logs and site server status (spec 2 §2.3, §2.6, §7; DESIGN §12).' }],
});
