/**
 * Opens the configured database: `DATABASE_URL`, or the embedded PostgreSQL under
 * `DATA_DIR` (its password kept in `DATA_DIR/secrets.json`), then migrates it.
 */
import type { Logger } from 'pino';
import { loadOrCreateSecrets, type Config } from '../config.js';
import { connectDatabase, isDatabaseGone, runMigrations, type Database } from './client.js';
import { startEmbeddedPostgres } from './embedded.js';

export interface OpenDatabase extends Database {
  url: string;
  /** Closes the pool and stops the embedded server, if one was started. */
  shutdown(): Promise<void>;
}

/**
 * Starts (embedded) or reaches the database, connects the pool and migrates.
 * A failure after the embedded server started stops it again before
 * rethrowing, so that a supervisor's next start finds the folder free.
 * Errors: `StartFailure` from the embedded server, pg errors from the pool.
 */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const { postgresPassword } = loadOrCreateSecrets(config.dataDir);
    log.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      password: postgresPassword,
      onLog: (line) => log.trace({ pg: line.trim() }),
      log,
    });
    url = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const database = connectDatabase(url, {
    max: config.databasePoolSize,
    onError: (err) =>
      isDatabaseGone(err)
        ? log.debug({ err: err.message }, 'database shut down an idle connection')
        : log.warn({ err: err.message }, 'idle database connection lost'),
  });
  const shutdown = async () => {
    await database.close();
    await stopEmbedded?.();
  };
  try {
    await runMigrations(database.db);
  } catch (err) {
    await shutdown().catch((e: Error) => log.debug({ err: e.message }, 'database shutdown after a failed start failed'));
    throw err;
  }
  return { ...database, url, shutdown };
}
