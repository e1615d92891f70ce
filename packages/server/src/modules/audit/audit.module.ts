/**
 * The audit module (spec 2 §2.11, §7 Audit; DESIGN §5): operators' activities,
 * recorded by most services in the transaction of their change, and their list.
 * Provides `app.services.audit` (`AuditService`), which most modules need.
 */
import { defineModule } from '../module.js';
import { createAuditService } from './audit.service.js';
import { auditRoutes } from './audit.routes.js';

export const auditModule = defineModule({
  name: 'audit',
  service: ({ db }) => createAuditService({ db }),
  routes: auditRoutes,
  tags: [{ name: 'Audit', description: 'Audit activities of operators: who changed what and when (spec 2 §2.11, §7 Audit).' }],
});
