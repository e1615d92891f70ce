/**
 * Start-up (DESIGN §4): configuration, database (embedded or `DATABASE_URL`),
 * migrations, the demo seed on first start, the API and console on `PORT`.
 * SIGINT and SIGTERM close the server, the pool and the embedded database.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { openDatabase } from './db/open.js';
import { DEMO_SIGN_INS, seedIfEmpty } from './seed/index.js';

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
  const app = await buildApp({ db: database.db, config, logger: log });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await database.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

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
