/**
 * The account keys module (spec 1 §7): generating an account's keys and
 * downloading them (secret reads, audited). Provides `app.services.accountKeys`
 * (`AccountKeyService`); needs audit; its routes are tagged 'Account settings'.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createAccountKeyService } from './account-keys.service.js';
import { accountKeyRoutes } from './account-keys.routes.js';

export const accountKeysModule = defineModule({
  name: 'accountKeys',
  needs: [auditModule],
  service: ({ db, secrets, licenseSigner }, { audit }) => createAccountKeyService({ db, audit, secrets, licenseSigner }),
  routes: accountKeyRoutes,
});
