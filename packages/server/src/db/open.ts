/**
 * Opens the configured database: `DATABASE_URL`, or the embedded PostgreSQL under
 * `DATA_DIR` (its password kept in `DATA_DIR/secrets.json`), then migrates it.
 */
import type { Logger } from 'pino';
import { loadOrCreateSecrets, type Config } from '../config.js';
import { connectDatabase, isAdminShutdown, runMigrations, type Database } from './client.js';
import { startEmbeddedPostgres } from './embedded.js';

export interface OpenDatabase extends Database {
  url: string;
  /** Closes the pool and stops the embedded server, if one was started. */
  shutdown(): Promise<void>;
}

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
    });
    url = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const database = connectDatabase(url, {
    max: config.databasePoolSize,
    onError: (err) =>
      isAdminShutdown(err)
        ? log.debug({ err: err.message }, 'database shut down an idle connection')
        : log.warn({ err: err.message }, 'idle database connection lost'),
  });
  await runMigrations(database.db);
  return {
    ...database,
    url,
    async shutdown() {
      await database.close();
      await stopEmbedded?.();
    },
  };
}
