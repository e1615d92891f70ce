/**
 * Starts the real server as a child process for a benchmark, on a data folder kept
 * between runs (`.bench-data/<name>`, so the scale seed is made once), and reads
 * its memory from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import getPort from 'get-port';

export const root = new URL('../..', import.meta.url).pathname;

export interface BenchServer {
  baseUrl: string;
  process: ChildProcess;
  /** Resident set size of the server process, MiB. */
  rssMiB(): number;
  stop(): Promise<void>;
}

export async function startServer(opts: { name: string; seed: 'scale' | 'demo'; env?: Record<string, string> }): Promise<BenchServer> {
  const port = await getPort();
  const dataDir = join(root, '.bench-data', opts.name);
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED: opts.seed, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: '', ...opts.env },
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
  if (/Seeded/.test(out)) console.log(`  (seeded ${opts.seed} fleet; start-up took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return {
    baseUrl,
    process: child,
    rssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
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
