/**
 * The rules of the operation agent (DESIGN §12, OPS-SEMANTICS; invariants in
 * `README.md` beside this file) against a real PostgreSQL, with the simulated
 * cloud and agent at zero delays: when an operation starts (each condition on
 * its own), approval then PROCEED, CANCEL, one RUNNING per machine, logs that
 * grow while it runs, timeouts, failCounter and Panic, SUCCESS resetting it,
 * notBefore, resumed and abandoned leases, and fenced writes after a reset.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { machines, machineTasks, mmaInstances, operations } from '../../db/schema.js';
import { linesOf, sleep, startAgentFixture, type AgentFixture } from '../../../test/operation-fixtures.js';
import { createOperationQueue, type OperationMachine } from './queue.js';

let f: AgentFixture;

beforeAll(async () => {
  // The anomaly rule has its own test (agent-effects.test.ts): here class 1's failures must not switch its standby on.
  f = await startAgentFixture({ anomalyFailures: 1_000 });
});
afterEach(() => f.agent.clearFaults());
afterAll(async () => {
  await f.close();
});

/** Long enough for several passes (every 200 ms) and a notification to have been acted on. */
const QUIET_MS = 700;

/** Waits for operation `id`'s OperationFinished event: events are announced after the row is written, so a settled row may come first. */
const announcedFinished = (id: number) =>
  f.until(`the OperationFinished event of operation ${id}`, async () => f.seen.some((e) => e.operation.id === id && e.name === 'OperationFinished'));

describe('running an operation', () => {
  it('runs a queued operation RUNNING then SUCCESS, with timestamped output and deployer log, events, failCounter reset', async () => {
    const machine = await f.machine({ failCounter: 2 });
    const id = await f.enqueue(machine, 'ApplyConfig');
    const done = await f.settled(id);
    expect(done).toMatchObject({ status: 'SUCCESS', attempts: 1, failCounter: 0, pending: false });
    expect(done.startedAt!.getTime()).toBeLessThanOrEqual(done.finishedAt!.getTime());
    const out = linesOf(done.output);
    expect(out[0]).toMatch(/^Started on /);
    expect(out).toContain('Writing the component configuration');
    expect(out).toContain('Health check');
    expect(out.at(-1)).toBe('Operation succeeded');
    expect(linesOf(done.deployerLog).some((l) => l.startsWith('systemctl start'))).toBe(true);
    expect((await f.machineRow(machine.id)).failCounter).toBe(0);

    await announcedFinished(id);
    const names = f.seen.filter((e) => e.operation.id === id).map((e) => e.name);
    expect(names).toEqual(['OperationQueued', 'OperationStarted', 'OperationFinished']);
    const started = f.seen.find((e) => e.operation.id === id && e.name === 'OperationStarted')!;
    expect(started.operation).toMatchObject({ status: 'RUNNING', typeName: 'ApplyConfig' });
    expect(started.classIds).toEqual([machine.classId, machine.accountClassId]);
    const finished = f.seen.find((e) => e.operation.id === id && e.name === 'OperationFinished')!;
    expect(finished.operation).toMatchObject({ status: 'SUCCESS', failCounter: 0 });
    expect(finished.operation.finishTime).not.toBeNull();
  });

  it('runs one operation per machine at a time, oldest first; the output and deployer log grow while it runs', async () => {
    const machine = await f.machine();
    const first = await f.enqueue(machine, 'RestoreBackup');
    const second = await f.enqueue(machine, 'SmokeTest');
    await f.until('the gate reached', async () => (await f.row(first)).output.includes('Gate reached'));
    const running = await f.row(first);
    expect(running.status).toBe('RUNNING');
    expect(linesOf(running.deployerLog)).toContain('gate: waiting');
    expect(running.output).not.toContain('Gate passed');
    await sleep(QUIET_MS);
    expect((await f.row(second)).status).toBeNull();

    f.open(first);
    const [a, b] = [await f.settled(first), await f.settled(second)];
    expect(a.status).toBe('SUCCESS');
    expect(linesOf(a.output)).toEqual(expect.arrayContaining(['Gate reached', 'Gate passed']));
    expect(linesOf(a.deployerLog)).toEqual(['gate: waiting', 'gate: passed']);
    expect(b.status).toBe('SUCCESS');
    expect(b.startedAt!.getTime()).toBeGreaterThanOrEqual(a.finishedAt!.getTime());
    expect(linesOf(b.output)).toContain('8 passed, 0 failed');
  });

  it('runs many machines\' operations claimed and finished in batches: each machine oldest first, one at a time, each event once', async () => {
    const many: OperationMachine[] = [];
    for (let i = 0; i < 30; i++) many.push(await f.machine());
    const queue = createOperationQueue({ announce: () => undefined });
    const ids = await f.database.db.transaction(async (tx) => {
      const queued = await queue.enqueue(tx, [
        ...many.map((machine) => ({ machine, typeName: 'SmokeTest' as const, user: 'admin', activityId: null })),
        ...many.map((machine) => ({ machine, typeName: 'ApplyConfig' as const, user: 'admin', activityId: null })),
      ]);
      return queued.map((q) => q.operation.id);
    });
    const done: (typeof operations.$inferSelect)[] = [];
    for (const id of ids) done.push(await f.settled(id));
    expect(done.every((d) => d.status === 'SUCCESS' && d.attempts === 1)).toBe(true);
    for (let i = 0; i < many.length; i++) {
      const [first, second] = [done[i]!, done[i + many.length]!];
      expect(second.startedAt!.getTime()).toBeGreaterThanOrEqual(first.finishedAt!.getTime());
    }
    // Claimed in batches: operations started by one statement share its timestamp.
    expect(new Set(done.map((d) => d.startedAt!.getTime())).size).toBeLessThan(ids.length / 2);
    for (const id of ids) {
      await announcedFinished(id);
      expect(f.seen.filter((e) => e.operation.id === id && e.name !== 'OperationQueued').map((e) => e.name)).toEqual(['OperationStarted', 'OperationFinished']);
    }
  });

  it('a second RUNNING operation on a machine is impossible (partial unique index)', async () => {
    const machine = await f.machine();
    const id = await f.enqueue(machine, 'RestoreBackup');
    await f.until('running', async () => (await f.row(id)).status === 'RUNNING');
    const other = await f.enqueue(machine, 'SmokeTest', { notBefore: new Date(Date.now() + 3_600_000) });
    await expect(f.database.db.update(operations).set({ status: 'RUNNING' }).where(eq(operations.id, other))).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'operations_one_running_idx' },
    });
    f.open(id);
    await f.settled(id);
  });
});

describe('when an operation starts (each condition on its own)', () => {
  /** Queues a SmokeTest on a machine made with `values`/`instance`, expects it to wait, unblocks it, expects SUCCESS. */
  async function waitsUntil(
    block: { values?: Partial<typeof machines.$inferInsert>; instance?: 'running' | 'stopped' | 'none'; before?: (m: { id: number; cloudId?: string }) => Promise<void> },
    unblock: (m: { id: number; cloudId?: string }) => Promise<void>,
  ) {
    const machine = await f.machine(block.values, block.instance);
    await block.before?.(machine);
    const id = await f.enqueue(machine, 'SmokeTest');
    await sleep(QUIET_MS);
    expect((await f.row(id)).status, 'still queued').toBeNull();
    await unblock(machine);
    expect((await f.settled(id)).status).toBe('SUCCESS');
  }
  const setMachine = (values: Partial<typeof machines.$inferInsert>) => async (m: { id: number }) => {
    await f.database.db.update(machines).set(values).where(eq(machines.id, m.id));
  };

  it('not while unmanaged', () => waitsUntil({ values: { managed: false } }, setMachine({ managed: true })));
  it('not in manual maintenance', () => waitsUntil({ values: { manualMaintenance: true } }, setMachine({ manualMaintenance: false })));
  it('not in Panic (needsAdmin)', () => waitsUntil({ values: { needsAdmin: true } }, setMachine({ needsAdmin: false })));
  it('not while being terminated', () => waitsUntil({ values: { terminate: true } }, setMachine({ terminate: false })));
  it('not once deleted', () => waitsUntil({ values: { deletedAt: new Date() } }, setMachine({ deletedAt: null })));
  it('not while its instance is stopped', () =>
    waitsUntil({ instance: 'stopped' }, async (m) => {
      await f.cloud.start(m.cloudId!);
    }));
  it('not without an instance', () =>
    waitsUntil({ instance: 'none' }, async (m) => {
      const { cloudId } = await f.cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `late-${m.id}` });
      await f.cloud.describe(cloudId);
    }));
  it('not while a task of the machine is Running', () =>
    waitsUntil(
      {
        before: async (m) => {
          const [machine] = await f.database.db.select().from(machines).where(eq(machines.id, m.id));
          await f.database.db.insert(machineTasks).values({ machineId: m.id, accountId: machine!.accountId, type: 'StopMachine', status: 'Running', description: 'x', attempts: 1, heartbeatAt: new Date() });
        },
      },
      async (m) => {
        await f.database.db.update(machineTasks).set({ status: 'Completed', completedAt: new Date() }).where(eq(machineTasks.machineId, m.id));
      },
    ));
  it('not while its class is on standby', async () => {
    await f.database.db.update(mmaInstances).set({ standby: false }).where(eq(mmaInstances.classId, 4));
    await waitsUntil(
      { values: { classId: 4 }, before: async () => void (await f.database.db.update(mmaInstances).set({ standby: true }).where(eq(mmaInstances.classId, 4))) },
      async () => void (await f.database.db.update(mmaInstances).set({ standby: false }).where(eq(mmaInstances.classId, 4))),
    );
  });

  it('not before notBefore', async () => {
    const machine = await f.machine();
    const notBefore = new Date(Date.now() + 1_500);
    const id = await f.enqueue(machine, 'SmokeTest', { notBefore });
    await sleep(QUIET_MS);
    expect((await f.row(id)).status).toBeNull();
    const done = await f.settled(id);
    expect(done.status).toBe('SUCCESS');
    expect(done.startedAt!.getTime()).toBeGreaterThanOrEqual(notBefore.getTime() - 5);
  });

  it('a pending operation waits for approval, and runs after PROCEED; later operations do not wait behind it', async () => {
    const machine = await f.machine({ classId: 5 });
    const id = await f.enqueue(machine, 'UpdateSoftware');
    const other = await f.enqueue(machine, 'SmokeTest');
    expect((await f.settled(other)).status).toBe('SUCCESS');
    expect(await f.row(id)).toMatchObject({ pending: true, status: null });
    await f.database.db.update(operations).set({ pending: false, decision: 'PROCEED', decidedBy: 'alice' }).where(eq(operations.id, id));
    await f.notify(machine.id);
    expect((await f.settled(id)).status).toBe('SUCCESS');
  });
});

describe('cancel, timeout, failures', () => {
  it('CANCEL ends a pending operation FAILURE "Cancelled by …" without starting it or counting it', async () => {
    const machine = await f.machine({ classId: 5, failCounter: 1 });
    const id = await f.enqueue(machine, 'RestoreBackup');
    expect((await f.row(id)).pending).toBe(true);
    await f.database.db.update(operations).set({ pending: false, decision: 'CANCEL', decidedBy: 'alice' }).where(eq(operations.id, id));
    await f.notify(machine.id);
    const done = await f.settled(id);
    expect(done).toMatchObject({ status: 'FAILURE', startedAt: null, worker: null, failCounter: 1, decision: 'CANCEL' });
    expect(linesOf(done.output)).toEqual(['Cancelled by alice']);
    expect((await f.machineRow(machine.id)).failCounter).toBe(1);
    await announcedFinished(id);
    expect(f.seen.filter((e) => e.operation.id === id).map((e) => e.name)).toEqual(['OperationQueued', 'OperationFinished']);
  });

  it('a CANCEL of a queued operation on a machine that cannot start anything is still ended (by the pass)', async () => {
    const machine = await f.machine({ managed: false });
    const id = await f.enqueue(machine, 'SmokeTest');
    await f.database.db.update(operations).set({ decision: 'CANCEL', decidedBy: 'bob' }).where(eq(operations.id, id));
    const done = await f.settled(id);
    expect(linesOf(done.output)).toEqual(['Cancelled by bob']);
  });

  it('a CANCEL of a RUNNING operation stops it at its next heartbeat: FAILURE "Cancelled by …", not counted, the next one starts', async () => {
    const machine = await f.machine({ failCounter: 2 });
    const id = await f.enqueue(machine, 'RestoreBackup');
    const next = await f.enqueue(machine, 'SmokeTest');
    await f.until('the gate reached', async () => (await f.row(id)).output.includes('Gate reached'));
    // What PATCH /machines/{id}/operations/{operationId} CANCEL writes on a running operation (operations.repository decideOperation).
    await f.database.db.update(operations).set({ decision: 'CANCEL', decidedBy: 'carol' }).where(eq(operations.id, id));
    const done = await f.settled(id);
    expect(done).toMatchObject({ status: 'FAILURE', failCounter: 2, decision: 'CANCEL', attempts: 1 });
    expect(linesOf(done.output).at(-1)).toBe('Cancelled by carol');
    expect(done.output).not.toContain('Gate passed');
    expect((await f.settled(next)).status).toBe('SUCCESS');
    expect((await f.machineRow(machine.id)).failCounter).toBe(0);
  });

  it('a RUNNING operation cancelled after its worker died ends cancelled at the next claim, not resumed', async () => {
    const machine = await f.machine();
    const id = await f.enqueue(machine, 'RestoreBackup');
    await f.until('the gate reached', async () => (await f.row(id)).output.includes('Gate reached'));
    await f.engine.stop();
    try {
      const stale = new Date(Date.now() - 60_000);
      await f.database.db.update(operations).set({ status: 'RUNNING', finishedAt: null, heartbeatAt: stale, worker: 'dead:1:abc', decision: 'CANCEL', decisionReason: 'rollout 7 halted' }).where(eq(operations.id, id));
    } finally {
      await f.engine.start();
    }
    const done = await f.settled(id);
    expect(done).toMatchObject({ status: 'FAILURE', attempts: 1, failCounter: 0 });
    expect(linesOf(done.output).at(-1)).toBe('Cancelled: rollout 7 halted');
  });

  it('an operation running past its timeout ends FAILURE and counts', async () => {
    const machine = await f.machine();
    const id = await f.enqueue(machine, 'RestoreBackup', { timeoutSeconds: 1 });
    const done = await f.settled(id);
    expect(done.status).toBe('FAILURE');
    expect(linesOf(done.output).at(-1)).toBe('Timed out: the operation ran longer than its timeout of 1 s');
    expect(done.finishedAt!.getTime() - done.startedAt!.getTime()).toBeGreaterThanOrEqual(990);
    expect(done.failCounter).toBe(1);
    expect((await f.machineRow(machine.id)).failCounter).toBe(1);
  });

  it('three failures in a row put the machine in Panic; nothing starts until reset, then SUCCESS resets the counter', async () => {
    const machine = await f.machine();
    f.agent.failNext({ machineId: machine.id, times: 3, message: 'Deployer exited with code 3' });
    const ids = [await f.enqueue(machine, 'SmokeTest'), await f.enqueue(machine, 'SmokeTest'), await f.enqueue(machine, 'SmokeTest')];
    const after = await f.enqueue(machine, 'ApplyConfig');
    const done = [];
    for (const id of ids) done.push(await f.settled(id));
    expect(done.map((d) => [d.status, d.failCounter])).toEqual([
      ['FAILURE', 1],
      ['FAILURE', 2],
      ['FAILURE', 3],
    ]);
    expect(linesOf(done[0]!.output).at(-1)).toBe('Deployer exited with code 3');
    expect(linesOf(done[0]!.deployerLog)).toContain('ERROR Deployer exited with code 3');
    expect(await f.machineRow(machine.id)).toMatchObject({ needsAdmin: true, failCounter: 3 });
    await sleep(QUIET_MS);
    expect((await f.row(after)).status).toBeNull();

    await f.database.db.update(machines).set({ needsAdmin: false, failCounter: 0 }).where(eq(machines.id, machine.id));
    expect((await f.settled(after)).status).toBe('SUCCESS');
    expect((await f.machineRow(machine.id)).failCounter).toBe(0);
  });

  it('fault injection by type and count: the next two ApplyConfig fail with the message, the third and other types run', async () => {
    const machine = await f.machine();
    f.agent.failNext({ typeName: 'ApplyConfig', times: 2, message: 'Config rejected' });
    const ids = [await f.enqueue(machine, 'SmokeTest'), await f.enqueue(machine, 'ApplyConfig'), await f.enqueue(machine, 'ApplyConfig'), await f.enqueue(machine, 'ApplyConfig')];
    const statuses = [];
    for (const id of ids) statuses.push((await f.settled(id)).status);
    expect(statuses).toEqual(['SUCCESS', 'FAILURE', 'FAILURE', 'SUCCESS']);
  });

  it('fault injection by machine name (as SIM_AGENT_FAIL_MACHINES sets it) fails every operation of that machine only', async () => {
    const failing = await f.machine();
    const healthy = await f.machine();
    const { name } = await f.machineRow(failing.id);
    f.agent.failNext({ machineName: name, times: Infinity, message: 'Simulated failure (SIM_AGENT_FAIL_MACHINES)' });
    const ids = [await f.enqueue(failing, 'SmokeTest'), await f.enqueue(failing, 'ApplyConfig'), await f.enqueue(healthy, 'SmokeTest')];
    const done = [];
    for (const id of ids) done.push(await f.settled(id));
    expect(done.map((d) => d.status)).toEqual(['FAILURE', 'FAILURE', 'SUCCESS']);
    expect(linesOf(done[1]!.output).at(-1)).toBe('Simulated failure (SIM_AGENT_FAIL_MACHINES)');
  });
});

describe('leases', () => {
  it('resumes an operation whose worker died (stale lease) and fails one after its last attempt', async () => {
    const machine = await f.machine();
    const other = await f.machine();
    const stale = new Date(Date.now() - 60_000);
    const insertRunning = async (m: { id: number; accountId: number; classId: number }, attempts: number) => {
      const [typeRow] = (await f.database.db.execute<{ id: number }>(sql`select id from operation_types where machine_class_id = ${m.classId} and name = 'SmokeTest'`)).rows;
      const [row] = await f.database.db
        .insert(operations)
        .values({ machineId: m.id, accountId: m.accountId, classId: m.classId, typeId: typeRow!.id, typeName: 'SmokeTest', userName: 'admin', timeoutSeconds: 600, operationMode: 1, status: 'RUNNING', startedAt: stale, heartbeatAt: stale, attempts, worker: 'dead:1:abc' })
        .returning();
      return row!.id;
    };
    const resumedId = await insertRunning(machine, 1);
    const abandonedId = await insertRunning(other, 3);
    const resumed = await f.settled(resumedId);
    expect(resumed).toMatchObject({ status: 'SUCCESS', attempts: 2, worker: f.engine.workerName });
    expect(linesOf(resumed.output)[0]).toMatch(/^Resumed on .* \(attempt 2\)$/);
    const abandoned = await f.settled(abandonedId);
    expect(abandoned).toMatchObject({ status: 'FAILURE', attempts: 3, failCounter: 1 });
    expect(linesOf(abandoned.output).at(-1)).toBe('The worker running this operation stopped responding (3 attempts)');
  });

  it('a reset operation is fenced: its worker writes nothing more and the next one starts', async () => {
    const machine = await f.machine();
    const id = await f.enqueue(machine, 'RestoreBackup');
    const next = await f.enqueue(machine, 'SmokeTest');
    await f.until('running', async () => (await f.row(id)).output.includes('Gate reached'));
    // What POST /machines/{id}/reset-last-operation does (OPS-SEMANTICS).
    await f.database.db
      .update(operations)
      .set({ status: 'FAILURE', finishedAt: new Date(), output: sql`${operations.output} || 'Reset by alice\n'`, worker: null, heartbeatAt: null })
      .where(and(eq(operations.id, id), eq(operations.status, 'RUNNING')));
    f.open(id);
    expect((await f.settled(next)).status).toBe('SUCCESS');
    const reset = await f.row(id);
    expect(reset.status).toBe('FAILURE');
    expect(reset.output).not.toContain('Gate passed');
    expect(reset.output.trimEnd().endsWith('Reset by alice')).toBe(true);
    expect((await f.machineRow(machine.id)).failCounter).toBe(0);
  });
});
