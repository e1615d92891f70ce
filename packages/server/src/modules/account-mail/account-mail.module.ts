/**
 * The account mail module (spec 1 §7): the account creation mail, sent through
 * the app's mailer. Provides `app.services.accountMail` (`AccountMailService`);
 * needs audit; its route is tagged 'Account settings' (the account settings module's).
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createAccountMailService } from './account-mail.service.js';
import { accountMailRoutes } from './account-mail.routes.js';

export const accountMailModule = defineModule({
  name: 'accountMail',
  needs: [auditModule],
  service: ({ db, mailer }, { audit }) => createAccountMailService({ db, audit, mailer }),
  routes: accountMailRoutes,
});
