/**
 * Worker processes for crash tests (issue 4 tasks, issue 10 operations): the real
 * server (`main.ts`, `ROLE=worker`, no seed) spawned on a test database, killed
 * with any signal, and a poll that fails with every worker's log.
 *
 * Use: `const workers = workerProcesses(() => ({ DATABASE_URL: created.url, ... }));
 * afterAll(workers.killAll);`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from './db-url.js';
import { serverArgs } from './server-command.js';

const root = new URL('../../../', import.meta.url).pathname;
/** Longest wait for a worker process to start its engines, ms. */
const START_TIMEOUT_MS = 60_000;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WorkerProcess {
  child: ChildProcess;
  /** stdout and stderr, in order. */
  output: string[];
  stderr: string[];
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
}

export interface WorkerProcesses {
  /** Spawns a worker with the environment `env()` adds; resolves once its engines have started. */
  start(): Promise<WorkerProcess>;
  /** Sends `signal` and waits up to 20 s for the exit; a worker that already ended is left alone. */
  kill(worker: WorkerProcess, signal: NodeJS.Signals): Promise<void>;
  /**
   * Polls `check` every 100 ms until it answers a value; fails after `timeoutMs` with `what`, what `explain`
   * answers then (the state the test waited on: rows, reasons), and the workers' logs.
   */
  until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, explain?: () => Promise<string>): Promise<T>;
  /** SIGKILLs every worker still running (afterAll). */
  killAll(): Promise<void>;
}

export function workerProcesses(env: () => Record<string, string>): WorkerProcesses {
  const workers: WorkerProcess[] = [];
  const kill = async (worker: WorkerProcess, signal: NodeJS.Signals) => {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
    worker.child.kill(signal);
    await Promise.race([worker.exited, sleep(20_000)]);
  };
  return {
    async start() {
      const child = spawn(process.execPath, serverArgs(), {
        cwd: root,
        env: {
          ...process.env,
          ROLE: 'worker',
          JWT_SECRET: TEST_JWT_SECRET,
          DATA_KEY: TEST_DATA_KEY,
          SEED: 'none',
          DATABASE_POOL_SIZE: '5',
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          ...env(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const worker: WorkerProcess = { child, output: [], stderr: [], exited: new Promise((r) => child.once('exit', (code) => r(code))) };
      workers.push(worker);
      child.stdout!.on('data', (d) => worker.output.push(String(d)));
      child.stderr!.on('data', (d) => {
        worker.output.push(String(d));
        worker.stderr.push(String(d));
      });
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!worker.output.join('').includes('worker started')) {
        if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${worker.output.join('')}`);
        if (Date.now() > deadline) throw new Error(`worker did not start within ${START_TIMEOUT_MS} ms:\n${worker.output.join('')}`);
        await sleep(100);
      }
      return worker;
    },
    kill,
    async until(what, timeoutMs, check, explain) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (Date.now() > deadline) {
          const logs = workers.map((w, i) => `--- worker ${i + 1} ---\n${w.output.join('')}`).join('\n');
          const state = explain ? `--- state ---\n${await explain().catch((err: Error) => `(not read: ${err.message})`)}\n` : '';
          throw new Error(`${what} not reached within ${timeoutMs} ms\n${state}${logs}`);
        }
        await sleep(100);
      }
    },
    async killAll() {
      for (const w of workers) await kill(w, 'SIGKILL');
    },
  };
}
