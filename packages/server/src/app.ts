/**
 * Builds the Fastify app: the API under `/api/v1` (DESIGN §5), its OpenAPI 3.1
 * document at `/api/v1/openapi.json` and docs page at `/api/docs`, and the built
 * console at `/`. Used by `main.ts` and by the API tests (`app.inject`).
 *
 * Authorisation is one mechanism for every route: each `/api/v1` route needs a
 * live token unless its config says `public`; every mutation (POST, PUT, PATCH,
 * DELETE) needs permission `write` unless its config says `selfService` (logout,
 * own password); a read that reveals secrets says `requireWrite`.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { DEVOPS_EMAIL } from '@fleet/contracts';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { canWrite, routeNeedsWrite, type Principal } from './auth/principal.js';
import { createTokenService } from './auth/tokens.js';
import { badRequest, forbidden, unauthorized } from './lib/problem.js';
import { apiErrorHandler, frameworkErrorHandler, sendProblem } from './lib/error-handler.js';
import { createSerializerCompiler } from './lib/json-text.js';
import { nulByteErrors } from './lib/input-guard.js';
import { API_INFO, API_TAGS, PROBLEM_SCHEMA_NAME, apiDescriptionTransform, problemDetailsComponent } from './lib/openapi.js';
import { registerHttpSecurity } from './lib/http-security.js';
import { createSecretBox } from './lib/secret-box.js';
import { createAuditService, type AuditService } from './modules/audit/audit.service.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAccountService, type AccountService } from './modules/accounts/accounts.service.js';
import { accountRoutes } from './modules/accounts/accounts.routes.js';
import { createFleetService, type FleetService } from './modules/fleet/fleet.service.js';
import { fleetRoutes } from './modules/fleet/fleet.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createAccountSettingsService, type AccountSettingsService } from './modules/account-settings/account-settings.service.js';
import { accountSettingsRoutes } from './modules/account-settings/account-settings.routes.js';
import { createCatalogueService, type CatalogueService } from './modules/catalogues/catalogues.service.js';
import { catalogueRoutes } from './modules/catalogues/catalogues.routes.js';
import { createSiteService, type SiteService } from './modules/sites/sites.service.js';
import { siteRoutes } from './modules/sites/sites.routes.js';
import { createDraftService, type DraftService } from './modules/drafts/drafts.service.js';
import { draftRoutes } from './modules/drafts/drafts.routes.js';
import { createTemplateService, type TemplateService } from './modules/templates/templates.service.js';
import { templateRoutes } from './modules/templates/templates.routes.js';
import { createSoftwareUpdateService, type SoftwareUpdateService } from './modules/software-update/software-update.service.js';
import { softwareUpdateRoutes } from './modules/software-update/software-update.routes.js';
import { createAccountMailService, type AccountMailService } from './modules/account-mail/account-mail.service.js';
import { accountMailRoutes } from './modules/account-mail/account-mail.routes.js';
import { mailerFromEnvironment, type Mailer } from './lib/mailer.js';
import { createLicenseSigner } from './lib/license-signing.js';
import { createLicenseFileService, type LicenseFileService } from './modules/license-files/license-files.service.js';
import { licenseFileRoutes } from './modules/license-files/license-files.routes.js';
import { createMachineService, type MachineService } from './modules/machines/machines.service.js';
import { createBackupService, type BackupService } from './modules/backups/backups.service.js';
import { backupRoutes } from './modules/backups/backups.routes.js';
import { machineRoutes } from './modules/machines/machines.routes.js';
import { createNotificationService, type NotificationService } from './modules/notifications/notifications.service.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { createMachineConfigService, type MachineConfigService } from './modules/machine-configs/machine-configs.service.js';
import { machineConfigRoutes } from './modules/machine-configs/machine-configs.routes.js';
import { createConfigCatalogueService, type ConfigCatalogueService } from './modules/config-catalogues/config-catalogues.service.js';
import { configCatalogueRoutes } from './modules/config-catalogues/config-catalogues.routes.js';
import { createAccountKeyService, type AccountKeyService } from './modules/account-keys/account-keys.service.js';
import { accountKeyRoutes } from './modules/account-keys/account-keys.routes.js';
import { createVersionStateService, type VersionStateService } from './modules/version-states/version-states.service.js';
import { createCloudInstanceService, type CloudInstanceService } from './modules/cloud-instances/cloud-instances.service.js';
import { cloudInstanceRoutes } from './modules/cloud-instances/cloud-instances.routes.js';
import { versionStateRoutes } from './modules/version-states/version-states.routes.js';
import { createOperationService, type OperationService } from './modules/operations/operations.service.js';
import { operationRoutes } from './modules/operations/operations.routes.js';
import { createIssueService, type IssueService } from './modules/issues/issues.service.js';
import { issueRoutes } from './modules/issues/issues.routes.js';
import { createImageService, type ImageService } from './modules/images/images.service.js';
import { imageRoutes } from './modules/images/images.routes.js';
import { createCloudProvider, type CloudProvider } from './engine/cloud/index.js';
import { createRequestStatisticsService, type RequestStatisticsService } from './modules/request-statistics/request-statistics.service.js';
import { requestStatisticsRoutes } from './modules/request-statistics/request-statistics.routes.js';
import { createLibraryService, type LibraryService } from './modules/library/library.service.js';
import { libraryRoutes } from './modules/library/library.routes.js';
import { createMmaService, type MmaService } from './modules/mma/mma.service.js';
import { mmaRoutes } from './modules/mma/mma.routes.js';
import { createUpdaterService, type UpdaterService } from './modules/updater/updater.service.js';
import { updaterRoutes } from './modules/updater/updater.routes.js';
import { createRolloutService, type RolloutService } from './modules/rollouts/rollouts.service.js';
import { rolloutRoutes } from './modules/rollouts/rollouts.routes.js';
import { createLocalObjectStore } from './storage/local-store.js';
import type { ObjectStore } from './storage/object-store.js';
import { createTaskEvents, type TaskEvents } from './engine/push/events.js';
import { createTaskQueue, type TaskQueue } from './engine/tasks/queue.js';
import { createOperationQueue, type OperationQueue } from './engine/operations/queue.js';

export const API_PREFIX = '/api/v1';

export interface Services {
  audit: AuditService;
  auth: AuthService;
  accounts: AccountService;
  fleet: FleetService;
  accountSettings: AccountSettingsService;
  catalogues: CatalogueService;
  sites: SiteService;
  drafts: DraftService;
  templates: TemplateService;
  softwareUpdate: SoftwareUpdateService;
  accountMail: AccountMailService;
  licenseFiles: LicenseFileService;
  machines: MachineService;
  notifications: NotificationService;
  machineConfigs: MachineConfigService;
  configCatalogues: ConfigCatalogueService;
  accountKeys: AccountKeyService;
  versionStates: VersionStateService;
  cloudInstances: CloudInstanceService;
  backups: BackupService;
  operations: OperationService;
  issues: IssueService;
  requestStatistics: RequestStatisticsService;
  images: ImageService;
  library: LibraryService;
  mma: MmaService;
  updater: UpdaterService;
  rollouts: RolloutService;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    services: Services;
    deps: { db: Db; config: Pick<Config, 'jwtSecret' | 'dataKey' | 'webDist'>; events: TaskEvents; tasks: TaskQueue; operations: OperationQueue };
  }
  interface FastifyContextConfig {
    /** No token needed (login, health). */
    public?: boolean;
    /** A mutation of the user's own session or password: no `write` needed. */
    selfService?: boolean;
    /** A read that needs `write` (it reveals secrets). */
    requireWrite?: boolean;
  }
}

export interface AppOptions {
  db: Db;
  config: Pick<Config, 'jwtSecret' | 'dataKey' | 'webDist' | 'rateLimit'> & Partial<Pick<Config, 'production'>>;
  logger?: Logger | false;
  /** Token lifetime override (tests). */
  tokenLifetimeSeconds?: number;
  /** Task events shared with the task engine and the push channel (default: a new emitter). */
  events?: TaskEvents;
  /** Outgoing email (default: `SMTP_URL`, else `.eml` files in `DATA_DIR/outbox`). */
  mailer?: Mailer;
  /** The cloud provider the image catalogues read and delete cloud images through (default: the simulated cloud on `db`). */
  cloud?: CloudProvider;
  /**
   * The object store of library files (DESIGN §13; `main.ts` passes the configured
   * one). Default: a local store in a folder of the system's temporary directory,
   * for tests that do not look at stored files.
   */
  store?: ObjectStore;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: (opts.logger || undefined) as FastifyBaseLogger | undefined,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    // The router's own refusals (a malformed URL, a path parameter past 100
    // characters) answer problem details like every other error.
    frameworkErrors: frameworkErrorHandler,
    // One line per request drowns what matters in a console's terminal; errors are
    // logged by the error handler, and LOG_LEVEL=debug shows each request.
    logController: new LogController({ disableRequestLogging: opts.logger ? !opts.logger.isLevelEnabled('debug') : true }),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  // Answers already written as JSON are sent as they are; checked outside production (lib/json-text.ts).
  app.setSerializerCompiler(createSerializerCompiler({ checkJsonText: opts.config.production !== true }));
  // First, so that its headers and limits apply to every answer, errors included.
  await registerHttpSecurity(app, opts.config.rateLimit);

  const { db, config } = opts;
  const tokens = createTokenService(config.jwtSecret, opts.tokenLifetimeSeconds);
  const secrets = createSecretBox(config.dataKey);
  const audit = createAuditService({ db });
  const events = opts.events ?? createTaskEvents();
  const tasks = createTaskQueue({ events });
  const operations = createOperationQueue({
    announce: (queued) => {
      for (const q of queued) events.emit({ name: 'OperationQueued', operation: q.operation, classIds: q.classIds });
    },
  });
  app.decorate('deps', { db, config, events, tasks, operations });
  const licenseSigner = createLicenseSigner(config.dataKey);
  const rollouts = createRolloutService({ db, audit, events });
  app.decorate('services', {
    audit,
    auth: createAuthService({ db, tokens, audit }),
    accounts: createAccountService({ db, audit, secrets }),
    fleet: createFleetService({ db }),
    accountSettings: createAccountSettingsService({ db, audit }),
    catalogues: createCatalogueService({ db, audit }),
    sites: createSiteService({ db, audit }),
    drafts: createDraftService({ db, audit, tasks }),
    templates: createTemplateService({ db, audit }),
    softwareUpdate: createSoftwareUpdateService({ db, audit, startRollout: (o) => rollouts.start(o) }),
    accountMail: createAccountMailService({ db, audit, mailer: opts.mailer ?? mailerFromEnvironment(`Fleet Console <${DEVOPS_EMAIL}>`) }),
    licenseFiles: createLicenseFileService({ db, signer: licenseSigner }),
    machines: createMachineService({ db, audit, tasks, events, secrets, operations }),
    notifications: createNotificationService({ db, audit }),
    machineConfigs: createMachineConfigService({ db, audit }),
    configCatalogues: createConfigCatalogueService({ db, audit }),
    accountKeys: createAccountKeyService({ db, audit, secrets, licenseSigner }),
    versionStates: createVersionStateService({ db }),
    cloudInstances: createCloudInstanceService({ db }),
    backups: createBackupService({ db }),
    operations: createOperationService({ db, audit, operations, events }),
    issues: createIssueService({ db, audit }),
    requestStatistics: createRequestStatisticsService({ db }),
    images: createImageService({ db, audit, cloud: opts.cloud ?? createCloudProvider({ name: 'simulated', db, simDelayMs: 0 }) }),
    library: createLibraryService({ db, audit, store: opts.store ?? createLocalObjectStore({ root: join(tmpdir(), `fleet-console-objects-${process.pid}`) }) }),
    mma: createMmaService({ db, audit }),
    updater: createUpdaterService({ db, audit }),
    rollouts,
  });

  app.setErrorHandler(apiErrorHandler);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: API_INFO,
      servers: [{ url: '/' }],
      tags: API_TAGS,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas: { [PROBLEM_SCHEMA_NAME]: problemDetailsComponent() },
      },
      security: [{ bearer: [] }],
    },
    transform: apiDescriptionTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      api.addHook('onRequest', async (req) => {
        const routeConfig = req.routeOptions.config;
        if (routeConfig.public) return;
        const header = req.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
        if (!token) throw unauthorized('A bearer token is required');
        req.principal = await app.services.auth.authenticate(token);
        if (routeNeedsWrite(req.method, routeConfig) && !canWrite(req.principal)) throw forbidden('This action needs the write permission');
      });
      api.addHook('preValidation', async (req) => {
        const errors = [
          ...nulByteErrors(req.params, { topLevelOnly: true }),
          ...nulByteErrors(req.query, { topLevelOnly: true }),
          ...nulByteErrors(req.body, { topLevelOnly: false }),
        ];
        if (errors.length > 0) throw badRequest(errors);
      });
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(accountRoutes);
      await api.register(auditRoutes);
      await api.register(fleetRoutes);
      await api.register(accountSettingsRoutes);
      await api.register(catalogueRoutes);
      await api.register(siteRoutes);
      await api.register(draftRoutes);
      await api.register(templateRoutes);
      await api.register(softwareUpdateRoutes);
      await api.register(accountMailRoutes);
      await api.register(licenseFileRoutes);
      await api.register(machineRoutes);
      await api.register(notificationRoutes);
      await api.register(machineConfigRoutes);
      await api.register(configCatalogueRoutes);
      await api.register(accountKeyRoutes);
      await api.register(versionStateRoutes);
      await api.register(cloudInstanceRoutes);
      await api.register(backupRoutes);
      await api.register(operationRoutes);
      await api.register(issueRoutes);
      await api.register(requestStatisticsRoutes);
      await api.register(imageRoutes);
      await api.register(libraryRoutes);
      await api.register(mmaRoutes);
      await api.register(updaterRoutes);
      await api.register(rolloutRoutes);
    },
    { prefix: API_PREFIX },
  );

  const hasWeb = existsSync(resolve(config.webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: config.webDist, prefix: '/', wildcard: false, index: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || !hasWeb || req.method !== 'GET') {
      return sendProblem(reply, { type: 'about:blank', title: 'Not Found', status: 404, detail: `${req.method} ${req.url.split('?')[0]} does not exist` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
