/**
 * Supervision of the embedded PostgreSQL (issue 23 "The process survives its
 * database"; DESIGN §4): when its postmaster dies (a SIGKILL, a crash, an
 * operator's `pg_ctl stop`) while the server runs, it is started again on the
 * same port, as the server starts it (`startEmbeddedPostgres`, which first
 * clears what a killed postmaster leaves: `postmaster.pid`, orphaned backends,
 * shared memory). The pool keeps its connection string, so the API and the
 * engine reconnect by themselves once it answers.
 *
 * Restarts back off: the first at once, then after 1, 2, 4 and 8 s. After
 * {@link SUPERVISION_DEFAULTS.maxFailures} failures in a row the caller's
 * `onGiveUp` gets a `StartFailure` with the cause (the process then exits
 * non-zero). A restarted postmaster that dies again within `stableMs` counts
 * as a failure too, so a database that crashes at every start ends in give-up
 * rather than a loop. Each loss and each recovery is logged (error, info).
 * A clean exit (code 0: a fast shutdown, as Ctrl-C in a terminal sends the
 * whole process group) is first given a second for the process's own stop to
 * begin (`stopping`), and is not restarted then.
 *
 * Known limitations: a port taken by another process meanwhile makes every
 * restart fail (the pool's URL names the port); the restart needs `/proc` to
 * clear a killed server's leftovers (Linux), see `leftover-postgres.ts`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { describeStartFailure, StartFailure } from '../lib/start-failure.js';
import { startEmbeddedPostgres, type EmbeddedDatabase, type PostmasterExit } from './embedded.js';

export const SUPERVISION_DEFAULTS = {
  /** Restart failures in a row before giving up. */
  maxFailures: 5,
  /** Wait before the second restart attempt, ms; doubled for each further one. */
  firstBackoffMs: 1_000,
  /** Longest wait between two attempts, ms. */
  maxBackoffMs: 15_000,
  /** A restarted postmaster that dies sooner than this counts as a failed restart, ms. */
  stableMs: 30_000,
};

/** How long a postmaster that exited cleanly (code 0) waits for this process's own stop before it counts as lost, ms. */
const CLEAN_EXIT_GRACE_MS = 1_000;

export interface SupervisedPostgresOptions extends Partial<typeof SUPERVISION_DEFAULTS> {
  dataDir: string;
  password: string;
  onLog?: (line: string) => void;
  log: Logger;
  /** True once the process is stopping: a postmaster exit is then expected (Ctrl-C reaches it too), not restarted. */
  stopping?: () => boolean;
  /** Called once when the restarts failed `maxFailures` times in a row, with the cause; the caller exits. */
  onGiveUp(err: StartFailure): void;
}

export interface SupervisedPostgres {
  /** Connection string of the `postgres` database; the same after every restart. */
  url: string;
  /** Stops supervising (a restart under way ends first) and shuts the server down. */
  stop(): Promise<void>;
}

/** Wait before restart attempt `attempt` (1-based), ms: none for the first. */
export function restartBackoffMs(attempt: number, s: Pick<typeof SUPERVISION_DEFAULTS, 'firstBackoffMs' | 'maxBackoffMs'> = SUPERVISION_DEFAULTS): number {
  return attempt <= 1 ? 0 : Math.min(s.firstBackoffMs * 2 ** (attempt - 2), s.maxBackoffMs);
}

const describeExit = (exit: PostmasterExit) => (exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`);

/**
 * Starts the embedded PostgreSQL of `dataDir` and restarts it whenever its
 * postmaster exits unexpectedly (see the module docstring). Errors: the first
 * start's `StartFailure` (as `startEmbeddedPostgres`); later failures go to
 * `onGiveUp`, never thrown.
 */
export async function superviseEmbeddedPostgres(opts: SupervisedPostgresOptions): Promise<SupervisedPostgres> {
  const s = { ...SUPERVISION_DEFAULTS };
  for (const key of Object.keys(SUPERVISION_DEFAULTS) as (keyof typeof SUPERVISION_DEFAULTS)[]) s[key] = opts[key] ?? SUPERVISION_DEFAULTS[key];
  const { log } = opts;
  const start = (port?: number) => startEmbeddedPostgres({ dataDir: opts.dataDir, password: opts.password, onLog: opts.onLog, log, port });

  let current: EmbeddedDatabase = await start();
  const port = current.port;
  let startedAt = Date.now();
  /** Whether `current` was started by a restart (its early death then counts as a failed restart). */
  let restarted = false;
  let stopped = false;
  let gaveUp = false;
  let restarting: Promise<void> | undefined;
  const stopSignal = new AbortController();
  /** Failed restarts in a row: start attempts that threw, and restarted servers that died within `stableMs`. */
  let failures = 0;
  const halted = () => stopped || gaveUp || (opts.stopping?.() ?? false);

  async function restart(exit: PostmasterExit, pid: number): Promise<void> {
    // A clean exit is what a Ctrl-C to the process group makes: the same signal is about to stop this process.
    for (const graceBy = Date.now() + CLEAN_EXIT_GRACE_MS; exit.code === 0 && Date.now() < graceBy; ) {
      await sleep(50);
      if (halted()) return;
    }
    const lostAt = Date.now();
    if (lostAt - startedAt >= s.stableMs) failures = 0;
    else if (restarted) failures += 1;
    log.error({ pid, port, ...exit }, `the embedded PostgreSQL stopped (${describeExit(exit)}); restarting it`);
    let cause: unknown = new StartFailure(
      `its postmaster ${describeExit(exit)} ${Math.round((lostAt - startedAt) / 1000)} s after it started`,
      'PostgreSQL keeps stopping soon after it starts: start again with LOG_LEVEL=trace to see its output, and check free disk space and memory.',
    );
    while (failures < s.maxFailures) {
      const attempt = failures + 1;
      // A stop cuts the wait short (the rejection of an aborted wait).
      await sleep(restartBackoffMs(attempt, s), undefined, { signal: stopSignal.signal }).catch(() => undefined);
      if (halted()) return;
      try {
        const next = await start(port);
        if (halted()) {
          await next.stop();
          return;
        }
        current = next;
        startedAt = Date.now();
        restarted = true;
        log.info({ pid: next.pid, port, downMs: startedAt - lostAt, attempt }, 'the embedded PostgreSQL is back');
        watch(next);
        return;
      } catch (err) {
        failures += 1;
        cause = err;
        const retryInMs = failures < s.maxFailures ? restartBackoffMs(failures + 1, s) : undefined;
        log.warn({ err: describeStartFailure(err).message, attempt, retryInMs }, 'restarting the embedded PostgreSQL failed');
      }
    }
    gaveUp = true;
    const { message, hint } = describeStartFailure(cause);
    opts.onGiveUp(new StartFailure(`the embedded PostgreSQL stopped and ${failures} restarts in a row failed; the last: ${message}`, hint, { cause }));
  }

  function watch(server: EmbeddedDatabase): void {
    void server.exited.then((exit) => {
      if (server !== current || halted()) return;
      restarting = restart(exit, server.pid).finally(() => (restarting = undefined));
    });
  }

  watch(current);
  return {
    url: current.url,
    async stop() {
      stopped = true;
      stopSignal.abort();
      await restarting;
      await current.stop();
    },
  };
}
