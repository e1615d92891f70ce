/**
 * The templates module (spec 1 §2 Manage Templates, §7 Templates): saved
 * templates of the account forms. Provides `app.services.templates`
 * (`TemplateService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createTemplateService } from './templates.service.js';
import { templateRoutes } from './templates.routes.js';

export const templatesModule = defineModule({
  name: 'templates',
  needs: [auditModule],
  service: ({ db }, { audit }) => createTemplateService({ db, audit }),
  routes: templateRoutes,
  tags: [{ name: 'Templates', description: 'Saved templates of the account forms: general, license, instance and backup settings (spec 1 §2 Manage Templates, §7).' }],
});
