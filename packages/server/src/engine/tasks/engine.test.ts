/**
 * The task engine against a real PostgreSQL and the simulated cloud (delays 0):
 * every task type, ordering per machine, idempotent retries, faults, crashed
 * workers, and the TerminateMachine tasks queued by account deletion.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { TTaskType } from '@fleet/contracts';
import { cloudInstances, machineCredentials, machines, machineTasks } from '../../db/schema.js';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { softDeleteAccount } from '../../modules/accounts/accounts.repository.js';
import { createSimulatedCloud, type SimulatedCloud } from '../cloud/simulated.js';
import { createTaskEvents, type TaskEvent } from '../push/events.js';
import { createTaskEngine, type TaskEngine } from './engine.js';
import { createTaskQueue, type TaskMachine } from './queue.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';

// First: its afterAll (dropping the database) runs after the engine stopped.
const database = useTestDatabase({ max: 8 });
let cloud: SimulatedCloud;
let engine: TaskEngine;
const events = createTaskEvents();
const queue = createTaskQueue({ events });
const seen: TaskEvent[] = [];
const secrets = createSecretBox(TEST_DATA_KEY);
events.subscribe((e) => {
  if ('task' in e) seen.push(e);
});

beforeAll(async () => {
  cloud = createSimulatedCloud({ db: database.db, delayMs: 0 });
  engine = createTaskEngine({ db: database.db, cloud, events, secrets, staleMs: 1000, sweepMs: 200, orphanAfterMs: 0, heartbeatMs: 200, pollingIntervalSeconds: 0.5 });
  await engine.start();
});
afterEach(() => cloud.clearFaults());
afterAll(async () => {
  await engine.stop();
});

/** A machine with an instance in the given state. */
async function machineWith(state: 'running' | 'stopped' | 'none', values: Partial<typeof machines.$inferInsert> = {}) {
  const account = await insertAccount(database.db, { name: `Engine ${Math.random().toString(36).slice(2, 8)}` });
  const m = await insertMachine(database.db, { accountId: account.id, instanceTypeId: 2, ...values });
  const machine: TaskMachine = { id: m.id, name: m.name, accountId: account.id, classId: m.classId, accountClassId: account.classId };
  let cloudId: string | undefined;
  if (state !== 'none') {
    cloudId = (await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `fixture-${m.id}` })).cloudId;
    await cloud.describe(cloudId);
    if (state === 'stopped') {
      await cloud.stop(cloudId);
      await cloud.describe(cloudId);
    }
  }
  return { machine, account, cloudId };
}

async function enqueue(machine: TaskMachine, type: TTaskType, params?: Record<string, unknown>) {
  const [queued] = await database.db.transaction((tx) => queue.enqueue(tx, [{ machine, type, params }]));
  queue.announce([queued!]);
  return queued!.task;
}

async function task(id: number) {
  const [row] = await database.db.select().from(machineTasks).where(eq(machineTasks.id, id));
  return row!;
}

/** Waits for task `id`'s event `name`: the engine announces it after the row is written, so a settled row may come first. */
async function announced(id: number, name: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!seen.some((e) => e.task.id === id && e.name === name)) {
    if (Date.now() > deadline) throw new Error(`no ${name} of task ${id} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function settled(id: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await task(id);
    if (!['New', 'Running'].includes(row.status)) return row;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${row.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const instanceOf = async (cloudId: string) => (await cloud.describe(cloudId))!;
const machineRow = async (id: number) => (await database.db.select().from(machines).where(eq(machines.id, id)))[0]!;

describe('task types', () => {
  it('starts a stopped machine: Running, progress, Completed at 100, events in order', async () => {
    const { machine, cloudId } = await machineWith('stopped');
    const queued = await enqueue(machine, 'StartMachine');
    expect(queued).toMatchObject({ status: 'New', progress: 0, type: 'StartMachine', description: `Start machine ${machine.name}` });
    const done = await settled(queued.id);
    expect(done).toMatchObject({ status: 'Completed', progress: 100, error: null, attempts: 1 });
    expect(done.startedAt!.getTime()).toBeLessThanOrEqual(done.completedAt!.getTime());
    expect((await instanceOf(cloudId!)).status).toBe('running');
    await announced(queued.id, 'TaskFinished');
    const names = seen.filter((e) => e.task.id === queued.id).map((e) => e.name);
    expect(names[0]).toBe('TaskQueued');
    expect(names[1]).toBe('TaskStarted');
    expect(names.at(-1)).toBe('TaskFinished');
    expect(names).toContain('TaskProgress');
    const finished = seen.find((e) => e.task.id === queued.id && e.name === 'TaskFinished')!;
    expect(finished.task).toMatchObject({ status: 'Completed', progress: 100 });
    expect(finished.classIds).toEqual([machine.classId, machine.accountClassId]);
  });

  it('completes a start of a running machine at once, without a cloud call', async () => {
    const { machine, cloudId } = await machineWith('running');
    const before = await instanceOf(cloudId!);
    const done = await settled((await enqueue(machine, 'StartMachine')).id);
    expect(done.status).toBe('Completed');
    // A start from stopped gives a new public address; none was made.
    expect(await instanceOf(cloudId!)).toEqual(before);
  });

  it('stops a running machine and completes a stop of a stopped one at once', async () => {
    const { machine, cloudId } = await machineWith('running');
    expect((await settled((await enqueue(machine, 'StopMachine')).id)).status).toBe('Completed');
    expect((await instanceOf(cloudId!)).status).toBe('stopped');
    expect((await settled((await enqueue(machine, 'StopMachine')).id)).status).toBe('Completed');
  });

  it('terminates: instance terminated and inactive, machine deleted', async () => {
    const { machine, cloudId } = await machineWith('running', { terminate: true });
    expect((await settled((await enqueue(machine, 'TerminateMachine')).id)).status).toBe('Completed');
    expect((await instanceOf(cloudId!)).status).toBe('terminated');
    const [row] = await database.db.select().from(cloudInstances).where(eq(cloudInstances.cloudId, cloudId!));
    expect(row!.active).toBe(false);
    const m = await machineRow(machine.id);
    expect(m.deletedAt).not.toBeNull();
    expect(m.terminate).toBe(true);
  });

  it('recreates: the old instance terminated, a new one running, terminate cleared', async () => {
    const { machine, cloudId } = await machineWith('running', { terminate: true, stop: true });
    const done = await settled((await enqueue(machine, 'RecreateMachine')).id);
    expect(done).toMatchObject({ status: 'Completed', params: { replacedCloudId: cloudId } });
    expect((await instanceOf(cloudId!)).status).toBe('terminated');
    const live = await database.db.select().from(cloudInstances).where(eq(cloudInstances.machineId, machine.id));
    const fresh = live.filter((i) => i.active);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ status: 'running', clientToken: `task-${done.id}`, instanceTypeId: 2, storageSize: 80 });
    expect(fresh[0]!.cloudId).toMatch(/^i-[0-9a-f]{17}$/);
    expect(fresh[0]!.hostName).toMatch(/^ec2-\d+-\d+-\d+-\d+\.compute-1\.amazonaws\.com$/);
    expect(fresh[0]!.privateIpAddress).toMatch(/^10\./);
    expect(await machineRow(machine.id)).toMatchObject({ terminate: false, stop: false, deletedAt: null });
  });

  it('creates the instance of a machine that has none, in its account region and type', async () => {
    const { machine } = await machineWith('none', { instanceTypeId: 5 });
    const done = await settled((await enqueue(machine, 'CreateMachine')).id);
    expect(done.status).toBe('Completed');
    const [i] = await database.db.select().from(cloudInstances).where(eq(cloudInstances.machineId, machine.id));
    expect(i).toMatchObject({ status: 'running', active: true, instanceTypeId: 5, storageSize: 200, region: 'us-east-1', dnsReady: true });
  });

  it('changes the instance type of a running machine and leaves it running', async () => {
    const { machine, cloudId } = await machineWith('running');
    const done = await settled((await enqueue(machine, 'ChangeInstanceType', { instanceTypeId: 1 })).id);
    expect(done).toMatchObject({ status: 'Completed', params: { instanceTypeId: 1, wasRunning: true } });
    expect(await instanceOf(cloudId!)).toMatchObject({ status: 'running', instanceTypeId: 1, storageSize: 50 });
    expect((await machineRow(machine.id)).instanceTypeId).toBe(1);
  });

  it('changes the type of a stopped machine and leaves it stopped', async () => {
    const { machine, cloudId } = await machineWith('stopped');
    expect((await settled((await enqueue(machine, 'ChangeInstanceType', { instanceTypeId: 6 })).id)).status).toBe('Completed');
    expect(await instanceOf(cloudId!)).toMatchObject({ status: 'stopped', instanceTypeId: 6, storageSize: 300 });
  });

  it('fails a start of a machine without an instance, with its error', async () => {
    const { machine } = await machineWith('none');
    const done = await settled((await enqueue(machine, 'StartMachine')).id);
    expect(done).toMatchObject({ status: 'Failed', error: `Machine ${machine.name} has no cloud instance` });
  });
});

describe('ordering', () => {
  it('runs one task of a machine at a time, in the order queued', async () => {
    const { machine, cloudId } = await machineWith('running');
    const types: TTaskType[] = ['StopMachine', 'StartMachine', 'StopMachine', 'StartMachine', 'StopMachine'];
    const ids: number[] = [];
    for (const type of types) ids.push((await enqueue(machine, type)).id);
    const rows = [];
    for (const id of ids) rows.push(await settled(id));
    expect(rows.map((r) => r.status)).toEqual(types.map(() => 'Completed'));
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.startedAt!.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.completedAt!.getTime());
    }
    expect((await instanceOf(cloudId!)).status).toBe('stopped');
  });

  it('runs tasks of different machines side by side', async () => {
    const a = await machineWith('stopped');
    const b = await machineWith('stopped');
    const [ta, tb] = [await enqueue(a.machine, 'StartMachine'), await enqueue(b.machine, 'StartMachine')];
    expect((await settled(ta.id)).status).toBe('Completed');
    expect((await settled(tb.id)).status).toBe('Completed');
  });

  it('never has two Running tasks of one machine (the database refuses it)', async () => {
    const { machine } = await machineWith('running');
    const insert = (n: number) =>
      database.db.insert(machineTasks).values({ machineId: machine.id, accountId: machine.accountId, type: 'StopMachine', status: 'Running', description: `x${n}` });
    await insert(1);
    await expect(insert(2)).rejects.toMatchObject({ cause: { code: '23505', constraint: 'machine_tasks_one_running_idx' } });
    await database.db.update(machineTasks).set({ status: 'Failed' }).where(eq(machineTasks.machineId, machine.id));
  });
});

describe('faults', () => {
  it('a failed cloud call ends the task Failed with its error; the machine tells the truth', async () => {
    const { machine, cloudId } = await machineWith('stopped', { stop: false });
    cloud.failNext('start', 1, 'Insufficient capacity in us-east-1a');
    const done = await settled((await enqueue(machine, 'StartMachine')).id);
    expect(done).toMatchObject({ status: 'Failed', error: 'Insufficient capacity in us-east-1a' });
    expect((await instanceOf(cloudId!)).status).toBe('stopped');
    expect((await machineRow(machine.id)).stop).toBe(true);
    // The next start works.
    expect((await settled((await enqueue(machine, 'StartMachine')).id)).status).toBe('Completed');
    expect((await instanceOf(cloudId!)).status).toBe('running');
  });

  it('a broken instance fails the task and the tasks after it still run', async () => {
    const { machine, cloudId } = await machineWith('running');
    cloud.failInstance(cloudId!, 'Instance unreachable');
    const first = await enqueue(machine, 'StopMachine');
    const second = await enqueue(machine, 'StopMachine');
    expect(await settled(first.id)).toMatchObject({ status: 'Failed', error: 'Instance unreachable' });
    expect(await settled(second.id)).toMatchObject({ status: 'Failed', error: 'Instance unreachable' });
    cloud.clearFaults();
    expect((await settled((await enqueue(machine, 'StopMachine')).id)).status).toBe('Completed');
  });

  it('a failed launch of a recreate leaves the old instance terminated and no active one', async () => {
    const { machine, cloudId } = await machineWith('running', { terminate: true });
    cloud.failNext('launch', 1, 'Image not found');
    expect(await settled((await enqueue(machine, 'RecreateMachine')).id)).toMatchObject({ status: 'Failed', error: 'Image not found' });
    expect((await instanceOf(cloudId!)).status).toBe('terminated');
    const active = await database.db.select().from(cloudInstances).where(sql`machine_id = ${machine.id} and active`);
    expect(active).toEqual([]);
    expect((await machineRow(machine.id)).terminate).toBe(true);
  });
});

describe('task notifications', () => {
  const listeners = async () =>
    (
      await database.db.execute<{ pid: number }>(
        sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      )
    ).rows.map((r) => r.pid);

  it('listens again when the database drops the notification connection, and tasks still wake it', async () => {
    const found = await listeners();
    expect(found).toHaveLength(1);
    const [before] = found;
    await database.db.execute(sql`select pg_terminate_backend(${before})`);
    const deadline = Date.now() + 10_000;
    let after: number[] = [];
    while (Date.now() < deadline) {
      after = await listeners();
      if (after.length === 1 && after[0] !== before) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);

    const { machine } = await machineWith('stopped');
    const started = await enqueue(machine, 'StartMachine');
    expect((await settled(started.id)).status).toBe('Completed');
  });
});

describe('crashed workers', () => {
  /** A task Running on another worker (fresh heartbeat) after `attempts` attempts; {@link kill} makes it stale. */
  async function running(machine: TaskMachine, type: TTaskType, attempts: number, params: Record<string, unknown> = {}) {
    const [row] = await database.db
      .insert(machineTasks)
      .values({
        machineId: machine.id,
        accountId: machine.accountId,
        type,
        status: 'Running',
        description: `${type} ${machine.name}`,
        progress: 40,
        startedAt: new Date(Date.now() - 3_600_000),
        heartbeatAt: new Date(),
        attempts,
        worker: 'dead-worker',
        params,
      })
      .returning();
    return row!;
  }
  /** Its worker died an hour ago. */
  const kill = (id: number) => database.db.update(machineTasks).set({ heartbeatAt: new Date(Date.now() - 3_600_000) }).where(eq(machineTasks.id, id));
  const orphan = async (machine: TaskMachine, type: TTaskType, attempts: number, params?: Record<string, unknown>) => {
    const row = await running(machine, type, attempts, params);
    await kill(row.id);
    return row;
  };

  it('resumes a Running task whose heartbeat went stale, and it completes', async () => {
    const { machine, cloudId } = await machineWith('stopped');
    const row = await orphan(machine, 'StartMachine', 1);
    const done = await settled(row.id);
    expect(done).toMatchObject({ status: 'Completed', attempts: 2, progress: 100 });
    expect(done.worker).toBe(engine.workerName);
    expect((await instanceOf(cloudId!)).status).toBe('running');
  });

  it('fails a task whose workers died maxAttempts times, then runs the next one', async () => {
    const { machine } = await machineWith('running');
    const row = await orphan(machine, 'StopMachine', 3);
    const next = await enqueue(machine, 'StopMachine');
    expect(await settled(row.id)).toMatchObject({ status: 'Failed', error: 'The worker running this task stopped responding (3 attempts)' });
    expect((await settled(next.id)).status).toBe('Completed');
    await announced(row.id, 'TaskFinished');
    expect(seen.some((e) => e.task.id === row.id && e.name === 'TaskFinished' && e.task.status === 'Failed')).toBe(true);
  });

  it('a resumed recreate does not launch twice: the launched instance is reused, the replaced one stays terminated', async () => {
    const { machine, cloudId } = await machineWith('running', { terminate: true });
    // The dead worker had checkpointed the replaced instance, terminated it and launched the new one.
    const row = await running(machine, 'RecreateMachine', 1, { replacedCloudId: cloudId });
    await cloud.terminate(cloudId!);
    const launched = await cloud.launch({ machineId: machine.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `task-${row.id}` });
    await kill(row.id);
    expect((await settled(row.id)).status).toBe('Completed');
    const all = await database.db.select().from(cloudInstances).where(eq(cloudInstances.machineId, machine.id));
    expect(all).toHaveLength(2);
    expect(all.find((i) => i.active)).toMatchObject({ cloudId: launched.cloudId, status: 'running' });
  });

  it('a resumed create finds the instance its dead worker launched and issues the credential it had not', async () => {
    const { machine } = await machineWith('none');
    const row = await running(machine, 'CreateMachine', 1);
    const launched = await cloud.launch({ machineId: machine.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `task-${row.id}` });
    await kill(row.id);
    expect((await settled(row.id)).status).toBe('Completed');
    const all = await database.db.select().from(cloudInstances).where(eq(cloudInstances.machineId, machine.id));
    expect(all.map((i) => [i.cloudId, i.status])).toEqual([[launched.cloudId, 'running']]);
    expect(await database.db.select().from(machineCredentials).where(eq(machineCredentials.machineId, machine.id))).toHaveLength(1);
  });

  it('a resumed resize remembers the machine was running before the dead worker stopped it', async () => {
    const { machine, cloudId } = await machineWith('running');
    const row = await running(machine, 'ChangeInstanceType', 1, { instanceTypeId: 3, wasRunning: true });
    await cloud.stop(cloudId!);
    await kill(row.id);
    expect((await settled(row.id)).status).toBe('Completed');
    expect(await instanceOf(cloudId!)).toMatchObject({ status: 'running', instanceTypeId: 3 });
  });
});

describe('account deletion', () => {
  it('runs the TerminateMachine tasks queued by deleting an account', async () => {
    const { machine, account, cloudId } = await machineWith('running');
    const { machineIds } = await database.db.transaction((tx) => softDeleteAccount(tx, account.id));
    expect(machineIds).toEqual([machine.id]);
    const [row] = await database.db.select().from(machineTasks).where(eq(machineTasks.machineId, machine.id));
    expect((await settled(row!.id)).status).toBe('Completed');
    expect((await instanceOf(cloudId!)).status).toBe('terminated');
    expect((await machineRow(machine.id)).deletedAt).not.toBeNull();
  });
});
