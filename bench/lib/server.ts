/**
 * Starts the real server as a child process for a benchmark, on a data folder kept
 * between runs (`.bench-data/<name>`, so the scale seed is made once), and reads
 * its memory from /proc. The rate limits are raised out of the load's reach.
 *
 * The folder is made again when the seed or the migrations changed since it was
 * seeded (a fingerprint of their sources in `seed-fingerprint`): a fleet seeded by
 * older code measures a different fleet (an older version format once left 99 %
 * of the scale machines obsolete, and the deploy controller's queueing loaded
 * every benchmark).
 *
 * The worker's probes are off (`PROBE_INTERVAL_S=0`) unless a benchmark's `env`
 * turns them on: at 100,000 machines they cost the request benchmarks about a
 * quarter of their throughput on a 2-core machine, and a deployment of that
 * size runs them in a worker of its own (`ROLE`); the request benchmarks
 * measure the API. bench/fleet measures the probes and
 * the viewers' pages while they run.
 *
 * The simulated agent and cloud take no time (`SIM_AGENT_DELAY_MS=0`,
 * `SIM_CLOUD_DELAY_MS=0`) unless a benchmark's `env` says otherwise, and the
 * server is ready once the fleet has settled: every account planned by the
 * scheduler, no operation queued or running.
 * A fresh scale seed leaves some machines behind their desired versions (as a
 * real fleet is); with realistic delays their deployments ran for a quarter of
 * an hour after every reseed and took a quarter of the machine's CPU from the
 * benchmark that happened to run then.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { sql } from 'drizzle-orm';
import { connectDatabase } from '../../packages/server/src/db/client.js';
import { selectAccountsToPlan } from '../../packages/server/src/engine/schedules/schedules.repository.js';
import { preloadStatementsLibrary } from './pg-statements.js';

export const root = new URL('../..', import.meta.url).pathname;

export interface BenchServer {
  baseUrl: string;
  process: ChildProcess;
  /** With `worker`: the worker process (`ROLE=worker`) that runs the engine beside the API-only server. */
  worker?: ChildProcess;
  /** Resident set size of the server process, MiB. */
  rssMiB(): number;
  stop(): Promise<void>;
}

/** A hash of the seed's and the migrations' sources. */
function seedFingerprint(): string {
  const hash = createHash('sha1');
  for (const dir of ['packages/server/src/seed', 'packages/server/src/db/migrations', 'packages/server/src/db/migrations/meta']) {
    for (const file of readdirSync(join(root, dir)).sort()) {
      if (/\.(ts|sql|json)$/.test(file) && !file.endsWith('.test.ts')) hash.update(file).update(readFileSync(join(root, dir, file)));
    }
  }
  return hash.digest('hex');
}

/**
 * The data folder of `name`, emptied first when it was seeded by other seed code;
 * `seeded()` records the fingerprint once the server is up (a seed cut short is
 * made again).
 */
function dataFolder(name: string): { dataDir: string; seeded(): void } {
  const dataDir = join(root, '.bench-data', name);
  const marker = join(dataDir, 'seed-fingerprint');
  const fingerprint = seedFingerprint();
  if (existsSync(dataDir) && (!existsSync(marker) || readFileSync(marker, 'utf8') !== fingerprint)) {
    console.log(`  (.bench-data/${name} was seeded by other seed code: seeding again)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true });
  return { dataDir, seeded: () => writeFileSync(marker, fingerprint) };
}

/**
 * Starts the server of benchmark `name` (module docstring). With `worker`, as a
 * deployment of the scale fleet runs (DESIGN §11, `ROLE`): the server serves
 * the API only (`ROLE=api`, it owns the embedded PostgreSQL) and a second
 * process, started once the API is up, runs the engine and the probes
 * (`ROLE=worker`, on the server's database through `DATABASE_URL`), so that a
 * probe tick's batch does not hold the API's event loop. `env` is given to both.
 */
export async function startServer(opts: { name: string; seed: 'scale' | 'demo'; env?: Record<string, string>; worker?: boolean }): Promise<BenchServer> {
  const port = await getPort();
  const { dataDir, seeded } = dataFolder(opts.name);
  preloadStatementsLibrary(dataDir);
  const started = Date.now();
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (`npm run bench:profile-summary`).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED: opts.seed,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // The load comes from one address and one user at hundreds of requests a
      // second: the limits stay on (their cost is measured) but out of reach.
      RATE_LIMIT_PER_USER: '1000000000',
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      PROBE_INTERVAL_S: '0',
      SIM_AGENT_DELAY_MS: '0',
      SIM_CLOUD_DELAY_MS: '0',
      ...opts.env,
      ...(opts.worker ? { ROLE: 'api' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  const baseUrl = `http://localhost:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  seeded();
  // The worker signs nothing in but shares the data key and the token secret (with DATABASE_URL they are required).
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { jwtSecret: string; dataKey: string };
  const worker = opts.worker
    ? spawn(process.execPath, [...profile, '--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: readFileSync(join(dataDir, 'postgres.url'), 'utf8').trim(),
          JWT_SECRET: secrets.jwtSecret,
          DATA_KEY: secrets.dataKey,
          ROLE: 'worker',
          SEED: opts.seed,
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          PROBE_INTERVAL_S: '0',
          SIM_AGENT_DELAY_MS: '0',
          SIM_CLOUD_DELAY_MS: '0',
          ...opts.env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
    : undefined;
  await settle(dataDir);
  if (worker && worker.exitCode !== null) throw new Error(`the worker process exited (${worker.exitCode}): see its output above`);
  if (/Seeded/.test(out)) console.log(`  (seeded ${opts.seed} fleet; start-up took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return {
    baseUrl,
    process: child,
    worker,
    rssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    async stop() {
      // The worker first: its engine stops while the database (the server's) is still up.
      for (const proc of [worker, child]) {
        if (!proc || proc.exitCode !== null) continue;
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * Waits (at most 10 minutes) until the fleet has settled: the scheduler has
 * planned every account (a fresh scale seed's first start plans 10,000, about
 * two minutes of transactions beside whatever is measured), no operation
 * running, and the number of unfinished ones (those waiting for approval stay)
 * unchanged for 5 seconds; then vacuums and analyses the database and waits
 * (at most 2 minutes) until no autovacuum worker runs for 3 seconds.
 */
async function settle(dataDir: string): Promise<void> {
  const { db, close } = connectDatabase(readFileSync(join(dataDir, 'postgres.url'), 'utf8').trim(), { max: 1 });
  const started = Date.now();
  try {
    let last = -1;
    let still = 0;
    while (still < 5) {
      const { rows } = await db.execute<{ unfinished: number; running: number }>(
        sql`select count(*)::int as unfinished, count(*) filter (where status = 'RUNNING')::int as running from operations where finished_at is null`,
      );
      const { unfinished, running } = rows[0]!;
      const toPlan = (await selectAccountsToPlan(db, 1)).length;
      still = toPlan === 0 && running === 0 && unfinished === last ? still + 1 : 0;
      last = unfinished;
      if (Date.now() - started > 600_000) {
        throw new Error(`the fleet did not settle in 10 minutes (${unfinished} operations unfinished, ${running} running, accounts ${toPlan ? 'still' : 'all'} planned)`);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    // What the planning wrote (a fresh scale fleet: schedules and operations of 10,000 accounts) is vacuumed and
    // analysed now, not by autovacuum in the middle of a measurement: the first bench/tasks runs after a fresh seed
    // measured 203–225 tasks/s while autovacuum went through those tables, the runs after them 296–299 (2026-12-03).
    const vacuumed = Date.now();
    await db.execute(sql`vacuum (analyze)`);
    let quiet = 0;
    while (quiet < 3 && Date.now() - vacuumed < 120_000) {
      const { rows } = await db.execute<{ workers: number }>(sql`select count(*)::int as workers from pg_stat_activity where backend_type = 'autovacuum worker'`);
      quiet = rows[0]!.workers === 0 ? quiet + 1 : 0;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const vacuumSeconds = (Date.now() - vacuumed) / 1000;
    if (vacuumSeconds > 5) console.log(`  (vacuumed and analysed the database in ${vacuumSeconds.toFixed(0)} s)`);
  } finally {
    await close();
  }
  const waited = (Date.now() - started) / 1000;
  if (waited > 7) console.log(`  (waited ${waited.toFixed(0)} s for the scheduler's planning and the fleet's operations to settle)`);
}

export async function token(baseUrl: string, username = 'admin', password = username): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return ((await res.json()) as { accessToken: { token: string } }).accessToken.token;
}

/** An account of 100 machines with a running instance each (made once). */
export async function hundredMachineAccount(db: pg.Client): Promise<number> {
  const found = await db.query<{ id: number }>(`select id from accounts where url_friendly_name = 'bench-hundred'`);
  if (found.rows[0]) return found.rows[0].id;
  const { rows } = await db.query<{ id: number }>(
    `insert into accounts (name, url_friendly_name, creator, class_id, maintainer, instance_policy)
     values ('Bench Hundred', 'bench-hundred', 'bench', 3, 'bench@fleet.example', 'InstancePerSiteMaster') returning id`,
  );
  const accountId = rows[0]!.id;
  await db.query(
    `insert into machines (account_id, name, class_id, is_site_master, instance_type_id)
     select $1, 'bench-hundred-' || n, 3, true, 2 from generate_series(1, 100) n`,
    [accountId],
  );
  await db.query(
    `insert into cloud_instances (machine_id, cloud_id, status, region, instance_type_id, host_name, ip_address, private_ip_address, storage_size)
     select m.id, 'i-bench' || lpad(m.id::text, 12, '0'), 'running', 'us-east-1', 2, 'ec2-bench.compute-1.amazonaws.com', '3.0.0.1', '10.0.0.1', 80
     from machines m where m.account_id = $1`,
    [accountId],
  );
  return accountId;
}

/** A Socket.IO client of `/taskHub` signed in with `bearer`; resolves once connected. */
export async function connectTaskHub(baseUrl: string, bearer: string): Promise<Socket> {
  const socket = io(baseUrl, { path: '/taskHub', auth: { token: bearer }, transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** A client of the bench server's API as `username` (admin): GET and JSON POST, throwing with the status and body on an error. */
export async function apiClient(baseUrl: string, username = 'admin') {
  const headers = { authorization: `Bearer ${await token(baseUrl, username)}`, 'content-type': 'application/json' };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: body === undefined ? { authorization: headers.authorization } : headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} ${res.status}: ${(await res.text()).slice(0, 500)}`);
    return (await res.json()) as T;
  };
  return { headers, get: <T>(path: string) => call<T>('GET', path), post: <T>(path: string, body?: unknown) => call<T>('POST', path, body) };
}
