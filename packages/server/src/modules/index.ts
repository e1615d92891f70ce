/**
 * The server's modules, the one list `buildApp` walks (issue 23; `docs/architecture.md`
 * "Modules: how to add one"). Adding a module is adding its folder, with its
 * `<name>.module.ts` (`defineModule` of `module.ts`), and one line here.
 *
 * The order is the API document's (DESIGN §5): the OpenAPI tags in the order the
 * modules declare them, and each module's routes after the previous module's.
 * Services are made in the order of what they need (`orderModules`), whatever
 * their place here.
 */
import { healthModule } from './health/health.module.js';
import { authModule } from './auth/auth.module.js';
import { ssoModule } from './sso/sso.module.js';
import { accountsModule } from './accounts/accounts.module.js';
import { draftsModule } from './drafts/drafts.module.js';
import { accountSettingsModule } from './account-settings/account-settings.module.js';
import { accountMailModule } from './account-mail/account-mail.module.js';
import { licenseFilesModule } from './license-files/license-files.module.js';
import { accountKeysModule } from './account-keys/account-keys.module.js';
import { sitesModule } from './sites/sites.module.js';
import { templatesModule } from './templates/templates.module.js';
import { softwareUpdateModule } from './software-update/software-update.module.js';
import { machinesModule } from './machines/machines.module.js';
import { requestStatisticsModule } from './request-statistics/request-statistics.module.js';
import { versionStatesModule } from './version-states/version-states.module.js';
import { cloudInstancesModule } from './cloud-instances/cloud-instances.module.js';
import { machineConfigsModule } from './machine-configs/machine-configs.module.js';
import { configCataloguesModule } from './config-catalogues/config-catalogues.module.js';
import { operationsModule } from './operations/operations.module.js';
import { issuesModule } from './issues/issues.module.js';
import { notificationsModule } from './notifications/notifications.module.js';
import { auditModule } from './audit/audit.module.js';
import { fleetModule } from './fleet/fleet.module.js';
import { freezeModule } from './freeze/freeze.module.js';
import { mmaModule } from './mma/mma.module.js';
import { mmaAgentsModule } from './mma-agents/mma-agents.module.js';
import { mmaProtocolModule } from './mma-protocol/mma-protocol.module.js';
import { cataloguesModule } from './catalogues/catalogues.module.js';
import { imagesModule } from './images/images.module.js';
import { backupsModule } from './backups/backups.module.js';
import { rolloutsModule } from './rollouts/rollouts.module.js';
import { libraryModule } from './library/library.module.js';
import { updaterModule } from './updater/updater.module.js';
import { notificationChannelsModule } from './notification-channels/notification-channels.module.js';
import type { ServicesOf } from './module.js';

export const MODULES = [
  healthModule,
  authModule,
  ssoModule,
  accountsModule,
  draftsModule,
  accountSettingsModule,
  accountMailModule,
  licenseFilesModule,
  accountKeysModule,
  sitesModule,
  templatesModule,
  softwareUpdateModule,
  machinesModule,
  requestStatisticsModule,
  versionStatesModule,
  cloudInstancesModule,
  machineConfigsModule,
  configCataloguesModule,
  operationsModule,
  issuesModule,
  notificationsModule,
  auditModule,
  fleetModule,
  freezeModule,
  mmaModule,
  mmaAgentsModule,
  mmaProtocolModule,
  cataloguesModule,
  imagesModule,
  backupsModule,
  rolloutsModule,
  libraryModule,
  updaterModule,
  notificationChannelsModule,
] as const;

/** `app.services`: each module's service by its name, derived from {@link MODULES}. */
export type Services = ServicesOf<typeof MODULES>;
