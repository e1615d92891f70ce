/**
 * The config catalogues module (spec 2 §7 Configs, spec 3 §2.5, §7): the
 * catalogues of component and deployer config keys. Provides
 * `app.services.configCatalogues` (`ConfigCatalogueService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createConfigCatalogueService } from './config-catalogues.service.js';
import { configCatalogueRoutes } from './config-catalogues.routes.js';

export const configCataloguesModule = defineModule({
  name: 'configCatalogues',
  needs: [auditModule],
  service: ({ db }, { audit }) => createConfigCatalogueService({ db, audit }),
  routes: configCatalogueRoutes,
  tags: [{ name: 'Config definitions', description: 'The catalogues of component and deployer config keys (spec 2 §7 Configs, spec 3 §2.5, §7).' }],
});
