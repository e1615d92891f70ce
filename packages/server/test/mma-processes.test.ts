/**
 * Remote MMAs as separate operating-system processes (issue 27 "What it must
 * show"): the real server (`main.ts`, ROLE=all, on a test database) and two
 * reference MMAs (`packages/mma`, `npm run mma`), one of class On Premise and
 * one of Experimental, both switched to remote, with script executors.
 *
 * It expects:
 * - each kind of outcome applied by the server: a SmokeTest's output and
 *   deployer log (marker lines), an UpdateSoftware's versions recorded as
 *   installed, a failing script's exit code as a FAILURE counted toward Panic;
 *   each run by its own class's MMA only;
 * - a cancel of a running script reaching it within the MMA's heartbeat and
 *   killing its process group: FAILURE 'Cancelled by admin', not counted;
 * - an MMA killed with SIGKILL mid-operation: a Populate (not idempotent) ends
 *   'MMA lost' after MMA_LEASE_S; a SmokeTest (idempotent) is offered again
 *   and finished by the MMA started again from its state file (attempt 2);
 * - a server restart while an MMA runs an operation: the MMA goes on, reports
 *   when the server is back, and the result is applied once (attempt 1, each
 *   line once);
 * - a revoked credential refused at once: the MMA exits 1 saying so.
 *
 * Duration: about a minute (the lease is 10 s here); the server runs from the test run's bundle
 * (`server-command.ts`), the MMAs through tsx as `npm run mma` runs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import getPort from 'get-port';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_EXPERIMENTAL, CLASS_ON_PREMISE, type TMmaAgent, type TMmaAgentsResponse, type TMmaRegistrationToken, type TOperation, type TOperationTypeName } from '@fleet/contracts';
import { createSimulatedCloud } from '../src/engine/cloud/simulated.js';
import { createOperationQueue } from '../src/engine/operations/queue.js';
import { insertAccount, insertMachine } from './fixtures.js';
import { useTestDatabase } from './harness.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from './db-url.js';
import { serverArgs } from './server-command.js';

const root = new URL('../../../', import.meta.url).pathname;
/**
 * MMA_LEASE_S of the server: its least (10 s). A restart costs the MMAs no lease (leases count from the server's
 * start at the earliest, `mmaLeaseGraceFrom`), so the lease need not outlast one.
 */
const LEASE_S = 10;
const TEST_TIMEOUT_MS = 180_000;

const database = useTestDatabase({ max: 3 });
let dir: string;
let port: number;
let base: string;
let admin: string;
let server: Proc | undefined;
const mmas: Proc[] = [];

interface Proc {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** `node args` (with `env` over the test's own) in the workspace, its output kept. */
function spawnProc(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { child, output: [], exited: new Promise((r) => child.once('exit', (code) => r(code))) };
  child.stdout!.on('data', (d) => proc.output.push(String(d)));
  child.stderr!.on('data', (d) => proc.output.push(String(d)));
  return proc;
}

const servers: Proc[] = [];
const logs = () => [...servers.map((s, i) => `server ${i}:\n${s.output.join('').slice(-3000)}`), ...mmas.map((m, i) => `mma ${i}:\n${m.output.join('').slice(-3000)}`)].join('\n');

/** Polls `check` every 200 ms until it answers a value; fails after `timeoutMs` with the processes' logs. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${logs()}`);
    await sleep(200);
  }
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function startServer(): Promise<Proc> {
  const proc = spawnProc(serverArgs(), {
    ROLE: 'all',
    PORT: String(port),
    DATABASE_URL: database.url,
    DATA_DIR: join(dir, 'server'),
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_KEY: TEST_DATA_KEY,
    SEED: 'none',
    NODE_ENV: 'production',
    DATABASE_POOL_SIZE: '5',
    MMA_LEASE_S: String(LEASE_S),
    SIM_AGENT_DELAY_MS: '0',
    PROBE_INTERVAL_S: '0',
  });
  servers.push(proc);
  await until('the server answers', 60_000, async () => {
    if (proc.child.exitCode !== null) throw new Error(`the server exited ${proc.child.exitCode}\n${proc.output.join('')}`);
    return fetch(`${base}/api/v1/health`).then((r) => r.ok || undefined, () => undefined);
  });
  return proc;
}

/** A reference MMA process with `token` (a registration token or none: its state file's credential). */
function startMma(name: string, token?: string): Proc {
  const proc = spawnProc(
    ['--import', 'tsx', 'packages/mma/src/cli.ts', '--server', base, '--config', join(dir, 'mma.yaml'), '--state', join(dir, `${name}.state.json`), ...(token ? ['--token', token] : [])],
    {},
  );
  mmas.push(proc);
  return proc;
}

/**
 * The script executors: each names its machine; `*slow*` machines' smoke tests take 10 s at their first attempt
 * (still running when their MMA is killed or the server restarts), a later attempt none; Populate sleeps (cancelled
 * or lost).
 */
const MMA_CONFIG = `
concurrency: 4
heartbeatSeconds: 2
shutdownGraceSeconds: 1
executors:
  SmokeTest:
    kind: script
    shell: bash
    command: |
      echo "smoke on $FLEET_MACHINE_NAME attempt $FLEET_ATTEMPT"
      echo "::deployer:: checked $FLEET_MACHINE_NAME"
      case "$FLEET_MACHINE_NAME:$FLEET_ATTEMPT" in *slow*:1) sleep 10;; esac
      echo "smoke done"
  UpdateSoftware:
    kind: script
    shell: bash
    command: |
      echo "installing $FLEET_VERSION_LAUNCHER"
      echo "deployer: launcher unpacked" >&3
      echo "installed"
  ApplyConfig:
    kind: script
    command: ["bash", "-c", "echo 'nginx -t failed'; exit 3"]
  Populate:
    kind: script
    shell: bash
    command: |
      echo "populating"
      sleep 47
      echo "populated"
`;

let machineSeq = 0;
/** A machine of `classId` with a running instance. */
async function machine(classId: number, name: string) {
  const db = database.db;
  machineSeq += 1;
  const account = await insertAccount(db, { name: `MMA process ${name} ${machineSeq}`, classId });
  const m = await insertMachine(db, { accountId: account.id, classId, instanceTypeId: 2, isLauncher: true, name: `${name}-${machineSeq}` });
  const cloud = createSimulatedCloud({ db, delayMs: 0 });
  const { cloudId } = await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `mma-process-${m.id}` });
  await cloud.describe(cloudId);
  return { ...m, accountId: account.id };
}

/** Queues `typeName` on `m` as the server's queue does (the MMAs find it at their next claim poll). */
async function enqueue(m: { id: number; accountId: number; classId: number; operationMode: number }, typeName: TOperationTypeName, params?: Record<string, unknown>) {
  const queue = createOperationQueue({ announce: () => undefined });
  const [queued] = await database.db.transaction((tx) =>
    queue.enqueue(tx, [
      {
        machine: { id: m.id, accountId: m.accountId, classId: m.classId, accountClassId: m.classId, operationMode: m.operationMode, failCounter: 0 },
        typeName,
        user: 'admin',
        activityId: null,
        params,
      },
    ]),
  );
  return queued!.operation.id;
}

const operation = (id: number) => api<TOperation>('GET', `/operations/${id}`);
const finished = (id: number, timeoutMs = 60_000) => until(`operation ${id} finished`, timeoutMs, async () => ((await operation(id)).finishTime ? operation(id) : undefined));
const rowOf = async (id: number) =>
  (await database.db.execute<{ output: string; deployerLog: string; worker: string | null; attempts: number }>(
    sql`select output, deployer_log as "deployerLog", worker, attempts from operations where id = ${id}`,
  )).rows[0]!;
const running = (id: number, text: string) => until(`operation ${id} running '${text}'`, 60_000, async () => (await rowOf(id)).output.includes(text));
const count = (text: string, needle: string) => text.split(needle).length - 1;

let agents: { onPremise: TMmaAgent; experimental: TMmaAgent };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fleet-mma-processes-'));
  port = await getPort();
  base = `http://127.0.0.1:${port}`;
  await writeFile(join(dir, 'mma.yaml'), MMA_CONFIG);
  await database.db.execute(sql`update mma_instances set mode = 'remote', standby = false where class_id in (${CLASS_ON_PREMISE}, ${CLASS_EXPERIMENTAL})`);
  server = await startServer();
  const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin' }) });
  admin = ((await login.json()) as { accessToken: { token: string } }).accessToken.token;
  for (const [name, classId] of [['on-premise', CLASS_ON_PREMISE], ['experimental', CLASS_EXPERIMENTAL]] as const) {
    const { token } = await api<TMmaRegistrationToken>('POST', `/mma/classes/${classId}/registration-tokens`);
    startMma(name, token);
  }
  const connected = await until('both MMAs connected', 60_000, async () => {
    const list = await api<TMmaAgentsResponse>('GET', '/mma/agents');
    const live = list.items.filter((a) => a.connected && !a.revokedAt);
    return live.length === 2 ? live : undefined;
  });
  agents = { onPremise: connected.find((a) => a.mmaClassId === CLASS_ON_PREMISE)!, experimental: connected.find((a) => a.mmaClassId === CLASS_EXPERIMENTAL)! };
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  for (const p of [...mmas, ...(server ? [server] : [])]) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGTERM');
      await Promise.race([p.exited, sleep(15_000)]);
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
    }
  }
  // The orphaned scripts of the SIGKILLed MMA end by themselves (sleep 47 at most).
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('reference MMAs as processes', () => {
  it("runs each kind of operation on its own class's MMA, and the server applies each outcome", async () => {
    const a = await machine(CLASS_ON_PREMISE, 'onprem');
    const b = await machine(CLASS_EXPERIMENTAL, 'experimental');
    const c = await machine(CLASS_ON_PREMISE, 'onprem-fail');
    const { rows } = await database.db.execute<{ v: string }>(sql`
      select br.name || '|' || co.short_hash as v from software_commits co join software_branches br on br.id = co.branch_id
      where co.software = 'launcher' order by co.id desc limit 1`);
    const versions = { launcher: rows[0]!.v };
    const smoke = await enqueue(a, 'SmokeTest');
    const update = await enqueue(b, 'UpdateSoftware', { versions });
    const failing = await enqueue(c, 'ApplyConfig');

    expect(await finished(smoke)).toMatchObject({ status: 'SUCCESS' });
    const smokeRow = await rowOf(smoke);
    expect(smokeRow.output).toContain(`smoke on ${a.name} attempt 1`);
    expect(smokeRow.deployerLog).toContain(`checked ${a.name}`);
    expect(smokeRow.output).not.toContain('::deployer::');
    expect(smokeRow.worker).toMatch(new RegExp(`^mma-agent:${agents.onPremise.id}@`));

    expect(await finished(update)).toMatchObject({ status: 'SUCCESS' });
    const updateRow = await rowOf(update);
    expect(updateRow.output).toContain(`installing ${versions.launcher}`);
    expect(updateRow.deployerLog).toContain('deployer: launcher unpacked');
    expect(updateRow.worker).toMatch(new RegExp(`^mma-agent:${agents.experimental.id}@`));
    const [installed] = (await database.db.execute<{ current: Record<string, string> }>(sql`select current_versions as current from machines where id = ${b.id}`)).rows;
    expect(installed!.current).toEqual(versions);

    expect(await finished(failing)).toMatchObject({ status: 'FAILURE', failCounter: 1 });
    expect((await rowOf(failing)).output.trimEnd().split('\n').at(-1)).toMatch(/Exited with code 3/);
  }, TEST_TIMEOUT_MS);

  it('a cancel reaches a running script within the heartbeat and kills its process group; not counted', async () => {
    const m = await machine(CLASS_ON_PREMISE, 'onprem-cancel');
    const id = await enqueue(m, 'Populate');
    await running(id, 'populating');
    const at = Date.now();
    await api('PATCH', `/machines/${m.id}/operations/${id}`, { params: 'CANCEL' });
    const done = await finished(id, 20_000);
    // The MMA's heartbeat is every 2 s here (5 s by default): the cancel is heard in it, the script killed, the finish sent.
    expect(Date.now() - at).toBeLessThan(5_000);
    expect(done).toMatchObject({ status: 'FAILURE', decision: 'CANCEL', failCounter: 0 });
    const row = await rowOf(id);
    expect(row.output.trimEnd().split('\n').at(-1)).toMatch(/Cancelled by admin$/);
    expect(row.output).not.toContain('populated');
  }, TEST_TIMEOUT_MS);

  it("an MMA killed mid-operation: the Populate ends 'MMA lost' after the lease, the SmokeTest is offered again and finished by the MMA started again", async () => {
    const m1 = await machine(CLASS_ON_PREMISE, 'onprem-lost');
    const m2 = await machine(CLASS_ON_PREMISE, 'onprem-slow');
    const populate = await enqueue(m1, 'Populate');
    const smoke = await enqueue(m2, 'SmokeTest');
    await running(populate, 'populating');
    await running(smoke, 'smoke on');
    const killed = mmas[0]!;
    killed.child.kill('SIGKILL');
    await killed.exited;

    const lost = await finished(populate, (LEASE_S + 30) * 1000);
    expect(lost.status).toBe('FAILURE');
    expect((await rowOf(populate)).output).toContain('MMA lost');

    startMma('on-premise'); // its credential from the state file
    const again = await finished(smoke, (LEASE_S + 60) * 1000);
    expect(again.status).toBe('SUCCESS');
    const row = await rowOf(smoke);
    expect(row.attempts, `${row.output}\n${logs()}`).toBe(2);
    expect(row.output).toContain(`smoke on ${m2.name} attempt 2`);
    expect(row.output).toContain('the MMA running it was lost (attempt 2)');
  }, TEST_TIMEOUT_MS);

  it('a server restart while an MMA runs an operation: it reports when the server is back, applied once', async () => {
    const m = await machine(CLASS_ON_PREMISE, 'onprem-slow-restart');
    const smoke = await enqueue(m, 'SmokeTest');
    await running(smoke, 'smoke on');
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = await startServer();
    const done = await finished(smoke, 60_000);
    expect(done.status).toBe('SUCCESS');
    const row = await rowOf(smoke);
    expect(row.attempts, `${row.output}\n${logs()}`).toBe(1);
    expect(count(row.output, 'smoke done')).toBe(1);
    expect(count(row.output, `smoke on ${m.name}`)).toBe(1);
  }, TEST_TIMEOUT_MS);

  it('a revoked credential is refused at once: the MMA exits 1 saying so', async () => {
    const experimental = mmas[1]!;
    await api('POST', `/mma/agents/${agents.experimental.id}/revoke`);
    const code = await until('the revoked MMA exits', 30_000, async () => (experimental.child.exitCode !== null ? experimental.child.exitCode : undefined));
    expect(code).toBe(1);
    expect(experimental.output.join('')).toMatch(/revoked|refused|401/i);
  }, TEST_TIMEOUT_MS);
});
