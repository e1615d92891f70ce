/**
 * The drafts module (spec 1 §2 Create account, §7 Accounts): an account created
 * through a saved draft, then its sites and machines (machine tasks queued on
 * `tasks`). Provides `app.services.drafts` (`DraftService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createDraftService } from './drafts.service.js';
import { draftRoutes } from './drafts.routes.js';

export const draftsModule = defineModule({
  name: 'drafts',
  needs: [auditModule],
  service: ({ db, tasks }, { audit }) => createDraftService({ db, audit, tasks }),
  routes: draftRoutes,
  tags: [{ name: 'Account creation', description: 'Creating an account through a saved draft, then the account, sites and machines from it (spec 1 §2 Create account, §7).' }],
});
