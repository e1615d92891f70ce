/**
 * API tests of the MMA protocol (issue 27 point 2; DESIGN §17) through the real
 * app, with the worker's operation engine running beside it on the same
 * database (so that it is seen to leave a remote class alone): a registered
 * MMA of Customer Staging (remote) claims its class's operations and only
 * those, with a long poll; appends to the output and deployer log at offsets
 * (a retried append written once, a gap refused), and with the finish; renews its leases; finishes
 * SUCCESS and FAILURE (counted), an UpdateSoftware or TestLatestCode SUCCESS
 * recording its versions (TestLatestCode's fixed at the claim); a lost lease: an idempotent type offered again in the next
 * attempt (the old attempt fenced off), another type ended 'MMA lost'; an operator's
 * cancel of a running operation heard in the heartbeat; and machine reports
 * (the Server Status dialog, the server status issue, installed versions as
 * a version state).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  CLASS_CUSTOMER_STAGING,
  CLASS_EXPERIMENTAL,
  MMA_APPEND_MAX_CHARS,
  type TMmaAgentRegisterResponse,
  type TMmaClaimResponse,
  type TMmaHeartbeatResponse,
} from '@fleet/contracts';
import { selectServerStatusFaults } from '../../engine/issues/server-status-check.js';
import { claimOperations } from '../../engine/operations/agent-claim.repository.js';
import { remoteClass } from '../../engine/operations/start-rules.js';
import { latestCodeTarget } from '../../engine/desired-state/deploy-effects.js';
import type { AgentFixture } from '../../../test/operation-fixtures.js';
import { registerMma, startAppBesideAgent, switchClassToRemote } from '../../../test/mma-agent-fixtures.js';
import { DEFAULT_AGENT } from '../../config.js';
import { createMmaProtocolService } from './mma-protocol.service.js';
import { createLocalObjectStore } from '../../storage/local-store.js';

let f: AgentFixture;
let app: FastifyInstance;
let admin: Record<string, string>;
let mma: TMmaAgentRegisterResponse;

beforeAll(async () => {
  ({ f, app, admin } = await startAppBesideAgent());
  await switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING);
  mma = await register(CLASS_CUSTOMER_STAGING, 'staging-1.fleet.example');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await f?.close();
});

const register = (classId: number, host: string) => registerMma(app, admin, classId, host);
const as = (agent: TMmaAgentRegisterResponse) => ({ authorization: `Bearer ${agent.token}` });
const claim = async (agent = mma, body: Record<string, unknown> = { waitSeconds: 0, maxOperations: 8 }) => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/mma-agent/operations/claim', headers: as(agent), payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TMmaClaimResponse).operations;
};
const append = (id: number, body: Record<string, unknown>, agent = mma) =>
  app.inject({ method: 'POST', url: `/api/v1/mma-agent/operations/${id}/append`, headers: as(agent), payload: body });
const finish = (id: number, body: Record<string, unknown>, agent = mma) =>
  app.inject({ method: 'POST', url: `/api/v1/mma-agent/operations/${id}/finish`, headers: as(agent), payload: body });
const heartbeat = async (leases: { operationId: number; attempt: number }[]) => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/mma-agent/heartbeat', headers: as(mma), payload: { leases } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TMmaHeartbeatResponse;
};
const staging = () => f.machine({ classId: CLASS_CUSTOMER_STAGING });

describe('claim', () => {
  it("answers its class's startable operations with their lease, and neither another class's nor a second one per machine", async () => {
    const [m1, m2] = [await staging(), await staging()];
    const other = await f.machine({ classId: CLASS_EXPERIMENTAL });
    const a = await f.enqueue(m1, 'SmokeTest');
    const b = await f.enqueue(m1, 'ApplyConfig');
    const c = await f.enqueue(m2, 'Populate', { params: { populateLauncher: true } });
    const elsewhere = await f.enqueue(other, 'SmokeTest');
    const claimed = await claim();
    expect(claimed.map((o) => o.operationId).sort()).toEqual([a, c].sort());
    const first = claimed.find((o) => o.operationId === a)!;
    expect(first).toMatchObject({ attempt: 1, typeName: 'SmokeTest', resumed: false, machine: { id: m1.id, accountId: m1.accountId } });
    expect(first.machine.hostName).toMatch(/\.compute/);
    expect(first.remainingMs).toBeGreaterThan(0);
    const row = await f.row(a);
    expect(row).toMatchObject({ status: 'RUNNING', attempts: 1, worker: `mma-agent:${mma.id}@staging-1.fleet.example` });
    expect(first.outputOffset).toBe([...row.output].length);
    expect((await f.row(b)).status, 'the second operation of the machine waits for the first').toBeNull();
    // The worker ran the other class's operation; this MMA never saw it.
    expect((await f.settled(elsewhere)).status).toBe('SUCCESS');
    for (const o of claimed) expect((await finish(o.operationId, { attempt: 1, status: 'SUCCESS' })).statusCode).toBe(200);
    const next = await claim();
    expect(next.map((o) => o.operationId)).toEqual([b]);
    expect((await finish(b, { attempt: 1, status: 'SUCCESS' })).statusCode).toBe(200);
  });

  it('takes the machines a look kept for the next claims, and looks again when a kept one is held meanwhile', async () => {
    const held = [await staging(), await staging(), await staging()];
    const ids: number[] = [];
    for (const m of held) ids.push(await f.enqueue(m, 'SmokeTest'));
    const one = { waitSeconds: 0, maxOperations: 1 };
    // The look finds the three machines, the claim takes the oldest; the other two are kept for the next claims.
    expect((await claim(mma, one)).map((o) => o.operationId)).toEqual([ids[0]]);
    // The second goes into maintenance after the look: the claim checks the rules again, refuses it, looks again.
    await f.database.db.execute(sql`update machines set manual_maintenance = true where id = ${held[1]!.id}`);
    expect((await claim(mma, one)).map((o) => o.operationId)).toEqual([ids[2]]);
    expect((await f.row(ids[1]!)).status).toBeNull();
    await f.database.db.execute(sql`update machines set manual_maintenance = false where id = ${held[1]!.id}`);
    expect((await claim(mma, one)).map((o) => o.operationId)).toEqual([ids[1]]);
    for (const id of ids) expect((await finish(id, { attempt: 1, status: 'SUCCESS' })).statusCode).toBe(200);
  });

  it('waits for an operation queued while it polls (a long poll), and answers nothing after waitSeconds', async () => {
    const started = Date.now();
    expect(await claim(mma, { waitSeconds: 1 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const machine = await staging();
    const polling = claim(mma, { waitSeconds: 20 });
    const id = await f.enqueue(machine, 'SmokeTest');
    const got = await polling;
    expect(got.map((o) => o.operationId)).toEqual([id]);
    expect(Date.now() - started).toBeLessThan(15_000);
    await finish(id, { attempt: 1, status: 'SUCCESS' });
  }, 30_000);

  it('holds a long poll no longer than MMA_CLAIM_WAIT_MAX_S, whatever waitSeconds asks', async () => {
    const capped = createMmaProtocolService({
      db: f.database.db,
      events: f.events,
      // A claim that finds nothing writes no file.
      store: createLocalObjectStore({ root: join(tmpdir(), `fleet-claim-cap-${process.pid}`) }),
      cloud: f.cloud,
      settings: { ...DEFAULT_AGENT, mmaClaimWaitMaxSeconds: 1 },
    });
    const principal = { id: mma.id, classId: CLASS_CUSTOMER_STAGING, host: 'staging-1.fleet.example', version: '1.0.0' };
    const started = Date.now();
    expect(await capped.claim(principal, { maxOperations: 1, waitSeconds: 30 })).toEqual({ operations: [] });
    const held = Date.now() - started;
    expect(held).toBeGreaterThanOrEqual(900);
    expect(held).toBeLessThan(10_000);
  }, 30_000);
});

describe('append, heartbeat and finish', () => {
  it('writes each line once at its offset, refuses a gap, and shows the lines in the console', async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'SmokeTest');
    const [o] = await claim();
    const line = 'smoke: PASS launcher sign-in ✓\n';
    const first = await append(id, { attempt: 1, stream: 'output', offset: o!.outputOffset, text: line });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().offset).toBe(o!.outputOffset + [...line].length);
    // The same append again (a retry after a lost answer): written once.
    expect((await append(id, { attempt: 1, stream: 'output', offset: o!.outputOffset, text: line })).json().offset).toBe(first.json().offset);
    // A retry that carries lines sent since (its first line is there, its second not): only the second is written.
    const second = 'smoke: PASS site ✓ ✓\n';
    const overlapping = await append(id, { attempt: 1, stream: 'output', offset: o!.outputOffset, text: line + second });
    expect(overlapping.json().offset).toBe(first.json().offset + [...second].length);
    // The same append twice at once (a retry racing its first try): the row's lock serializes them, written once.
    const third = 'smoke: PASS reports\n';
    const racing = await Promise.all([1, 2].map(() => append(id, { attempt: 1, stream: 'output', offset: overlapping.json().offset, text: third })));
    expect(racing.map((r) => r.json().offset)).toEqual([1, 2].map(() => overlapping.json().offset + third.length));
    const gap = await append(id, { attempt: 1, stream: 'output', offset: racing[0]!.json().offset + 10, text: 'later\n' });
    expect(gap.statusCode).toBe(409);
    expect(gap.json().detail).toMatch(/past the end of the output/);
    expect((await append(id, { attempt: 1, stream: 'deployerLog', offset: 0, text: 'deploy: step 1\n' })).statusCode).toBe(200);
    const row = await f.row(id);
    expect(row.output.split(line).length - 1).toBe(1);
    expect(row.output.split(second).length - 1).toBe(1);
    expect(row.output.split(third).length - 1).toBe(1);
    expect(row.deployerLog).toBe('deploy: step 1\n');
    const read = await app.inject({ method: 'GET', url: `/api/v1/operations/${id}/output`, headers: admin });
    expect(read.json().content).toContain('smoke: PASS launcher sign-in ✓');

    expect(await heartbeat([{ operationId: id, attempt: 1 }])).toEqual({ renewed: [id], lost: [], cancel: [] });
    expect((await heartbeat([{ operationId: id, attempt: 2 }])).lost).toEqual([id]);

    const done = await finish(id, { attempt: 1, status: 'SUCCESS' });
    expect(done.json()).toEqual({ operationId: id, status: 'SUCCESS' });
    expect((await f.row(id)).output.trimEnd().endsWith('Operation succeeded')).toBe(true);
    expect((await finish(id, { attempt: 1, status: 'SUCCESS' })).statusCode).toBe(409);
    expect((await append(id, { attempt: 1, stream: 'output', offset: 0, text: 'x\n' })).statusCode).toBe(409);
    expect((await heartbeat([{ operationId: id, attempt: 1 }])).lost).toEqual([id]);
  });

  it("writes the logs' last lines the finish carries at their offsets (what is there once), and refuses a gap without ending it", async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'SmokeTest');
    const [o] = await claim();
    const sent = 'smoke: sent by an append\n';
    const { offset } = (await append(id, { attempt: 1, stream: 'output', offset: o!.outputOffset, text: sent })).json();
    // A gap in the deployer log: refused, the operation still runs.
    const gap = await finish(id, { attempt: 1, status: 'SUCCESS', deployerLog: { offset: 5, text: 'deploy: x\n' } });
    expect(gap.statusCode).toBe(409);
    expect(gap.json().detail).toMatch(/offset is past its end/);
    expect((await f.row(id)).status).toBe('RUNNING');
    // The output's piece starts with the line already appended (an append whose answer was lost): written once.
    const last = 'smoke: PASS ✓ 🚀\n';
    const done = await finish(id, {
      attempt: 1,
      status: 'SUCCESS',
      output: { offset: o!.outputOffset, text: sent + last },
      deployerLog: { offset: 0, text: 'deploy: nothing to do\n' },
    });
    expect(done.statusCode, done.body).toBe(200);
    const row = await f.row(id);
    expect(row.status).toBe('SUCCESS');
    expect([...row.output].slice(o!.outputOffset).join('')).toMatch(new RegExp(`^${sent}${last}\\S+ Operation succeeded\\n$`));
    expect(row.deployerLog).toBe('deploy: nothing to do\n');
    expect(offset).toBe(o!.outputOffset + sent.length);
    // Too long a piece is a field error.
    const machine2 = await staging();
    const id2 = await f.enqueue(machine2, 'SmokeTest');
    await claim();
    const long = await finish(id2, { attempt: 1, status: 'SUCCESS', output: { offset: 0, text: 'x'.repeat(MMA_APPEND_MAX_CHARS + 1) } });
    expect(long.statusCode).toBe(400);
    expect(JSON.stringify(long.json())).toMatch(/output/);
    expect((await finish(id2, { attempt: 1, status: 'SUCCESS' })).statusCode).toBe(200);
  });

  it("ends a FAILURE counted toward Panic, and hides the class's operations from another class's MMA (404)", async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'ApplyConfig');
    await claim();
    const stranger = await register(CLASS_EXPERIMENTAL, 'experimental-1.fleet.example');
    expect((await finish(id, { attempt: 1, status: 'FAILURE', message: 'x' }, stranger)).statusCode).toBe(404);
    expect((await append(id, { attempt: 1, stream: 'output', offset: 0, text: 'x\n' }, stranger)).statusCode).toBe(404);
    expect(await claim(stranger)).toEqual([]);
    const res = await finish(id, { attempt: 1, status: 'FAILURE', message: 'nginx -t: configuration test failed' });
    expect(res.json()).toEqual({ operationId: id, status: 'FAILURE' });
    const row = await f.row(id);
    expect(row.output.trimEnd().endsWith('nginx -t: configuration test failed')).toBe(true);
    expect((await f.machineRow(machine.id)).failCounter).toBe(1);
  });

  it("answers an operator's CANCEL of a running operation in the next heartbeat; its FAILURE is the cancel, not counted", async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'Populate', { params: { populateLauncher: true } });
    await claim();
    const cancel = await app.inject({ method: 'PATCH', url: `/api/v1/machines/${machine.id}/operations/${id}`, headers: admin, payload: { params: 'CANCEL' } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ status: 'RUNNING', decision: 'CANCEL' });
    expect(await heartbeat([{ operationId: id, attempt: 1 }])).toEqual({ renewed: [id], lost: [], cancel: [{ operationId: id, by: 'admin' }] });
    const res = await finish(id, { attempt: 1, status: 'FAILURE', message: 'Killed (SIGTERM)' });
    expect(res.json()).toEqual({ operationId: id, status: 'FAILURE' });
    const row = await f.row(id);
    expect(row.output.trimEnd().endsWith('Cancelled by admin')).toBe(true);
    expect((await f.machineRow(machine.id)).failCounter).toBe(0);
  });

  it('records the versions of an UpdateSoftware SUCCESS as installed (the version state, the current versions)', async () => {
    const machine = await staging();
    const { rows } = await f.database.db.execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' order by c.id desc limit 1`);
    const versions = { launcher: rows[0]!.v };
    await f.database.db.execute(sql`update machines set current_versions = '{"siteMaster": "master|0000001"}'::jsonb where id = ${machine.id}`);
    const id = await f.enqueue(machine, 'UpdateSoftware', { params: { versions, bundleVersion: '9.9.9.1' } });
    const [o] = await claim();
    expect(o!.params.versions).toEqual(versions);
    // What the server knows the machine runs: a deployer changes only what differs.
    expect(o!.machine.installedVersions).toEqual({ siteMaster: 'master|0000001' });
    expect((await finish(id, { attempt: 1, status: 'SUCCESS' })).json().status).toBe('SUCCESS');
    const m = await f.machineRow(machine.id);
    expect(m.currentVersions).toEqual(versions);
    expect(m.bundleVersion).toBe('9.9.9.1');
    const states = await f.database.db.execute<{ current: boolean }>(sql`select current from version_states where operation_id = ${id}`);
    expect(states.rows).toEqual([{ current: true }]);
  });

  it("fixes a TestLatestCode's target at the claim (its branch's newest commits) and records it as installed at its SUCCESS", async () => {
    const machine = await staging();
    await f.database.db.execute(sql`update machines set current_versions = '{}'::jsonb, desired_versions = ${JSON.stringify({ launcher: 'x|0' })}::jsonb where id = ${machine.id}`);
    // What the simulated effect would deploy (resolve.test.ts proves the newest commit of a branch).
    const launcherHead = (await latestCodeTarget(f.database.db, machine.id, 'master')).versions.launcher;
    expect(launcherHead).toMatch(/^master\|[0-9a-f]{7}$/);
    const id = await f.enqueue(machine, 'TestLatestCode', { params: { branch: 'master' } });
    const [o] = await claim();
    expect(o).toMatchObject({ operationId: id, typeName: 'TestLatestCode', params: { branch: 'master', versions: { launcher: launcherHead } } });
    // Checkpointed: a later attempt deploys the same commits even if the branch moves on.
    expect((await f.row(id)).params).toMatchObject({ versions: { launcher: launcherHead } });
    expect((await finish(id, { attempt: 1, status: 'SUCCESS' })).json().status).toBe('SUCCESS');
    expect((await f.machineRow(machine.id)).currentVersions).toEqual({ launcher: launcherHead });
    const states = await f.database.db.execute<{ current: boolean }>(sql`select current from version_states where operation_id = ${id}`);
    expect(states.rows).toEqual([{ current: true }]);
  });
});

describe('a lost MMA (its lease not renewed for MMA_LEASE_S)', () => {
  const expire = (id: number) => f.database.db.execute(sql`update operations set heartbeat_at = now() - interval '61 seconds' where id = ${id}`);

  it('offers an idempotent operation again in the next attempt, and fences the lost attempt off', async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'SmokeTest');
    await claim();
    await expire(id);
    const [again] = await claim();
    expect(again).toMatchObject({ operationId: id, attempt: 2, resumed: true });
    expect((await append(id, { attempt: 1, stream: 'output', offset: 0, text: 'stale\n' })).statusCode).toBe(409);
    expect((await finish(id, { attempt: 1, status: 'SUCCESS' })).statusCode).toBe(409);
    expect((await finish(id, { attempt: 2, status: 'SUCCESS' })).json().status).toBe('SUCCESS');
    expect((await f.row(id)).output).toContain('after the MMA running it was lost (attempt 2)');
  });

  it('renews the leases a claim carries before it claims: an MMA back from an outage keeps its operations', async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'SmokeTest');
    await claim();
    await expire(id);
    expect(await claim(mma, { waitSeconds: 0, maxOperations: 8, leases: [{ operationId: id, attempt: 1 }] })).toEqual([]);
    expect((await f.row(id)).attempts).toBe(1);
    expect((await finish(id, { attempt: 1, status: 'SUCCESS' })).json().status).toBe('SUCCESS');
  });

  it("counts a lease from the server process's start at the earliest (graceFrom): a restart does not cost an MMA its operations", async () => {
    const machine = await staging();
    // Idempotent: the fixture's worker leaves it to the class's MMAs however stale its lease (a Populate it would end).
    const id = await f.enqueue(machine, 'SmokeTest');
    await claim();
    await expire(id);
    const scope = sql`(m.class_id = ${CLASS_CUSTOMER_STAGING} and ${remoteClass})`;
    const options = { machineIds: [machine.id], worker: 'test', staleMs: 30_000, maxAttempts: 3, panicFailures: 3, scope };
    const justStarted = await claimOperations(f.database.db, { ...options, remoteLease: { leaseMs: 60_000, graceFrom: new Date() } });
    expect(justStarted).toMatchObject({ claimed: [], ended: [], busy: [machine.id] });
    expect((await f.row(id)).status).toBe('RUNNING');
    const { claimed } = await claimOperations(f.database.db, { ...options, remoteLease: { leaseMs: 60_000, graceFrom: new Date(0) } });
    expect(claimed.map((c) => [c.operation.id, c.operation.attempts])).toEqual([[id, 2]]);
  });

  it("ends any other type FAILURE 'MMA lost', even when no MMA of the class claims again (the worker's pass does it)", async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'Populate', { params: { populateLauncher: true } });
    await claim();
    await expire(id);
    const ended = await f.settled(id, 10_000);
    expect(ended.status).toBe('FAILURE');
    expect(ended.output).toContain('MMA lost');
    expect((await f.machineRow(machine.id)).failCounter).toBeGreaterThanOrEqual(1);
  });
});

describe('reports (POST /mma-agent/machines/{id}/report)', () => {
  const report = (machineId: number, body: Record<string, unknown>, agent = mma) =>
    app.inject({ method: 'POST', url: `/api/v1/mma-agent/machines/${machineId}/report`, headers: as(agent), payload: body });
  const degraded = { status: 'Degraded', operational: true, diskSpaceOk: true, interServerCommOk: true, libraryImportOk: true, mongoOk: false, rabbitMqOk: true };

  it("shows the reported site server status in Server Status, raises the issue of its false flag, and says 'Not reported' before", async () => {
    const machine = await staging();
    const status = () => app.inject({ method: 'GET', url: `/api/v1/machines/${machine.id}/site-server-status`, headers: admin });
    expect((await status()).json()).toMatchObject({ status: 'Not reported', operational: false });
    expect((await selectServerStatusFaults(f.database.db)).map((x) => x.machineId)).not.toContain(machine.id);

    const res = await report(machine.id, { siteServerStatus: degraded });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ machineId: machine.id, versionStateWritten: false });
    expect((await status()).json()).toEqual(degraded);
    const fault = (await selectServerStatusFaults(f.database.db)).find((x) => x.machineId === machine.id);
    expect(fault?.falseFlags).toEqual(['mongoOk']);

    // Healthy again: no fault; a report of versions only keeps the status.
    await report(machine.id, { siteServerStatus: { ...degraded, status: 'Running', mongoOk: true } });
    expect((await selectServerStatusFaults(f.database.db)).map((x) => x.machineId)).not.toContain(machine.id);
  });

  it('records installed versions that differ as a new current version state (once), refuses unknown commits (422) and bad bodies (400)', async () => {
    const machine = await staging();
    const { rows } = await f.database.db.execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' order by c.id desc limit 2`);
    const installed = { launcher: rows[1]!.v };
    const first = await report(machine.id, { installedVersions: installed });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().versionStateWritten).toBe(true);
    expect((await f.machineRow(machine.id)).currentVersions).toEqual(installed);
    expect((await report(machine.id, { installedVersions: installed })).json().versionStateWritten).toBe(false);
    const states = await f.database.db.execute<{ current: boolean; operationId: number | null }>(
      sql`select current, operation_id as "operationId" from version_states where machine_id = ${machine.id} order by id`,
    );
    expect(states.rows).toEqual([{ current: true, operationId: null }]);

    const unknown = await report(machine.id, { installedVersions: { launcher: 'master|0000000' } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toContain('launcher (master|0000000)');
    expect((await f.machineRow(machine.id)).currentVersions).toEqual(installed);

    const empty = await report(machine.id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].propertyName).toBe('siteServerStatus');
    expect((await report(machine.id, { siteServerStatus: { ...degraded, mongoOk: 'no' } })).statusCode).toBe(400);
  });

  it("answers 404 for a machine of another class, and another class's MMA cannot report this class's machine", async () => {
    const other = await f.machine({ classId: CLASS_EXPERIMENTAL });
    expect((await report(other.id, { siteServerStatus: degraded })).statusCode).toBe(404);
    expect((await report(2_000_000_000, { siteServerStatus: degraded })).statusCode).toBe(404);
    const stranger = await register(CLASS_EXPERIMENTAL, 'experimental-2.fleet.example');
    expect((await report((await staging()).id, { siteServerStatus: degraded }, stranger)).statusCode).toBe(404);
  });
});
