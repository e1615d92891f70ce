/**
 * The accounts module (spec 1 §2 Accounts list, §7 Accounts): the list with its
 * filters, statistics and lookup, deletion and launcher logins. Provides
 * `app.services.accounts` (`AccountService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createAccountService } from './accounts.service.js';
import { accountRoutes } from './accounts.routes.js';

export const accountsModule = defineModule({
  name: 'accounts',
  needs: [auditModule],
  service: ({ db, secrets }, { audit }) => createAccountService({ db, audit, secrets }),
  routes: accountRoutes,
  tags: [{ name: 'Accounts', description: 'The accounts list with its filters, statistics and lookup, deletion and launcher logins (spec 1 §2 Accounts list, §7).' }],
});
