/**
 * The account settings module (spec 1 §2 Edit account, §7 Accounts): one account
 * and its versioned sections (properties, license, instance, backup, idle
 * schedule). Declares the tag 'Account settings', which the account mail, license
 * files and account keys modules use too. Provides `app.services.accountSettings`
 * (`AccountSettingsService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createAccountSettingsService } from './account-settings.service.js';
import { accountSettingsRoutes } from './account-settings.routes.js';

export const accountSettingsModule = defineModule({
  name: 'accountSettings',
  needs: [auditModule],
  service: ({ db }, { audit }) => createAccountSettingsService({ db, audit }),
  routes: accountSettingsRoutes,
  tags: [{ name: 'Account settings', description: 'One account and its sections (properties, license, instance, backup, idle schedule), its email, keys and license files (spec 1 §2 Edit account, §7).' }],
});
