/**
 * Crash and restart of the whole server (issue 9 "Crash and restart"; DESIGN §4,
 * §6; the engine's invariants in `src/engine/tasks/README.md`).
 *
 * The real server (`packages/server/src/main.ts`: first through tsx as
 * `npm start` runs it, then from the test run's bundle, `server-command.ts`)
 * on its own `DATA_DIR` and embedded PostgreSQL, spawned in its own process
 * group as a supervisor would. Ten times in a row: start
 * it, queue StartMachine and StopMachine tasks on {@link FLIP_MACHINES}
 * machines (and a RecreateMachine in some rounds) through the API, wait until
 * one of them runs, and SIGKILL the whole group mid-task while a client's long
 * query is in flight (an operator's report: its backend outlives the killed
 * postmaster and holds the shared memory, as the bench's queries did), then
 * start again at once, with no pause. Then two graceful stops with tasks in
 * flight: SIGTERM to the server process (a supervisor's stop) and SIGINT to the
 * whole group (Ctrl-C in a terminal, which also reaches the postmaster).
 * Finally a start that is left to settle.
 *
 * It expects:
 * - every start comes up (health answers) right after the kill, without the
 *   five-second pause that used to be needed;
 * - each graceful stop exits 0 with nothing on stderr (no unhandled 57P01 or
 *   57P03) and no error in the log;
 * - a second server started on the same data folder while one runs exits 1
 *   and says that the folder is in use, by which process;
 * - every queued task ends Completed or Failed, none stays New or Running; a
 *   task Failed only after its workers died three times, and tasks resumed
 *   after a kill or a stop (a second attempt or more) Completed;
 * - no cloud effect is repeated: a transition call (launch, start, stop,
 *   terminate) happens at most once per task, and a recreate launches exactly
 *   one instance (its client token's). A trigger the test adds to
 *   `cloud_instances` in the server's database records each call's transition.
 *   The simulated start and stop are idempotent on their own, so the launch
 *   count is the sharp check; the transition count guards the others.
 *
 * Duration: the first start seeds the demo fleet (about 10 s); each round takes
 * a few seconds; tasks of a killed worker are resumed once their lease is stale
 * ({@link TASK_LEASE_S}, `TASK_LEASE_S`; 30 s by default) by the next sweep, so
 * settling takes up to about 10 s: about two minutes in all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import getPort from 'get-port';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresProcessesOf } from '../src/db/leftover-postgres.js';
import { CLOUD_CALLS, installCloudCallLog } from './cloud-call-log.js';
import { serverArgs } from './server-command.js';

const root = new URL('../../../', import.meta.url).pathname;
const KILL_ROUNDS = 10;
/** Rounds in all: the kills, then a SIGTERM and a SIGINT with tasks in flight. */
const ROUNDS = KILL_ROUNDS + 2;
/**
 * Machines that get a task (alternately stop and start) in every round: their
 * tasks queue behind the killed ones. Each round also has fresh machines of its
 * own, never blocked by a killed task, so that a round always has a task running.
 */
const FLIP_MACHINES = 2;
const FRESH_PER_ROUND = 3;
/** Rounds that also queue a RecreateMachine (each on its own machine). */
const RECREATE_ROUNDS = new Set([1, 4, 7]);
/** Simulated cloud transition time, ms: long enough to catch a task running, short enough to end within a round. */
const SIM_DELAY_MS = 1500;
/** The servers' task lease, seconds (`TASK_LEASE_S`; the default 30 s made settling take up to 45 s). */
const TASK_LEASE_S = 6;
/** Longest wait for a start to answer health, ms (the first one seeds). */
const START_TIMEOUT_MS = 90_000;
/** Longest wait for every task to end after the last start, ms (stale lease + sweep + work, with room for a busy runner). */
const SETTLE_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 400_000;

interface Server {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Milliseconds from spawn to the first healthy answer. */
  upInMs?: number;
}

interface Queued {
  id: number;
  machineId: number;
  type: string;
  round: number;
}

let dataDir: string;
let port: number;
let current: Server | undefined;
let observer: pg.Pool | undefined;
let token: string | undefined;
const servers: Server[] = [];

const output = (s: Server) => `--- stdout ---\n${s.stdout.join('').slice(-6000)}\n--- stderr ---\n${s.stderr.join('').slice(-6000)}`;

/** Spawns the server; `asNpmStart`: through tsx, as `npm start` runs it, not from the run's bundle. */
function spawnServer(serverPort = port, { asNpmStart = false } = {}): Server {
  // The embedded database and its generated secrets, whatever the test run was given.
  const { DATABASE_URL: _url, JWT_SECRET: _jwt, DATA_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, serverArgs({ asNpmStart }), {
    cwd: root,
    // Its own process group, like a service under a supervisor: the test kills the whole group.
    detached: true,
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(serverPort),
      SEED: 'demo',
      SIM_CLOUD_DELAY_MS: String(SIM_DELAY_MS),
      TASK_LEASE_S: String(TASK_LEASE_S),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      ROLE: 'all',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: Server = {
    child,
    stdout: [],
    stderr: [],
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
  };
  child.stdout!.on('data', (d) => server.stdout.push(String(d)));
  child.stderr!.on('data', (d) => server.stderr.push(String(d)));
  servers.push(server);
  return server;
}

/** Starts the server and waits for `GET /health`; fails with its output if it exits first. */
async function start(opts: { asNpmStart?: boolean } = {}): Promise<Server> {
  const server = spawnServer(port, opts);
  const began = Date.now();
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void server.exited.then((e) => (exit = e));
  for (;;) {
    if (exit) throw new Error(`the server exited (code ${exit.code}, signal ${exit.signal}) instead of starting\n${output(server)}`);
    if (Date.now() - began > START_TIMEOUT_MS) throw new Error(`the server did not answer health within ${START_TIMEOUT_MS} ms\n${output(server)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(50);
  }
  server.upInMs = Date.now() - began;
  current = server;
  const url = (await readFile(join(dataDir, 'postgres.url'), 'utf8')).trim();
  observer = new pg.Pool({ connectionString: url, max: 3 });
  observer.on('error', () => undefined); // its server is killed under it
  return server;
}

async function closeObserver(): Promise<void> {
  const pool = observer;
  observer = undefined;
  await pool?.end().catch(() => undefined);
}

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await observer!.query<T>(text, values)).rows;
}

async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Waits until one of `taskIds` is Running in the current server's engine. */
async function untilOneRunning(taskIds: number[]): Promise<void> {
  const pid = current!.child.pid!;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const rows = await query(`select 1 from machine_tasks where id = any($1) and status = 'Running' and worker like $2`, [taskIds, `%:${pid}:%`]);
    if (rows.length > 0) return;
    await sleep(25);
  }
  const tasks = await query(`select id, machine_id, status, attempts, worker, queued_at, started_at from machine_tasks where id = any($1)`, [taskIds]);
  const jobs = await query(`select state, singleton_key, created_on, started_on from pgboss.job where name = 'machine-tasks' and state not in ('completed')`);
  throw new Error(
    `none of the tasks ${taskIds.join(', ')} started within 30 s\n${JSON.stringify(tasks)}\njobs: ${JSON.stringify(jobs)}\nnow ${new Date().toISOString()}\n${output(current!)}`,
  );
}

const tracked: Queued[] = [];
/** Per machine: the action its next task takes (the opposite of its instance's state). */
const nextAction = new Map<number, 'start' | 'stop'>();
let flipMachines: number[] = [];
let freshMachines: number[] = [];
let recreateMachines: number[] = [];

async function queue(machineId: number, action: 'start' | 'stop' | 'recreate', round: number): Promise<number> {
  const task = await api<{ id: number; type: string }>('POST', `/machines/${machineId}/${action}`);
  tracked.push({ id: task.id, machineId, type: task.type, round });
  if (action !== 'recreate') nextAction.set(machineId, action === 'start' ? 'stop' : 'start');
  return task.id;
}

/** Queues the round's tasks; answers the ids of those on its fresh machines. */
async function queueRound(round: number): Promise<number[]> {
  const fresh = freshMachines.splice(0, FRESH_PER_ROUND);
  const ids = await Promise.all(fresh.map((id) => queue(id, nextAction.get(id)!, round)));
  for (const id of flipMachines) await queue(id, nextAction.get(id)!, round);
  if (RECREATE_ROUNDS.has(round)) await queue(recreateMachines.shift()!, 'recreate', round);
  return ids;
}

/** An operator's long query on the server's database, in flight when the group is killed. */
function longQuery(url: string): void {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  client
    .connect()
    .then(() => client.query('select count(*) from generate_series(1, 2000000000)'))
    .catch(() => undefined)
    .finally(() => void client.end().catch(() => undefined));
}

async function killGroup(server: Server): Promise<void> {
  process.kill(-server.child.pid!, 'SIGKILL');
  await server.exited;
}

/** Sends `signal` to the server (or its whole group) with tasks in flight and answers its exit. */
async function stopGracefully(server: Server, signal: NodeJS.Signals, target: 'process' | 'group') {
  await closeObserver();
  process.kill(target === 'group' ? -server.child.pid! : server.child.pid!, signal);
  const exit = await Promise.race([server.exited, sleep(60_000).then(() => undefined)]);
  if (!exit) throw new Error(`the server did not stop within 60 s after ${signal}\n${output(server)}`);
  return exit;
}

/** Log lines (JSON, NODE_ENV=production) at level error or above. */
const errorLines = (s: Server) =>
  s.stdout
    .join('')
    .split('\n')
    .filter((l) => /"level":(50|60)/.test(l));

afterAll(async () => {
  await closeObserver();
  for (const s of servers) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      try {
        process.kill(-s.child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
      await Promise.race([s.exited, sleep(5000)]);
    }
  }
  if (dataDir) {
    // Backends of a killed server outlive it: end them before the folder goes.
    for (const pid of postgresProcessesOf(join(dataDir, 'pg'))) process.kill(pid, 'SIGKILL');
    await sleep(200);
    await rm(dataDir, { recursive: true, force: true });
  }
});

describe('a server killed mid-task and restarted at once, ten times (issue 9)', () => {
  it(
    'comes up every time, completes resumed tasks, ends every task Completed or Failed without repeating a cloud call, and stops gracefully with exit 0',
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'fleet-restart-'));
      port = await getPort();

      // The first start as `npm start` runs it (the sources through tsx); the others from the run's bundle.
      const first = await start({ asNpmStart: true });
      console.info(`restart test: first start with the demo seed took ${(first.upInMs! / 1000).toFixed(1)} s`);
      await installCloudCallLog(query);
      token = (await api<{ accessToken: { token: string } }>('POST', '/auth/login', { username: 'admin', password: 'admin' })).accessToken.token;
      const wanted = FLIP_MACHINES + FRESH_PER_ROUND * ROUNDS + RECREATE_ROUNDS.size;
      const candidates = await query<{ id: number; status: string }>(
        `select m.id, ci.status from machines m
         join cloud_instances ci on ci.machine_id = m.id and ci.active
         where m.deleted_at is null and not m.terminate and ci.status in ('running', 'stopped')
         order by m.id limit $1`,
        [wanted],
      );
      expect(candidates).toHaveLength(wanted);
      for (const c of candidates) nextAction.set(c.id, c.status === 'running' ? 'stop' : 'start');
      const ids = candidates.map((c) => c.id);
      flipMachines = ids.slice(0, FLIP_MACHINES);
      recreateMachines = ids.slice(FLIP_MACHINES, FLIP_MACHINES + RECREATE_ROUNDS.size);
      freshMachines = ids.slice(FLIP_MACHINES + RECREATE_ROUNDS.size);

      // Ten kills of the whole group mid-task, each followed at once by a start.
      const upTimes: number[] = [];
      for (let round = 1; round <= KILL_ROUNDS; round++) {
        const ids = await queueRound(round);
        await untilOneRunning(ids);
        longQuery((await readFile(join(dataDir, 'postgres.url'), 'utf8')).trim());
        await sleep(150 + Math.random() * 300);
        await closeObserver();
        await killGroup(current!);
        const next = await start();
        upTimes.push(next.upInMs!);
      }
      console.info(`restart test: starts right after a SIGKILL of the group answered health in ${upTimes.map((t) => (t / 1000).toFixed(1)).join(', ')} s`);

      // Graceful stops with tasks in flight: SIGTERM to the process, then SIGINT to the group (Ctrl-C).
      for (const [signal, target] of [
        ['SIGTERM', 'process'],
        ['SIGINT', 'group'],
      ] as const) {
        const server = current!;
        const ids = await queueRound(signal === 'SIGTERM' ? KILL_ROUNDS + 1 : KILL_ROUNDS + 2);
        await untilOneRunning(ids);
        const exit = await stopGracefully(server, signal, target);
        expect(exit, `${signal} to the ${target}\n${output(server)}`).toEqual({ code: 0, signal: null });
        expect(server.stderr.join(''), `${signal} to the ${target}: stderr`).toBe('');
        expect(errorLines(server), `${signal} to the ${target}: error log lines`).toEqual([]);
        expect(server.stdout.join('')).not.toMatch(/57P0[13]|unhandled/i);
        await start();
      }

      // A second server on the same data folder while this one runs: refused, and it says why.
      const intruder = spawnServer(await getPort());
      const intruderExit = await Promise.race([intruder.exited, sleep(START_TIMEOUT_MS).then(() => undefined)]);
      expect(intruderExit, output(intruder)).toEqual({ code: 1, signal: null });
      expect(intruder.stderr.join('')).toMatch(/could not start: the data folder .* is in use by another running server \(process \d+/);
      expect(intruder.stderr.join('')).toContain('What to do: Stop that server first');

      // Settle: every queued task ends, none stays New or Running.
      const taskIds = tracked.map((t) => t.id);
      const deadline = Date.now() + SETTLE_TIMEOUT_MS;
      const openTasks = () => query<{ id: number; status: string }>(`select id, status from machine_tasks where status in ('New', 'Running')`);
      let open = await openTasks();
      while (open.length > 0 && Date.now() < deadline) {
        await sleep(500);
        open = await openTasks();
      }
      expect(open, `tasks still open after ${SETTLE_TIMEOUT_MS} ms\n${output(current!)}`).toEqual([]);

      const rows = await query<{ id: number; status: string; attempts: number; error: string | null; started_at: Date | null; completed_at: Date | null }>(
        `select id, status, attempts, error, started_at, completed_at from machine_tasks where id = any($1) order by id`,
        [taskIds],
      );
      expect(rows).toHaveLength(tracked.length);
      for (const r of rows) expect(['Completed', 'Failed'], `task ${r.id}: ${r.status} ${r.error ?? ''}`).toContain(r.status);
      const byId = new Map(rows.map((r) => [r.id, r]));

      // No cloud call repeated: at most one transition call inside each task's run, on its machine.
      const calls = await query<{ machine_id: number; client_token: string | null; old_status: string | null; new_status: string; at: Date }>(
        `select machine_id, client_token, old_status, new_status, at from ${CLOUD_CALLS} order by id`,
      );
      for (const t of tracked) {
        const r = byId.get(t.id)!;
        if (!r.started_at) continue;
        const during = calls.filter((c) => c.machine_id === t.machineId && c.at >= r.started_at! && c.at <= (r.completed_at ?? new Date()));
        if (t.type === 'RecreateMachine') {
          const launches = during.filter((c) => c.old_status === null);
          expect(launches.length, `task ${t.id} (RecreateMachine, ${r.status}) launches`).toBeLessThanOrEqual(1);
          if (r.status === 'Completed') {
            expect(launches, `task ${t.id} launched under its client token`).toEqual([expect.objectContaining({ client_token: `task-${t.id}` })]);
            const instances = await query(`select 1 from cloud_instances where client_token = $1`, [`task-${t.id}`]);
            expect(instances).toHaveLength(1);
          }
          // Terminating the instance it replaces: once.
          expect(during.filter((c) => c.new_status === 'shutting-down').length, `task ${t.id} terminations`).toBeLessThanOrEqual(1);
        } else {
          const wanted = t.type === 'StartMachine' ? 'pending' : 'stopping';
          expect(during.filter((c) => c.new_status === wanted).length, `task ${t.id} (${t.type}, ${r.status}) ${wanted} calls`).toBeLessThanOrEqual(1);
          expect(during.filter((c) => c.old_status === null).length, `task ${t.id} launches`).toBe(0);
        }
      }

      // Recovered, not only ended: tasks resumed after a kill or a graceful stop (a second attempt or more) that
      // Completed, and a task Failed only for its workers dying three times (the simulated cloud fails nothing).
      const summary = JSON.stringify(rows.map((r) => [r.id, r.status, r.attempts, r.error]));
      expect(rows.filter((r) => r.attempts > 1 && r.status === 'Completed').length, `resumed tasks that Completed; tasks: ${summary}`).toBeGreaterThan(0);
      const failed = rows.filter((r) => r.status === 'Failed');
      expect(failed.map((r) => [r.id, r.error]), summary).toEqual(failed.map((r) => [r.id, 'The worker running this task stopped responding (3 attempts)']));

      const attempts = rows.map((r) => r.attempts);
      console.info(
        `restart test: ${rows.length} tasks, ${rows.filter((r) => r.status === 'Completed').length} Completed, ` +
          `${rows.filter((r) => r.status === 'Failed').length} Failed, ${attempts.filter((a) => a > 1).length} resumed after a kill; ` +
          `${calls.length} cloud calls recorded; failures: ${JSON.stringify(rows.filter((r) => r.status === 'Failed').map((r) => [r.id, r.attempts, r.error]))}`,
      );

      const last = current!;
      const exit = await stopGracefully(last, 'SIGTERM', 'process');
      expect(exit, output(last)).toEqual({ code: 0, signal: null });
      expect(last.stderr.join('')).toBe('');
    },
    TEST_TIMEOUT_MS,
  );
});
