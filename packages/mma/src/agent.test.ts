/**
 * The reference MMA end to end (issue 27 point 3): `main()` of the command
 * line, in this process, talks HTTP to the real server app listening on a
 * port (through a TCP proxy the test can cut), with the worker's operation
 * engine beside it on the same test database. Class Customer Staging is
 * switched to remote; the MMA registers with a registration token (its
 * credential saved in the state file, mode 0600) and runs script executors:
 *
 * - a Backup, a RestoreBackup and a PublishSampleData whose files travel
 *   through the server, and a CreateJumpStartAmi imaged by the server;
 * - a SmokeTest (echo, fd 3), an UpdateSoftware (marker lines; the versions
 *   recorded at its SUCCESS) and an ApplyConfig that exits 3 (FAILURE with
 *   its last line, counted), each followed by the report script's machine
 *   report (its site server status; the installed versions);
 * - a cancel of a running `sleep 30`: FAILURE 'Cancelled by admin' within
 *   5 s, its process group gone;
 * - the server away (the proxy cut) while an operation ends: its output and
 *   finish are sent once it is back;
 * - the credential revoked: the MMA stops, exit code 1, a clear message;
 * - stops (as SIGINT/SIGTERM do): a running operation finishes within the
 *   grace (nothing more claimed); a new start with the state file's
 *   credential; past a short grace the operation's process group is stopped
 *   and it is left without a finish; the program itself exits 0 on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CLASS_CUSTOMER_STAGING, CLASS_EXPERIMENTAL, type TBackupFile, type TMmaClass } from '@fleet/contracts';
import { buildApp } from '../../server/src/app.js';
import { linesOf, startAgentFixture, type AgentFixture } from '../../server/test/operation-fixtures.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../server/test/db-url.js';
import { main } from './cli.js';
import { createMemoryLogger } from './logger.js';
import { groupAlive } from './executors/process-group.js';
import { readState } from './state.js';

let f: AgentFixture;
let app: FastifyInstance;
let proxy: Proxy;
let admin: Record<string, string>;
let dir: string;
let server: string;

/** A TCP proxy to the app that the test can cut (connections dropped, new ones refused) and restore. */
interface Proxy {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}
async function startProxy(target: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let up = true;
  const proxyServer: Server = createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = connect(target, '127.0.0.1');
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', drop).on('close', drop);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxyServer.address() as AddressInfo).port,
    cut() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      up = true;
    },
    close: () => new Promise((resolve) => proxyServer.close(() => resolve())),
  };
}

/** Polls `check` every 25 ms until it answers true; fails after `timeoutMs`. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The pid a script wrote to `file` (its process group's id: the script leads it), once written. */
async function pidIn(file: string): Promise<number> {
  let text = '';
  await until(`a pid in ${file}`, async () => (text = await readFile(file, 'utf8').catch(() => '')).endsWith('\n'));
  return Number(text.trim());
}

const inject = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) => {
  const res = await app.inject({ method, url, headers: admin, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
};

/** Switches class `classId`'s "Runs operations" to Remote (the MMA screen's class form). */
async function switchToRemote(classId: number) {
  const classes = (await app.inject({ method: 'GET', url: '/api/v1/mma/classes', headers: admin })).json() as TMmaClass[];
  const c = classes.find((x) => x.id === classId)!;
  const i = c.mmaInstance!;
  await inject('PUT', `/api/v1/mma/classes/${classId}`, {
    name: c.name,
    image: c.image,
    deployerBranch: i.deployerBranch,
    deployerVersion: i.deployerVer,
    standby: false,
    priorityGroup: i.priorityGroup,
    caaHost: i.caaHost,
    mode: 'remote',
  });
}

/** One MMA run of `main()`: its exit code when it ends, its log, and its stop. */
interface MmaRun {
  exit: Promise<number>;
  log: ReturnType<typeof createMemoryLogger>;
  stop: AbortController;
  printed: string[];
}
function startMma(args: string[]): MmaRun {
  const log = createMemoryLogger();
  const stop = new AbortController();
  const printed: string[] = [];
  const exit = main([...args, '--server', server], { stop: stop.signal, log, print: (t) => printed.push(t), retry: { baseMs: 50, maxMs: 300 }, flushEveryMs: 200, env: { PATH: process.env.PATH } });
  const run = { exit, log, stop, printed };
  started.push(run);
  return run;
}
/** Every MMA started, stopped after the tests (the app's close waits for their long polls). */
const started: MmaRun[] = [];
let mma: MmaRun;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mma-it-'));
  f = await startAgentFixture({ passMs: 200, anomalyFailures: 1_000 });
  app = await buildApp({
    db: f.database.db,
    config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await startProxy((app.server.address() as AddressInfo).port);
  server = `http://127.0.0.1:${proxy.port}`;
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'admin', password: 'admin' } });
  admin = { authorization: `Bearer ${login.json().accessToken.token as string}` };
  await switchToRemote(CLASS_CUSTOMER_STAGING);

  await writeFile(
    join(dir, 'mma.yaml'),
    `
concurrency: 4
heartbeatSeconds: 1
shutdownGraceSeconds: 10
host: mma-it.fleet.example
executors:
  SmokeTest:
    kind: script
    shell: bash
    command: 'echo "smoke ✓ on $FLEET_MACHINE_NAME (attempt $FLEET_ATTEMPT)"; echo "smoke: 3 checks passed" >&3'
  UpdateSoftware:
    kind: script
    shell: bash
    command: 'echo "installing $FLEET_VERSION_LAUNCHER"; echo "::deployer:: deploy: launcher $FLEET_VERSION_LAUNCHER"'
  ApplyConfig:
    kind: script
    command: 'echo "writing the configuration"; echo "nginx -t: configuration test failed" >&2; exit 3'
  Populate:
    kind: script
    command: 'echo $$ > ${dir}/pid-$FLEET_OPERATION_ID; echo "populating"; sleep 30'
  Backup:
    kind: script
    shell: bash
    command: 'if [ "$FLEET_PARAM_CATEGORY" = monthly ]; then echo "no dumps today"; exit 0; fi; for s in \${FLEET_BACKUP_SOFTWARE//,/ }; do echo "dump of $s on $FLEET_MACHINE_NAME" | gzip > "$FLEET_BACKUP_DIR/$s.sql.gz"; echo "dumped $s"; done'
  RestoreBackup:
    kind: script
    shell: bash
    command: 'for s in \${FLEET_RESTORE_SOFTWARE//,/ }; do echo "restoring $s: $(gunzip -c "$FLEET_RESTORE_DIR/$s.sql.gz")"; done'
  PublishSampleData:
    kind: script
    shell: bash
    command: 'echo "exporting $FLEET_MACHINE_NAME as $FLEET_PARAM_FILE_NAME"; printf "PK sample of %s" "$FLEET_MACHINE_NAME" > "$FLEET_SAMPLE_DATA_OUT"'
  CreateJumpStartAmi:
    kind: script
    command: 'echo "preparing $FLEET_MACHINE_NAME for imaging as $FLEET_PARAM_NAME"'
  ReinstallSampleData:
    kind: script
    command: 'echo "before the outage"; while [ ! -f ${dir}/gate-$FLEET_OPERATION_ID ]; do sleep 0.05; done; echo "after the outage"; touch ${dir}/done-$FLEET_OPERATION_ID'
report:
  kind: script
  shell: bash
  command: |
    echo "checking $FLEET_MACHINE_NAME"
    if [ "$FLEET_OPERATION_TYPE" = SmokeTest ]; then mongo=false; else mongo=true; fi
    if [ "$FLEET_OPERATION_TYPE" = UpdateSoftware ]; then installed=", \\"installedVersions\\": $FLEET_VERSIONS"; fi
    echo "{\\"siteServerStatus\\": {\\"status\\": \\"Degraded\\", \\"operational\\": true, \\"diskSpaceOk\\": true, \\"interServerCommOk\\": true, \\"libraryImportOk\\": true, \\"mongoOk\\": $mongo, \\"rabbitMqOk\\": true}$installed}"
`,
  );
  const made = await inject('POST', `/api/v1/mma/classes/${CLASS_CUSTOMER_STAGING}/registration-tokens`);
  mma = startMma(['--token', made.token as string, '--config', join(dir, 'mma.yaml'), '--state', join(dir, 'state.json')]);
}, 120_000);

afterAll(async () => {
  for (const run of started) run.stop.abort();
  await Promise.all(started.map((run) => run.exit));
  await app?.close();
  await proxy?.close();
  await f?.close();
  await rm(dir, { recursive: true, force: true });
});

const staging = () => f.machine({ classId: CLASS_CUSTOMER_STAGING });

describe('the MMA against the real server', () => {
  it('registers once, keeping its credential in the state file (mode 0600)', async () => {
    const file = join(dir, 'state.json');
    await until('the state file', async () => (await readState(file).catch(() => undefined)) !== undefined);
    const state = (await readState(file))!;
    expect(state).toMatchObject({ server, mmaClassId: CLASS_CUSTOMER_STAGING, host: 'mma-it.fleet.example' });
    expect(state.token).toMatch(/^mmat_/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const agents = (await inject('GET', '/api/v1/mma/agents')).items as { id: number; host: string; version: string }[];
    expect(agents.find((a) => a.id === state.agentId)).toMatchObject({ host: 'mma-it.fleet.example', version: '0.1.0' });
  });

  it('backs up through the server (a file per software, listed among the backups), restores what it backed up, fails a Backup without its dumps, and publishes sample data', async () => {
    const m = await staging();
    const name = (await f.machineRow(m.id)).name;
    const b = await f.settled(await f.enqueue(m, 'Backup', { params: { category: 'daily' } }));
    expect(b.status, b.output).toBe('SUCCESS');
    expect(linesOf(b.output)).toEqual(expect.arrayContaining(['dumped launcher', 'dumped siteMaster', 'dumped auditChangeLog']));
    const files = (await inject('GET', `/api/v1/accounts/${m.accountId}/backups?machineId=${m.id}`)).items as TBackupFile[];
    expect(files.map((file) => [file.softwareName, file.category]).sort()).toEqual([
      ['auditChangeLog', 'daily'],
      ['launcher', 'daily'],
      ['siteMaster', 'daily'],
    ]);
    const launcher = files.find((file) => file.softwareName === 'launcher')!;
    expect(linesOf(b.output)).toContain(`Uploaded the launcher backup: ${launcher.name} (${launcher.size} bytes)`);

    const r = await f.settled(await f.enqueue(m, 'RestoreBackup', { params: { launcherBackupFile: launcher.name } }));
    expect(r.status, r.output).toBe('SUCCESS');
    expect(linesOf(r.output)).toEqual(expect.arrayContaining([`Downloaded the launcher backup file (${launcher.size} bytes)`, `restoring launcher: dump of launcher on ${name}`]));

    const e = await f.settled(await f.enqueue(m, 'Backup', { params: { category: 'monthly' } }));
    expect(e.status).toBe('FAILURE');
    expect(linesOf(e.output).at(-1)).toBe('The executor wrote no launcher backup (launcher.sql.gz in FLEET_BACKUP_DIR)');

    const fileName = `mma-it-sample-${m.id}.zip`;
    const p = await f.settled(await f.enqueue(await staging(), 'PublishSampleData', { params: { fileName } }));
    expect(p.status, p.output).toBe('SUCCESS');
    const published = ((await app.inject({ method: 'GET', url: '/api/v1/sample-data-files', headers: admin })).json() as { name: string; size: number }[]).find((file) => file.name === fileName);
    expect(published).toBeDefined();
    expect(linesOf(p.output)).toContain(`Uploaded the sample data file ${fileName} (${published!.size} bytes)`);
  });

  it('prepares a machine for a jump-start image, waits for the server to image it, and the image is registered', async () => {
    const m = await staging();
    const { rows } = await f.database.db.execute<{ name: string }>(sql`select name from irmn_versions order by id limit 1`);
    const imageName = `js-mma-it-${m.id}`;
    const j = await f.settled(await f.enqueue(m, 'CreateJumpStartAmi', { params: { name: imageName, description: 'From the reference MMA', irmnVersion: rows[0]!.name } }));
    expect(j.status, j.output).toBe('SUCCESS');
    const imageId = (j.params as { imageId: string }).imageId;
    expect(linesOf(j.output)).toEqual(expect.arrayContaining([`preparing ${(await f.machineRow(m.id)).name} for imaging as ${imageName}`, `Image ${imageId} is available in us-east-1`]));
    const registered = await f.database.db.execute<{ name: string }>(sql`select name from saas_images where cloud_image = ${imageId}`);
    expect(registered.rows).toEqual([{ name: imageName }]);
  });

  it('runs a SmokeTest, an UpdateSoftware (its versions recorded) and a failing ApplyConfig with their scripts', async () => {
    const [m1, m2, m3] = [await staging(), await staging(), await staging()];
    const { rows } = await f.database.db.execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' order by c.id desc limit 1`);
    const versions = { launcher: rows[0]!.v };
    const smoke = await f.enqueue(m1, 'SmokeTest');
    const update = await f.enqueue(m2, 'UpdateSoftware', { params: { versions, bundleVersion: '9.9.9.1' } });
    const apply = await f.enqueue(m3, 'ApplyConfig');

    const s = await f.settled(smoke);
    expect(s.status).toBe('SUCCESS');
    expect(s.worker).toMatch(/^mma-agent:\d+@mma-it\.fleet\.example$/);
    const m1Name = (await f.machineRow(m1.id)).name;
    expect(linesOf(s.output)).toContain(`smoke ✓ on ${m1Name} (attempt 1)`);
    expect(linesOf(s.deployerLog)).toEqual(['smoke: 3 checks passed']);

    const u = await f.settled(update);
    expect(u.status, u.output).toBe('SUCCESS');
    expect(linesOf(u.output)).toContain(`installing ${versions.launcher}`);
    expect(linesOf(u.deployerLog)).toEqual([`deploy: launcher ${versions.launcher}`]);
    const m = await f.machineRow(m2.id);
    expect(m.currentVersions).toEqual(versions);
    expect(m.bundleVersion).toBe('9.9.9.1');

    const a = await f.settled(apply);
    expect(a.status).toBe('FAILURE');
    expect(linesOf(a.output)).toContain('writing the configuration');
    expect(linesOf(a.output).at(-1)).toBe('Exited with code 3: nginx -t: configuration test failed');
    expect((await f.machineRow(m3.id)).failCounter).toBe(1);

    // After each, the report script reported the machine: its status, and its installed versions (the same: no new state).
    const reports = async () =>
      (
        await f.database.db.execute<{ machineId: number; status: { mongoOk: boolean }; installed: Record<string, string> | null }>(sql`
          select machine_id as "machineId", site_server_status as status, installed_versions as installed from machine_reports
          where machine_id in (${m1.id}, ${m2.id}, ${m3.id}) order by machine_id`)
      ).rows;
    await until('the three machine reports', async () => (await reports()).length === 3).catch((err: Error) => {
      throw new Error(`${err.message}\n${JSON.stringify(mma.log)}`);
    });
    const [r1, r2] = await reports();
    expect(r1).toMatchObject({ machineId: m1.id, status: { mongoOk: false } });
    expect(r2).toMatchObject({ machineId: m2.id, status: { mongoOk: true }, installed: versions });
    const states = await f.database.db.execute(sql`select id from version_states where machine_id = ${m2.id}`);
    expect(states.rows, 'the report of what the UpdateSoftware installed writes no second state').toHaveLength(1);
  }, 30_000);

  it("ends a cancelled running script FAILURE 'Cancelled by admin' within 5 s, its process group gone", async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'Populate', { params: { populateLauncher: true } });
    const pgid = await pidIn(join(dir, `pid-${id}`));
    expect(groupAlive(pgid)).toBe(true);
    await until('the output reached the server', async () => (await f.row(id)).output.includes('populating'));
    const asked = Date.now();
    await inject('PATCH', `/api/v1/machines/${machine.id}/operations/${id}`, { params: 'CANCEL' });
    const row = await f.settled(id, 5_000);
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(row.status).toBe('FAILURE');
    expect(linesOf(row.output).at(-1)).toBe('Cancelled by admin');
    expect(groupAlive(pgid), `process group ${pgid} is gone`).toBe(false);
    expect((await f.machineRow(machine.id)).failCounter, 'a cancel is not counted').toBe(0);
  });

  it('keeps running while the server is away, and sends the output and the finish once it is back', async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'ReinstallSampleData');
    await until('the first line reached the server', async () => (await f.row(id)).output.includes('before the outage'));
    proxy.cut();
    try {
      await writeFile(join(dir, `gate-${id}`), '');
      await until('the script ended', async () => (await stat(join(dir, `done-${id}`)).catch(() => undefined)) !== undefined);
      await until('the MMA saw the server away', () => mma.log.lines.some((l) => l.includes('Server unreachable')));
      expect((await f.row(id)).status, 'nothing reached the server meanwhile').toBe('RUNNING');
    } finally {
      proxy.restore();
    }
    const row = await f.settled(id, 15_000);
    expect(row.status).toBe('SUCCESS');
    const lines = linesOf(row.output);
    expect(lines.filter((l) => l === 'after the outage')).toHaveLength(1);
    expect(lines.indexOf('after the outage')).toBeGreaterThan(lines.indexOf('before the outage'));
    await until('the MMA saw the server back', () => mma.log.lines.some((l) => l.includes('Server reachable again')));
  }, 30_000);

  it('stops with a clear error and exit code 1 when its credential is revoked', async () => {
    const state = (await readState(join(dir, 'state.json')))!;
    await inject('POST', `/api/v1/mma/agents/${state.agentId}/revoke`);
    const code = await Promise.race([mma.exit, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
    expect(code).toBe(1);
    expect(mma.log.lines.join('\n')).toMatch(/error The server refused the MMA's credential \(401: .*\)\. It was revoked or is unknown: register this MMA again/);
  }, 15_000);
});

describe('stopping (SIGINT/SIGTERM)', () => {
  // A class of its own: a claim the server still answers for a stopped MMA
  // cannot take these operations. `concurrency: 1` and one operation running:
  // no claim is in flight at the stop.
  const classId = CLASS_EXPERIMENTAL;
  beforeAll(async () => {
    mma.stop.abort();
    await mma.exit;
    await switchToRemote(classId);
  });

  it('lets a running operation finish within the grace and claims nothing more; the next start reuses the state file; past a short grace it stops the operation and leaves it unfinished', async () => {
    const config = (grace: number) => `
concurrency: 1
heartbeatSeconds: 1
shutdownGraceSeconds: ${grace}
host: mma-it-2.fleet.example
executors:
  SmokeTest: { kind: script, command: 'echo $$ > ${dir}/pid-$FLEET_OPERATION_ID; while [ ! -f ${dir}/gate-$FLEET_OPERATION_ID ]; do sleep 0.05; done; echo finished' }
  Populate: { kind: script, command: 'echo $$ > ${dir}/pid-$FLEET_OPERATION_ID; echo populating; sleep 30' }
`;
    await writeFile(join(dir, 'long-grace.yaml'), config(20));
    await writeFile(join(dir, 'short-grace.yaml'), config(1));
    const stateFile = join(dir, 'state-2.json');
    const made = await inject('POST', `/api/v1/mma/classes/${classId}/registration-tokens`);
    const machine = () => f.machine({ classId });

    const first = startMma(['--token', made.token as string, '--config', join(dir, 'long-grace.yaml'), '--state', stateFile]);
    const [m1, m2] = [await machine(), await machine()];
    const running = await f.enqueue(m1, 'SmokeTest');
    await pidIn(join(dir, `pid-${running}`));
    first.stop.abort();
    await until('the stop was heard', () => first.log.lines.some((l) => l.includes('Stopping: waiting for the running operations')));
    const later = await f.enqueue(m2, 'SmokeTest');
    await writeFile(join(dir, `gate-${running}`), '');
    expect(await first.exit).toBe(0);
    const done = await f.row(running);
    expect(done.status).toBe('SUCCESS');
    expect(linesOf(done.output)).toContain('finished');
    expect((await f.row(later)).status, 'not claimed after the stop').toBeNull();
    await inject('PATCH', `/api/v1/machines/${m2.id}/operations/${later}`, { params: 'CANCEL' });

    // No --token: the state file's credential.
    const second = startMma(['--config', join(dir, 'short-grace.yaml'), '--state', stateFile]);
    const stuck = await f.enqueue(await machine(), 'Populate', { params: { populateLauncher: true } });
    const pgid = await pidIn(join(dir, `pid-${stuck}`));
    await until('the output reached the server', async () => (await f.row(stuck)).output.includes('populating'));
    second.stop.abort();
    expect(await second.exit).toBe(0);
    expect(second.log.lines.some((l) => l.includes('Using the credential in the state file'))).toBe(true);
    expect(groupAlive(pgid), `process group ${pgid} is gone`).toBe(false);
    const row = await f.row(stuck);
    expect(row.status, 'left to the lost-MMA rule, not finished').toBe('RUNNING');
    expect(row.output).toContain('The MMA stopped (shutdown) before the operation ended');
  }, 60_000);

  it('exits 0 on SIGTERM when started as a program', async () => {
    const program = new URL('./cli.ts', import.meta.url).pathname;
    const child = spawn(process.execPath, ['--import', 'tsx', program, '--server', server, '--config', join(dir, 'short-grace.yaml'), '--state', join(dir, 'state-2.json')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until('the program connected', () => stderr.includes('info  Connected'), 20_000);
      child.kill('SIGTERM');
      expect(await exited, stderr).toBe(0);
      expect(stderr).toContain('SIGTERM: no more claims');
      expect(stderr).toContain('info  Stopped');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
