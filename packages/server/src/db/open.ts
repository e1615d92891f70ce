/**
 * Opens the configured database: `DATABASE_URL`, or the embedded PostgreSQL under
 * `DATA_DIR` (its password kept in `DATA_DIR/secrets.json`, supervised: restarted
 * when its postmaster dies, `supervisor.ts`), then migrates it.
 */
import type { Logger } from 'pino';
import { loadOrCreateSecrets, type Config } from '../config.js';
import { connectDatabase, isDatabaseGone, runMigrations, type Database } from './client.js';
import { superviseEmbeddedPostgres } from './supervisor.js';
import type { StartFailure } from '../lib/start-failure.js';

export interface OpenDatabase extends Database {
  url: string;
  /** Closes the pool and stops the embedded server, if one was started. */
  shutdown(): Promise<void>;
}

/** What the process tells the supervision of the embedded PostgreSQL (`supervisor.ts`). */
export interface DatabaseSupervision {
  /** True once the process is stopping: the postmaster's exit is then not restarted. */
  stopping(): boolean;
  /** The embedded PostgreSQL could not be restarted (5 failures in a row): the process should exit non-zero with this cause. */
  onGiveUp(err: StartFailure): void;
}

/**
 * Starts (embedded, supervised by `supervision` if given) or reaches the
 * database, connects the pool and migrates. A failure after the embedded
 * server started stops it again before rethrowing, so that a supervisor's
 * next start finds the folder free.
 * Errors: `StartFailure` from the embedded server, pg errors from the pool.
 */
export async function openDatabase(config: Config, log: Logger, supervision?: DatabaseSupervision): Promise<OpenDatabase> {
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const { postgresPassword } = loadOrCreateSecrets(config.dataDir);
    log.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
    const embedded = await superviseEmbeddedPostgres({
      dataDir: config.dataDir,
      password: postgresPassword,
      onLog: (line) => log.trace({ pg: line.trim() }),
      log,
      stopping: supervision?.stopping,
      // Without a supervision the process has nobody to tell: the cause is logged, and the database stays down.
      onGiveUp: supervision?.onGiveUp ?? ((err) => log.fatal({ err: err.message }, 'the embedded PostgreSQL could not be restarted')),
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
