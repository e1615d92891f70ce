/**
 * Builds the Fastify app: the API under `/api/v1` (DESIGN §5), its OpenAPI 3.1
 * document at `/api/v1/openapi.json` and docs page at `/api/docs`, and the built
 * console at `/`. Used by `main.ts` and by the API tests (`app.inject`).
 *
 * The modules come from one list (`modules/index.ts`, issue 23): their services
 * become `app.services.<name>` (made in the order of what each needs; a missing or
 * circular need fails the build with a `StartFailure` naming the module), their
 * tags the document's tags and their route plugins the `/api/v1` routes. Errors
 * are answered as problem details by `lib/error-handler.ts`.
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
import { join, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import { DEVOPS_EMAIL, sessionRoles } from '@fleet/contracts';
import { DEFAULT_AGENT, DEFAULT_GRAFANA_URL, type Config } from './config.js';
import type { Db } from './db/client.js';
import { canWrite, routeNeedsWrite, type Principal } from './auth/principal.js';
import { createTokenService } from './auth/tokens.js';
import { badRequest, forbidden, unauthorized } from './lib/problem.js';
import { apiErrorHandler, frameworkErrorHandler, sendProblem } from './lib/error-handler.js';
import { createSerializerCompiler } from './lib/json-text.js';
import { nulByteErrors } from './lib/input-guard.js';
import { API_INFO, MMA_AGENT_SECURITY_SCHEME, PROBLEM_SCHEMA_NAME, apiDescriptionTransform, problemDetailsComponent } from './lib/openapi.js';
import { registerHttpSecurity } from './lib/http-security.js';
import { createSecretBox } from './lib/secret-box.js';
import { mailerFromEnvironment, type Mailer } from './lib/mailer.js';
import { createLicenseSigner } from './lib/license-signing.js';
import { createCloudProvider, type CloudProvider } from './engine/cloud/index.js';
import { createLocalObjectStore } from './storage/local-store.js';
import type { ObjectStore } from './storage/object-store.js';
import { createTaskEvents, type TaskEvents } from './engine/push/events.js';
import { createTaskQueue, type TaskQueue } from './engine/tasks/queue.js';
import { createOperationQueue, type OperationQueue } from './engine/operations/queue.js';
import { MODULES, type Services } from './modules/index.js';
import { registerMetricsRoute, type MetricsEndpoint } from './metrics/metrics-route.js';
import { createServices, moduleTags, registerModuleRoutes } from './modules/module.js';
import { SSO_OFF } from './modules/sso/sso.config.js';

export const API_PREFIX = '/api/v1';

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
  /** `grafanaUrl` absent: {@link DEFAULT_GRAFANA_URL}. */
  config: Pick<Config, 'jwtSecret' | 'dataKey' | 'webDist' | 'rateLimit'> &
    Partial<Pick<Config, 'production' | 'grafanaUrl' | 'rolloutRequireSecondApprover' | 'agent' | 'sso'>>;
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
  /** `GET /metrics` and the request histogram (`METRICS_TOKEN`, issue 28); absent: no `/metrics` (404). */
  metrics?: MetricsEndpoint;
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
  // Before every route, so that its onResponse hook times them all.
  if (opts.metrics) registerMetricsRoute(app, opts.metrics);

  const { db, config } = opts;
  const events = opts.events ?? createTaskEvents();
  const tasks = createTaskQueue({ events });
  const operations = createOperationQueue({
    announce: (queued) => {
      for (const q of queued) events.emit({ name: 'OperationQueued', operation: q.operation, classIds: q.classIds });
    },
  });
  app.decorate('deps', { db, config, events, tasks, operations });
  // Every module's service, in the order of what each needs (modules/index.ts).
  app.decorate(
    'services',
    createServices(MODULES, {
      db,
      events,
      tasks,
      operations,
      tokens: createTokenService(config.jwtSecret, opts.tokenLifetimeSeconds),
      secrets: createSecretBox(config.dataKey),
      licenseSigner: createLicenseSigner(config.dataKey),
      mailer: opts.mailer ?? mailerFromEnvironment(`Fleet Console <${DEVOPS_EMAIL}>`),
      cloud: opts.cloud ?? createCloudProvider({ name: 'simulated', db, simDelayMs: 0 }),
      store: opts.store ?? createLocalObjectStore({ root: join(tmpdir(), `fleet-console-objects-${process.pid}`) }),
      grafanaUrl: config.grafanaUrl === undefined ? DEFAULT_GRAFANA_URL : config.grafanaUrl,
      rolloutRequireSecondApprover: config.rolloutRequireSecondApprover ?? true,
      agent: config.agent ?? DEFAULT_AGENT,
      sso: config.sso ?? SSO_OFF,
    }),
  );

  app.setErrorHandler(apiErrorHandler);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: API_INFO,
      servers: [{ url: '/' }],
      tags: moduleTags(MODULES),
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          [MMA_AGENT_SECURITY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'An MMA authentication token (`mmat_…`), from `POST /mma-agent/register` (issue 27).',
          },
        },
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
        if (routeConfig.mmaAgent) {
          req.mmaAgent = await app.services.mmaAgents.authenticate(token, req.ip);
          return;
        }
        req.principal = await app.services.auth.authenticate(token);
        if (routeNeedsWrite(req.method, routeConfig) && !canWrite(req.principal)) throw forbidden('This action needs the write permission');
        if (routeConfig.requireAdmin && !sessionRoles(req.principal.permissions, req.principal.groups).includes('admin')) {
          throw forbidden('This action needs an admin (permission admin, or write with group CustomerProductionAccess)');
        }
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
      await registerModuleRoutes(api, MODULES);
    },
    { prefix: API_PREFIX },
  );

  const hasWeb = existsSync(resolve(config.webDist, 'index.html'));
  if (hasWeb) {
    // The build writes each file gzip'd and brotli'd beside itself; the browser gets the smallest it
    // accepts. Files under assets/ are named by their content's hash: cached for a year, never revalidated.
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      maxAge: '1h',
      setHeaders: (reply, path) => {
        if (path.startsWith(resolve(config.webDist, 'assets') + sep)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // A missing asset (a page of an older build asking for a chunk this one does not have) is a 404, not the page.
    if (req.url.startsWith('/api/') || req.url.startsWith('/assets/') || !hasWeb || req.method !== 'GET') {
      return sendProblem(reply, { type: 'about:blank', title: 'Not Found', status: 404, detail: `${req.method} ${req.url.split('?')[0]} does not exist` });
    }
    // Revalidated on every load: a new build's page names new assets (sendFile would set maxAge).
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });

  return app;
}
