/**
 * The library module (spec 3 §2.6, §7 Library; DESIGN §13): library files,
 * packages and sample data files in the object store (`store`). Provides
 * `app.services.library` (`LibraryService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createLibraryService } from './library.service.js';
import { libraryRoutes } from './library.routes.js';

export const libraryModule = defineModule({
  name: 'library',
  needs: [auditModule],
  service: ({ db, store }, { audit }) => createLibraryService({ db, audit, store }),
  routes: libraryRoutes,
  tags: [{ name: 'Library', description: 'Library files, packages and sample data files (spec 3 §2.6, §7 Library).' }],
});
