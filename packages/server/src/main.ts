/**
 * Start-up (DESIGN §4, §9): configuration, database (embedded or `DATABASE_URL`),
 * migrations, the demo seed on first start, the task engine (`ROLE` all or
 * worker) with the account count compaction, the API and console on `PORT`
 * (`ROLE` all or api).
 * SIGINT and SIGTERM close the server, the engine, the pool and the embedded database.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { openDatabase } from './db/open.js';
import { DEMO_SIGN_INS, seedIfEmpty } from './seed/index.js';
import { createCloudProvider } from './engine/cloud/index.js';
import { createTaskEvents } from './engine/push/events.js';
import { createTaskHub } from './engine/push/task-hub.js';
import { createSecretBox } from './lib/secret-box.js';
import { createTaskEngine, type TaskEngine } from './engine/tasks/engine.js';
import { startAccountCountCompaction } from './db/account-counts.js';

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

  const database = await openDatabase(config, log);
  const seeded = await seedIfEmpty(database.db, { kind: config.seed, dataKey: config.dataKey, log });
  const events = createTaskEvents({ onListenerError: (err) => log.warn({ err }, 'task event listener failed') });
  const app = await buildApp({ db: database.db, config, logger: log, events });
  // The push channel: with several processes (ROLE api or worker) the Postgres
  // adapter carries events between them; a worker only broadcasts.
  const hub = createTaskHub({
    server: config.role === 'worker' ? undefined : app.server,
    events,
    authenticate: (token) => app.services.auth.authenticate(token),
    pool: config.role === 'all' ? undefined : database.pool,
    log,
  });
  let engine: TaskEngine | undefined;
  let stopCompaction: (() => void) | undefined;
  if (config.role !== 'api') {
    stopCompaction = startAccountCountCompaction(database.db, { log });
    const cloud = createCloudProvider({ name: config.cloudProvider, db: database.db, simDelayMs: config.simCloudDelayMs });
    engine = createTaskEngine({ db: database.db, cloud, events, secrets: createSecretBox(config.dataKey), log });
    await engine.start();
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    stopCompaction?.();
    await hub.close();
    await app.close();
    await engine?.stop();
    await database.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (config.role === 'worker') {
    log.info('worker started: running machine tasks, not serving HTTP');
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
    '  Press Ctrl-C to stop.',
    '',
  ].filter((l) => l !== '');
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
