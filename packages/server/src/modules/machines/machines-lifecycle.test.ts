/**
 * Machine lifecycle end to end: the API queues, the task engine runs the tasks on
 * the simulated cloud (200 ms per transition), and the machine as the API answers
 * it shows each state of spec 2 §4. Also cancelling while a task waits, faults,
 * and the events of every task.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TMachine, TTask } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { sites } from '../../db/schema.js';
import { createSimulatedCloud, type SimulatedCloud } from '../../engine/cloud/simulated.js';
import type { TaskEvent } from '../../engine/push/events.js';
import { createTaskEngine, type TaskEngine } from '../../engine/tasks/engine.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';

let t: TestApp;
let cloud: SimulatedCloud;
let engine: TaskEngine;
let accountId = 0;
const events: TaskEvent[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  t.app.deps.events.subscribe((e) => {
    if ('task' in e) events.push(e);
  });
  cloud = createSimulatedCloud({ db, delayMs: 200 });
  engine = createTaskEngine({ db, cloud, events: t.app.deps.events, secrets: createSecretBox(TEST_DATA_KEY), workers: 2, batchSize: 4, pollingIntervalSeconds: 0.5, sweepMs: 500 });
  await engine.start();
  const account = await insertAccount(db, { name: 'Lifecycle', classId: 3, urlFriendlyName: 'lifecycle' });
  accountId = account.id;
  await db.insert(sites).values({ accountId, name: 'Site 1', urlFriendlyName: 'site1', domainName: 'site1-lifecycle.fleet.example.net' });
});
afterEach(() => cloud.clearFaults());
afterAll(async () => {
  await engine.stop();
  await t.close();
});

const ok = async <T>(method: 'GET' | 'POST', url: string, body?: unknown) => {
  const res = await t.call({ method, url, as: 'admin', body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

async function finished(machineId: number, taskId: number, timeoutMs = 20_000): Promise<TTask> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { items } = await ok<{ items: TTask[] }>('GET', `/machines/${machineId}/tasks`);
    const task = items.find((x) => x.id === taskId)!;
    if (!['New', 'Running'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const machine = (id: number) => ok<TMachine>('GET', `/machines/${id}`);

/** A machine with a running instance, created through the API. */
async function runningMachine(): Promise<TMachine> {
  const m = await insertMachine(t.database.db, { accountId, classId: 3, instanceTypeId: 4 });
  const i = await cloud.launch({ machineId: m.id, region: 'eu-west-1', instanceTypeId: 4, clientToken: `fixture-${m.id}` });
  for (let s = await cloud.describe(i.cloudId); s?.status !== 'running'; s = await cloud.describe(i.cloudId)) await new Promise((r) => setTimeout(r, 50));
  return machine(m.id);
}

describe('the states of spec 2 §4 through the API and the engine', () => {
  it('stop, then start: instance and flags follow, each task goes New → Running → Completed with events', async () => {
    const m = await runningMachine();
    const stop = await ok<TTask>('POST', `/machines/${m.id}/stop`);
    expect(await finished(m.id, stop.id)).toMatchObject({ status: 'Completed', progress: 100 });
    expect(await machine(m.id)).toMatchObject({ stop: true, instance: { status: 'stopped', cloudId: m.instance!.cloudId } });

    const start = await ok<TTask>('POST', `/machines/${m.id}/start`);
    expect(await finished(m.id, start.id)).toMatchObject({ status: 'Completed' });
    const after = await machine(m.id);
    expect(after).toMatchObject({ stop: false, idle: false, instance: { status: 'running' } });
    // The list carries unfinished tasks only: both have finished.
    expect(after.tasks).toEqual([]);

    const names = events.filter((e) => e.task.id === start.id).map((e) => e.name);
    expect(names[0]).toBe('TaskQueued');
    expect(names[1]).toBe('TaskStarted');
    expect(names).toContain('TaskProgress');
    expect(names.at(-1)).toBe('TaskFinished');
  });

  it('change instance type: the machine shows the new type and storage and is running again', async () => {
    const m = await runningMachine();
    const task = await ok<TTask>('POST', `/machines/${m.id}/change-instance-type`, { instanceTypeId: 1 });
    expect((await finished(m.id, task.id)).status).toBe('Completed');
    expect(await machine(m.id)).toMatchObject({ cloudInstanceType: { id: 1, name: 't2.small', storageSize: 50 }, instance: { status: 'running' } });
  });

  it('recreate: a new instance runs and the terminate marker is cleared', async () => {
    const m = await runningMachine();
    const task = await ok<TTask>('POST', `/machines/${m.id}/recreate`);
    expect((await machine(m.id)).terminate).toBe(true);
    expect((await finished(m.id, task.id)).status).toBe('Completed');
    const after = await machine(m.id);
    expect(after.terminate).toBe(false);
    expect(after.instance).toMatchObject({ status: 'running' });
    expect(after.instance!.cloudId).not.toBe(m.instance!.cloudId);
  });

  it('terminate: the machine leaves the lists once its instance is terminated', async () => {
    const m = await runningMachine();
    const task = await ok<TTask>('POST', `/machines/${m.id}/terminate`);
    expect((await machine(m.id)).terminate).toBe(true);
    await expect.poll(async () => (await t.call({ method: 'GET', url: `/machines/${m.id}`, as: 'admin' })).statusCode, { timeout: 20_000 }).toBe(404);
    expect((await cloud.describe(m.instance!.cloudId))!.status).toBe('terminated');
    // The machine's row is gone (404) in the task's last step; its TaskFinished follows the commit.
    await expect.poll(() => events.find((e) => e.task.id === task.id && e.name === 'TaskFinished')?.task.status).toBe('Completed');
  });

  it('create machine: the new machine gets a running instance', async () => {
    const created = await ok<{ machine: TMachine; task: TTask }>('POST', `/accounts/${accountId}/machines`, {
      isLauncher: true,
      siteId: (await ok<{ siteId: number }[]>('GET', `/accounts/${accountId}/creatable-machines`))[0]!.siteId,
      accountId,
    });
    expect(created.machine).toMatchObject({ name: 'lifecycle-launcher', isLauncher: true, isSiteMaster: true, instance: null });
    expect((await finished(created.machine.id, created.task.id)).status).toBe('Completed');
    expect((await machine(created.machine.id)).instance).toMatchObject({ status: 'running' });
    // The launch issued its credential, stored sealed.
    const credential = await ok<{ rdpPassword: string; sshPrivateKey: string }>('GET', `/machines/${created.machine.id}/credential`);
    expect(credential.sshPrivateKey).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(credential.rdpPassword).toHaveLength(20);
    const { rows } = await t.database.pool.query('select ssh_private_key_enc, rdp_password_enc from machine_credentials where machine_id = $1', [created.machine.id]);
    expect(rows[0].ssh_private_key_enc).toMatch(/^v1:/);
    expect(rows[0].rdp_password_enc).not.toContain(credential.rdpPassword);
  });
});

describe('ordering and cancelling while tasks wait', () => {
  it('runs a machine tasks in order; a waiting task can be cancelled, a running one cannot (409)', async () => {
    const m = await runningMachine();
    const stop = await ok<TTask>('POST', `/machines/${m.id}/stop`);
    const start = await ok<TTask>('POST', `/machines/${m.id}/start`);
    const stopAgain = await ok<TTask>('POST', `/machines/${m.id}/stop`);
    await expect.poll(async () => (await machine(m.id)).tasks.find((x) => x.id === stop.id)?.status, { timeout: 10_000 }).toBe('Running');
    const refused = await t.call({ method: 'POST', url: `/machines/${m.id}/tasks/${stop.id}/cancel`, as: 'admin' });
    expect(refused.statusCode).toBe(409);
    expect((await ok<TTask>('POST', `/machines/${m.id}/tasks/${stopAgain.id}/cancel`)).status).toBe('Cancelled');
    const [a, b] = [await finished(m.id, stop.id), await finished(m.id, start.id)];
    expect([a.status, b.status]).toEqual(['Completed', 'Completed']);
    expect(new Date(b.startedAt!).getTime()).toBeGreaterThanOrEqual(new Date(a.completedAt!).getTime());
    expect((await finished(m.id, stopAgain.id)).status).toBe('Cancelled');
    expect((await machine(m.id)).instance!.status).toBe('running');
  });
});

describe('faults', () => {
  it('a failed stop ends Failed with its error; the machine says it still runs', async () => {
    const m = await runningMachine();
    cloud.failNext('stop', 1, 'Throttled by the cloud API');
    const task = await ok<TTask>('POST', `/machines/${m.id}/stop`);
    expect(await finished(m.id, task.id)).toMatchObject({ status: 'Failed', error: 'Throttled by the cloud API' });
    expect(await machine(m.id)).toMatchObject({ stop: false, instance: { status: 'running' } });
  });
});
