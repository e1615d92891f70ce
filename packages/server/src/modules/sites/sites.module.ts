/**
 * The sites module (spec 1 §7 Accounts): sites of an account and the software
 * status of their services. Provides `app.services.sites` (`SiteService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createSiteService } from './sites.service.js';
import { siteRoutes } from './sites.routes.js';

export const sitesModule = defineModule({
  name: 'sites',
  needs: [auditModule],
  service: ({ db }, { audit }) => createSiteService({ db, audit }),
  routes: siteRoutes,
  tags: [{ name: 'Sites', description: 'Sites of an account and the software status of its services (spec 1 §7).' }],
});
