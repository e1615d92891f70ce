/**
 * The issues module (spec 2 §2.5, §7 Issues; DESIGN §14): problems the engine
 * raised on machines, grouped by fingerprint, their logs, and resolving them.
 * Provides `app.services.issues` (`IssueService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createIssueService } from './issues.service.js';
import { issueRoutes } from './issues.routes.js';

export const issuesModule = defineModule({
  name: 'issues',
  needs: [auditModule],
  service: ({ db }, { audit }) => createIssueService({ db, audit }),
  routes: issueRoutes,
  tags: [{ name: 'Issues', description: 'Problems the engine raised on machines, grouped by fingerprint, their logs, and resolving them (spec 2 §2.5, §7 Issues; DESIGN §14).' }],
});
