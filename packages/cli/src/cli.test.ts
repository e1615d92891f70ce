/**
 * The `fleet` command line (issue 28 point 4), a process per command, against the real app listening on a
 * port with a test database: sign-in kept 0600, each command's JSON parsed and
 * checked against the API, a bad argument exiting 2, a viewer's write refused
 * with the server's problem text (exit 1), an ended session (exit 3), an
 * unreachable server (exit 4), and the users commands on the database.
 *
 * The sign-ins run the real binary (`bin/fleet.mjs`: tsx's loader, then the
 * sources); the other commands the same sources bundled once by esbuild
 * (`server-command.ts` `bundleSources`), which start in a fifth of the CPU
 * (about 0.3 against 1.4 CPU-s a command; issue 23, the suite's time).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_CUSTOMER_PRODUCTION, type TOperation, type TTask } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../server/test/harness.js';
import { insertAccount, insertMachine } from '../../server/test/fixtures.js';
import { createSimulatedCloud } from '../../server/src/engine/cloud/simulated.js';
import { bundlePath, bundleSources } from '../../server/test/server-command.js';

const BIN = fileURLToPath(new URL('../bin/fleet.mjs', import.meta.url));
/** The command line's sources bundled (`bundleSources`), removed after the file. */
const BUNDLE = bundlePath('fleet', 'packages/cli', { split: true });
let t: TestApp;
let server = '';
let home = '';
let machineId = 0;
/** A second machine of the account: a rollout of two targets has the two waves of '1,50%'. */
let otherMachineId = 0;
let productionMachineId = 0;
let accountId = 0;

/**
 * Runs `fleet args` with the session of `configDir` (default the admin's), from {@link BUNDLE} or (`bin`) the real
 * binary; answers its exit code and output.
 */
function fleet(args: string[], opts: { configDir?: string; env?: Record<string, string>; input?: string; bin?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [opts.bin ? BIN : BUNDLE, ...args],
      { env: { ...process.env, FLEET_CONFIG_DIR: opts.configDir ?? join(home, 'admin'), FLEET_SERVER: server, ...opts.env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
}

/** `fleet … --output json`, expected to succeed: its parsed stdout. */
async function json<T>(args: string[], configDir?: string): Promise<T> {
  const res = await fleet([...args, '--output', 'json'], { configDir });
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as T;
}

beforeAll(async () => {
  await bundleSources('packages/cli/src/main.ts', BUNDLE, { split: true });
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  home = await mkdtemp(join(tmpdir(), 'fleet-cli-'));
  const db = t.database.db;
  const account = await insertAccount(db, { name: 'Cli Northwind', classId: 3 });
  accountId = account.id;
  const machine = await insertMachine(db, { accountId, classId: 3, instanceTypeId: 4 });
  machineId = machine.id;
  otherMachineId = (await insertMachine(db, { accountId, classId: 3, instanceTypeId: 4 })).id;
  const cloud = createSimulatedCloud({ db, delayMs: 0 });
  const { cloudId } = await cloud.launch({ machineId, region: 'eu-west-1', instanceTypeId: 4, clientToken: `cli-${machineId}` });
  await cloud.describe(cloudId);
  const production = await insertAccount(db, { name: 'Cli Production', classId: CLASS_CUSTOMER_PRODUCTION });
  productionMachineId = (await insertMachine(db, { accountId: production.id, classId: CLASS_CUSTOMER_PRODUCTION, instanceTypeId: 4 })).id;
  // The admin's session, which the commands below use (each test stands alone).
  const admin = await fleet(['login', '--username', 'admin', '--password-stdin'], { input: 'admin\n', bin: true });
  if (admin.code !== 0) throw new Error(`admin login: ${admin.stderr}`);
}, 120_000);
afterAll(async () => {
  await t.close();
  await rm(home, { recursive: true, force: true });
  await rm(dirname(BUNDLE), { recursive: true, force: true });
});

describe('fleet', () => {
  it('signs in once and keeps the session 0600 in its config folder; a wrong password exits 3; an unreachable server 4', async () => {
    const configDir = join(home, 'login');
    const wrong = await fleet(['login', '--username', 'admin'], { configDir, env: { FLEET_PASSWORD: 'not-the-password' }, bin: true });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/^fleet: Unauthorized/);

    const unreachable = await fleet(['login', '--server', 'http://127.0.0.1:1', '--username', 'admin', '--password-stdin'], { configDir, input: 'admin\n', bin: true });
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toContain('Cannot reach the server at http://127.0.0.1:1');

    const login = await fleet(['login', '--username', 'admin'], { configDir, env: { FLEET_PASSWORD: 'admin' }, bin: true });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Signed in to ${server} as admin`);
    expect((await stat(join(configDir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
    const me = await json<{ server: string; permissions: string[]; roles: string[] }>(['whoami'], configDir);
    expect(me).toMatchObject({ server, roles: ['admin'] });
  });

  it('lists accounts as the API does, in JSON and as a table', async () => {
    const page = await json<{ items: { id: number; name: string }[]; totalItems: number }>(['accounts', 'list', '--search', 'Northwind', '--class', '3']);
    const api = (await t.call({ method: 'GET', url: '/accounts', as: 'admin', query: { search: 'Northwind', classIds: '3' } })).json();
    expect(page).toEqual(api);
    expect(page.items.map((a) => a.id)).toContain(accountId);
    const table = await fleet(['accounts', 'list', '--search', 'Northwind']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Id\s+│\s+Name\s+│\s+Class/);
    expect(table.stdout).toContain('Cli Northwind');
  });

  it('stops a machine (a StopMachine task, in the audit trail) and queues an operation on it', async () => {
    const task = await json<TTask>(['machines', 'stop', String(machineId)]);
    expect(task).toMatchObject({ type: 'StopMachine', machineId, status: 'New' });
    const tasks = (await t.call({ method: 'GET', url: `/machines/${machineId}/tasks`, as: 'admin' })).json() as { items: TTask[] };
    expect(tasks.items.map((x) => x.id)).toContain(task.id);

    const queued = await fleet(['operations', 'queue', String(machineId), 'SmokeTest']);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stdout).toBe(`Queued on machine ${machineId}: SmokeTest\n`);
    const ops = await json<{ items: TOperation[] }>(['operations', 'list', '--machine', String(machineId)]);
    expect(ops.items.map((o) => o.typeName)).toContain('SmokeTest');

    const activity = await json<{ action: string; user: string }[]>(['activity', '--account', String(accountId)]);
    expect(activity.map((a) => [a.action, a.user])).toEqual(expect.arrayContaining([['StopMachine', 'admin']]));
  });

  it('lists the approvals and proceeds one', async () => {
    expect((await fleet(['operations', 'queue', String(productionMachineId), 'UpdateSoftware'])).code).toBe(0);
    const pending = await json<{ items: TOperation[] }>(['approvals', 'list', '--limit', '100']);
    const op = pending.items.find((o) => o.machineId === productionMachineId && o.typeName === 'UpdateSoftware');
    expect(op).toMatchObject({ pending: true, decision: null });
    const proceed = await fleet(['approvals', 'proceed', String(op!.id)]);
    expect(proceed.code, proceed.stderr).toBe(0);
    const after = (await t.call({ method: 'GET', url: `/operations/${op!.id}`, as: 'admin' })).json() as TOperation;
    expect(after).toMatchObject({ pending: false, decision: 'PROCEED', decidedBy: 'admin' });
  });

  it('starts a rollout (a dry run first), watches it, and the watch exits 1 once it is aborted', async () => {
    const dry = await json<{ dryRun: boolean; targets: { id: number; refused: string | null; changes: { field: string }[] }[] }>([
      'rollouts', 'start', '--machines', String(machineId), '--launcher', 'latest', '--waves', '1,50%', '--dry-run',
    ]);
    expect(dry.dryRun).toBe(true);
    expect(dry.targets.map((x) => x.id)).toEqual([machineId]);
    const started = await json<{ rolloutId: number }>(['rollouts', 'start', '--machines', `${machineId},${otherMachineId}`, '--launcher', 'latest', '--waves', '1,50%']);
    expect(started.rolloutId).toBeGreaterThan(0);
    const rollout = (await t.call({ method: 'GET', url: `/rollouts/${started.rolloutId}`, as: 'admin' })).json() as { waves: { size: number }[] };
    expect(rollout.waves.map((w) => w.size)).toEqual([1, 1]);
    expect((await fleet(['rollouts', 'abort', String(started.rolloutId)])).code).toBe(0);
    const watch = await fleet(['rollouts', 'watch', String(started.rolloutId)]);
    expect(watch.code).toBe(1);
    expect(watch.stdout).toMatch(new RegExp(`rollout ${started.rolloutId} Aborted wave`));
    expect(watch.stderr).toContain(`fleet: Rollout ${started.rolloutId} Aborted`);
  });

  it('exits 2 on a bad command line, saying why', async () => {
    for (const args of [['machines', 'stop', 'abc'], ['machines', 'stop', '2147483648'], ['accounts', 'list', '--limit', '0'], ['operations', 'queue', '1', 'Reboot'], ['rollouts', 'start', '--machines', '1', '--waves', '0'], ['nonsense']]) {
      const res = await fleet(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(/error: /);
    }
    const noVersions = await fleet(['rollouts', 'start', '--machines', String(machineId)]);
    expect(noVersions).toMatchObject({ code: 2, stderr: expect.stringContaining('Say which versions') });
    const help = await fleet(['machines', 'stop', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fleet machines stop [options] <id>');
  });

  it("refuses a viewer's write with the server's problem text (exit 1); the session ends at logout (exit 3)", async () => {
    const viewer = join(home, 'viewer');
    expect((await fleet(['login', '--username', 'viewer', '--password-stdin'], { configDir: viewer, input: 'viewer' })).code).toBe(0);
    const refused = await fleet(['machines', 'stop', String(machineId)], { configDir: viewer });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('fleet: Forbidden: This action needs the write permission\n');
    const unknown = await fleet(['machines', 'start', '2000000000'], { configDir: viewer });
    expect(unknown.code).toBe(1);

    expect((await fleet(['logout'], { configDir: viewer })).code).toBe(0);
    const after = await fleet(['accounts', 'list'], { configDir: viewer });
    expect(after).toMatchObject({ code: 3, stderr: expect.stringContaining('Not signed in') });
  });

  it('manages users in the database (the users CLI), and the new user signs in', async () => {
    const env = { DATABASE_URL: t.database.url, JWT_SECRET: 'unused-by-the-users-command-0123', DATA_KEY: 'ab'.repeat(32) };
    const add = await fleet(['users', 'add', 'cli-pat', '--name', 'Pat Cli', '--email', 'pat@cli.example', '--password', 'pat-password-1', '--permission', 'write'], { env });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('Added cli-pat.');
    const list = await fleet(['users', 'list'], { env });
    expect(list.stdout).toContain('cli-pat');
    const pat = join(home, 'pat');
    expect((await fleet(['login', '--username', 'cli-pat', '--password-stdin'], { configDir: pat, input: 'pat-password-1' })).code).toBe(0);
    expect(await json<{ permissions: string[] }>(['whoami'], pat)).toMatchObject({ permissions: ['write'] });
  });
});
