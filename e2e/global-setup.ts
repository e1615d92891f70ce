/**
 * Starts the real server (`packages/server/src/main.ts`) once per e2e worker
 * (`E2E_WORKERS`, default 2; `e2e/vitest.config.ts` runs that many spec files at
 * once), each on a free port with a fresh DATA_DIR, its own embedded PostgreSQL
 * and the demo seed (the server bundled once for them: `server-command.ts`),
 * waits for their `/api/v1/health`, and stops them (SIGTERM) after the run. A
 * spec file talks to the server of its worker (`baseUrl()` in `browser.ts`),
 * so files running at once never share a fleet: one spec's
 * standby switch, catalogue edit or failing machine is never another's
 * surprise. The console must be built first (`npm run build`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import getPort from 'get-port';
import type { TestProject } from 'vitest/node';
import { bundleServer, serverArgs } from '../packages/server/test/server-command.js';

/**
 * The URL name of an account whose machine (`{name}-launcher`) the e2e server's
 * simulated agent fails every operation of (SIM_AGENT_FAIL_MACHINES).
 */
export const FAILING_MACHINE_ACCOUNT = 'e2efailingops';
/** The URL name of the account whose launcher machine fails every operation for the rollout halting test (rollouts.spec.ts). */
export const ROLLOUT_FAILING_ACCOUNT = 'e2erolloutfails';
/** The URL name of an account whose machine (`{name}-launcher`) fails every probe (SIM_PROBE_FAIL_MACHINES; issues.spec.ts). */
export const PROBE_FAILING_ACCOUNT = 'e2eprobefails';
/** The URL name of the account whose launcher machine fails every probe for the rollout bake test (rollouts.spec.ts). */
export const ROLLOUT_PROBE_FAILING_ACCOUNT = 'e2erolloutprobes';

/** One e2e server: its URL and its embedded PostgreSQL (for fixtures the API cannot make, such as a schedule's due time). */
export interface E2eServer {
  baseUrl: string;
  databaseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The servers, one per worker: worker `VITEST_POOL_ID` n uses `servers[(n - 1) % servers.length]`. */
    servers: E2eServer[];
  }
}

/** Spec files run at once, each worker with a server of its own (at least 1). */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

const root = new URL('..', import.meta.url).pathname;

/** A running e2e server and how to stop it. */
interface Started extends E2eServer {
  stop(): Promise<void>;
}

/**
 * Starts the console (`main.ts`) on `port` with a fresh data folder, the demo
 * seed and `env` over the e2e defaults, and waits for its `/api/v1/health`
 * (at most 150 s; fails with its output). Answers its data folder and how to
 * stop it (SIGTERM, SIGKILL after 15 s, the folder removed). To look into a
 * failed run: `E2E_SERVER_LOG=<prefix>` also writes each server's output to
 * `<prefix>-<port>.log`, at `E2E_SERVER_LOG_LEVEL` (default `warn`). `sso.spec.ts`
 * starts a console of its own with it.
 */
export async function startConsole(port: number, env: Record<string, string> = {}): Promise<{ dataDir: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fleet-e2e-'));
  const output: string[] = [];
  const server: ChildProcess = spawn(process.execPath, serverArgs(), {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED: 'demo', NODE_ENV: 'production', LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = process.env.E2E_SERVER_LOG ? `${process.env.E2E_SERVER_LOG}-${port}.log` : undefined;
  const onOutput = (d: Buffer) => {
    output.push(String(d));
    if (logFile) appendFileSync(logFile, d);
  };
  server.stdout!.on('data', onOutput);
  server.stderr!.on('data', onOutput);
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
      if (await fetch(`http://localhost:${port}/api/v1/health`).then((r) => r.ok, () => false)) return { dataDir, stop };
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output.join('')}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startServer(): Promise<Started> {
  const port = await getPort();
  const { dataDir, stop } = await startConsole(port, {
    SIM_AGENT_FAIL_MACHINES: `${FAILING_MACHINE_ACCOUNT}-launcher,${ROLLOUT_FAILING_ACCOUNT}-launcher`,
    // The Panic test's injected failures (and any other spec's) must not switch a
    // class to standby for the specs after it: standby holds every new operation of
    // the class (a scheduled backup in schedules.spec never started). The anomaly
    // rule is proven by the engine tests (engine/operations/agent.test.ts).
    ANOMALY_FAILURES: '1000',
    // Every running machine's URLs probed within 10 s of the start (request-statistics.spec.ts).
    PROBE_INTERVAL_S: '10',
    // The probes of these accounts' machines fail: an issue counts up every 10 s (issues.spec.ts), a bake fails (rollouts.spec.ts).
    SIM_PROBE_FAIL_MACHINES: `${PROBE_FAILING_ACCOUNT}-launcher,${ROLLOUT_PROBE_FAILING_ACCOUNT}-launcher`,
    // The seed stays as seeded: no demo backup or idle stop of its own (the scheduler still runs), and the scheduler
    // passes every 2 s instead of 10: schedules.spec waits for two passes (one plans its backup, the next runs it).
    DEMO_SCHEDULES: 'false',
    SCHEDULER_PASS_MS: '2000',
    // Half the default delays of the simulated cloud (a transition 1 s, not 2) and agent (100 ms a nominal second,
    // not 200: a SmokeTest, 5 nominal seconds, runs half a second, a launcher deploy a few): the live states the specs watch (a task or
    // operation Running, a wave Running while the next waits) still last long enough to see on a busy runner, and the
    // specs that wait for launches, operations and waves spend 13 % less time (issue 23, the suite's time). At a
    // quarter (500 ms, 50 ms) a SmokeTest ended before the machine's row could show it Running.
    SIM_CLOUD_DELAY_MS: '1000',
    SIM_AGENT_DELAY_MS: '100',
  });
  try {
    // A user of the password-change spec, made through the users CLI against the running server's database.
    const cli = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(root, 'packages/server/src/cli/users.ts'), 'add', 'pat', '--name', 'Pat Password', '--email', 'pat@fleet.example', '--password', 'pat-password-1'],
      { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
    );
    if (cli.status !== 0) throw new Error(`users CLI failed: ${cli.stdout}${cli.stderr}`);
    return { baseUrl: `http://localhost:${port}`, databaseUrl: readFileSync(join(dataDir, 'postgres.url'), 'utf8').trim(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync(join(root, 'packages/web/dist/index.html'))) throw new Error('Build the console first: npm run build');
  // Chromium is unpacked (to /tmp/chromium) once, here, before the workers launch it: on a fresh machine the
  // workers would unpack it at once, and one spawning the file another still writes fails with ETXTBSY.
  await chromium.executablePath();
  const removeBundle = await bundleServer();
  const started = await Promise.allSettled(Array.from({ length: E2E_WORKERS }, () => startServer()));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    await removeBundle();
    throw failed.reason;
  }
  project.provide('servers', servers.map(({ baseUrl, databaseUrl }) => ({ baseUrl, databaseUrl })));
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await removeBundle();
  };
}
