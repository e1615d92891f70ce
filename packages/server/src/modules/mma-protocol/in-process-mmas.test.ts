/**
 * The worker's MMAs in process (`in-process-mmas.ts`, SIM_MMA=protocol; issue
 * 27 point 3) on a real PostgreSQL, beside an operation engine whose scope is
 * empty (as `engine/parts.ts` wires them): operations of a class that is not
 * remote run on the reference MMA's simulated executor through the protocol's
 * service (worker `mma-agent:0@<host>`, the steps' output and deployer log,
 * OperationStarted and OperationFinished; an UpdateSoftware deployed
 * component by component and its versions recorded); a machine of SIM_AGENT_FAIL_MACHINES
 * fails and counts; an operator's cancel reaches a running one through the
 * heartbeat; a remote class's operations are left to its registered MMAs; a
 * class added later gets its MMA; stop() ends the loops.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { CLASS_CUSTOMER_STAGING, CLASS_EXPERIMENTAL } from '@fleet/contracts';
import { operations } from '../../db/schema.js';
import { createLocalObjectStore } from '../../storage/local-store.js';
import { startAgentFixture, type AgentFixture } from '../../../test/operation-fixtures.js';
import { createMmaProtocolService } from './mma-protocol.service.js';
import { startInProcessMmas, type InProcessMmas } from './in-process-mmas.js';

let f: AgentFixture;
let mmas: InProcessMmas;
let storeRoot: string;
const HOST = 'worker-1.fleet.example';

beforeAll(async () => {
  f = await startAgentFixture({ passMs: 200, anomalyFailures: 1_000 }, { scope: sql`false` });
  storeRoot = await mkdtemp(join(tmpdir(), 'in-process-mmas-'));
  const service = createMmaProtocolService({
    db: f.database.db,
    events: f.events,
    store: createLocalObjectStore({ root: storeRoot }),
    cloud: f.cloud,
    settings: { panicFailures: 3, anomalyFailures: 1_000, anomalyWindowMinutes: 10 },
  });
  // 100 real ms per nominal second: a SmokeTest takes about half a second, an ApplyConfig some 2.6 s.
  mmas = startInProcessMmas({ db: f.database.db, service, log: pino({ level: 'silent' }), concurrency: 4, delayMs: 100, failMachines: ['in-process-failing'], host: HOST, heartbeatSeconds: 1 });
  await f.until('an MMA per class', async () => mmas.classIds().includes(CLASS_EXPERIMENTAL));
}, 60_000);
afterAll(async () => {
  await mmas?.stop();
  await f?.close();
  if (storeRoot) await rm(storeRoot, { recursive: true, force: true });
});

describe('the MMAs in process', () => {
  it("run a class's operations through the protocol: the MMA's worker, the simulated steps' logs, the events", async () => {
    const m = await f.machine();
    const id = await f.enqueue(m, 'SmokeTest');
    const row = await f.settled(id);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 1, worker: `mma-agent:0@${HOST}` });
    expect(row.output).toMatch(/Started on mma-agent:0@worker-1\.fleet\.example\n.*Connecting to the deployer on .*\n.*Health check\n.*Operation succeeded/);
    expect(row.deployerLog).not.toBe('');
    expect(f.seen.filter((e) => e.operation.id === id).map((e) => e.name)).toEqual(['OperationQueued', 'OperationStarted', 'OperationFinished']);
  });

  it('deploy an UpdateSoftware component by component over what the machine runs, and record the versions at its SUCCESS', async () => {
    const m = await f.machine();
    const { rows } = await f.database.db.execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' order by c.id desc limit 1`);
    const versions = { launcher: rows[0]!.v };
    await f.database.db.execute(sql`update machines set current_versions = '{"launcher": "master|0000001"}'::jsonb where id = ${m.id}`);
    const row = await f.settled(await f.enqueue(m, 'UpdateSoftware', { params: { versions } }));
    expect(row.status).toBe('SUCCESS');
    expect(row.output).toContain(`Deploying to ${(await f.machineRow(m.id)).name}: 1 component(s) to change, 0 unchanged`);
    expect(row.output).toContain('Launcher updated: master / 0000001 →');
    expect((await f.machineRow(m.id)).currentVersions).toEqual(versions);
  });

  it('fail the operations of a machine SIM_AGENT_FAIL_MACHINES names, counted toward Panic', async () => {
    const m = await f.machine({ name: 'in-process-failing' });
    const row = await f.settled(await f.enqueue(m, 'SmokeTest'));
    expect(row).toMatchObject({ status: 'FAILURE' });
    expect(row.output).toContain('Simulated failure');
    expect((await f.machineRow(m.id)).failCounter).toBe(1);
  });

  it("stop a running operation an operator cancelled, heard in the next heartbeat", async () => {
    const m = await f.machine();
    const id = await f.enqueue(m, 'ApplyConfig');
    await f.until('running', async () => (await f.row(id)).status === 'RUNNING');
    await f.database.db.update(operations).set({ decision: 'CANCEL', decidedBy: 'operator1' }).where(eq(operations.id, id));
    const row = await f.settled(id);
    expect(row.status).toBe('FAILURE');
    expect(row.output).toContain('Cancelled by operator1');
    expect(row.output).not.toContain('Health check');
    expect((await f.machineRow(m.id)).failCounter).toBe(0);
  });

  it("leave a remote class's operations to its registered MMAs, and take them again once it is not", async () => {
    await f.database.db.execute(sql`update mma_instances set mode = 'remote', standby = false where class_id = ${CLASS_CUSTOMER_STAGING}`);
    const remote = await f.machine({ classId: CLASS_CUSTOMER_STAGING });
    const waiting = await f.enqueue(remote, 'SmokeTest');
    const queuedAt = Date.now();
    // Each class's MMA looks at its queue once a second while it waits: two looks, and another class's operation done.
    await f.settled(await f.enqueue(await f.machine(), 'SmokeTest'));
    await f.until('two looks of the staging MMA', async () => Date.now() - queuedAt > 2_000);
    expect(await f.row(waiting)).toMatchObject({ status: null, attempts: 0 });
    await f.database.db.execute(sql`update mma_instances set mode = 'simulated' where class_id = ${CLASS_CUSTOMER_STAGING}`);
    expect(await f.settled(waiting)).toMatchObject({ status: 'SUCCESS', worker: `mma-agent:0@${HOST}` });
  });
});
