/**
 * Starts the real server (`packages/server/src/main.ts`) on a free port with a
 * fresh DATA_DIR and the demo seed, waits for `/api/v1/health`, and stops it
 * (SIGTERM) after the run. The console must be built first (`npm run build`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import type { TestProject } from 'vitest/node';

/**
 * The URL name of an account whose machine (`{name}-launcher`) the e2e server's
 * simulated agent fails every operation of (SIM_AGENT_FAIL_MACHINES).
 */
export const FAILING_MACHINE_ACCOUNT = 'e2efailingops';
/** The URL name of the account whose launcher machine fails every operation for the rollout halting test (rollouts.spec.ts). */
export const ROLLOUT_FAILING_ACCOUNT = 'e2erolloutfails';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The e2e server's embedded PostgreSQL, for fixtures the API cannot make (a schedule's due time). */
    databaseUrl: string;
  }
}

const root = new URL('..', import.meta.url).pathname;

export default async function setup(project: TestProject) {
  if (!existsSync(join(root, 'packages/web/dist/index.html'))) throw new Error('Build the console first: npm run build');
  const dataDir = await mkdtemp(join(tmpdir(), 'fleet-e2e-'));
  const port = await getPort();
  const baseUrl = `http://localhost:${port}`;
  const output: string[] = [];
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED: 'demo',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SIM_AGENT_FAIL_MACHINES: `${FAILING_MACHINE_ACCOUNT}-launcher,${ROLLOUT_FAILING_ACCOUNT}-launcher`,
      // The Panic test's injected failures (and any other spec's) must not switch a
      // class to standby for the specs after it: standby holds every new operation of
      // the class (a scheduled backup in schedules.spec never started). The anomaly
      // rule is proven by the engine tests (engine/operations/agent.test.ts).
      ANOMALY_FAILURES: '1000',
      // Every running machine's URLs probed within 10 s of the start (request-statistics.spec.ts).
      PROBE_INTERVAL_S: '10',
      // The seed stays as seeded: no demo backup or idle stop of its own (the scheduler still runs).
      DEMO_SCHEDULES: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => output.push(String(d)));
  server.stderr!.on('data', (d) => output.push(String(d)));

  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  // A user of the password-change spec, made through the users CLI against the running server's database.
  const cli = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'packages/server/src/cli/users.ts'), 'add', 'pat', '--name', 'Pat Password', '--email', 'pat@fleet.example', '--password', 'pat-password-1'],
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`users CLI failed: ${cli.stdout}${cli.stderr}`);
  project.provide('baseUrl', baseUrl);
  project.provide('databaseUrl', readFileSync(join(dataDir, 'postgres.url'), 'utf8').trim());

  return async () => {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
    if (server.exitCode === null) server.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
}
