/**
 * The catalogues module (spec 1 §7 Lookups; spec 3 §2.1–§2.3, §7 Software, Cloud,
 * Library): the small lists of the account forms, cloud regions and instance
 * types, software branches, commits and builds, library lists. Declares the
 * catalogue tags, 'IRMN versions' included, which the images module serves
 * ('Library' is the library module's). Provides `app.services.catalogues`
 * (`CatalogueService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createCatalogueService } from './catalogues.service.js';
import { catalogueRoutes } from './catalogues.routes.js';

export const cataloguesModule = defineModule({
  name: 'catalogues',
  needs: [auditModule],
  service: ({ db }, { audit }) => createCatalogueService({ db, audit }),
  routes: catalogueRoutes,
  tags: [
    { name: 'Cloud', description: 'Cloud catalogue: regions, SaaS images, instance types (spec 3 §2.3, §7 Cloud).' },
    { name: 'Lookups', description: 'Small lists for the account forms: customers, license features, reporting categories (spec 1 §7 Lookups).' },
    { name: 'IRMN versions', description: 'IRMN versions of the platform software (spec 3 §2.2, §7).' },
    { name: 'Software', description: 'Branches, commits and builds of the software components, for the version picker (spec 3 §2.1, §7 Software).' },
  ],
});
