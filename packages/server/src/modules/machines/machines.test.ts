/**
 * Machine calls that change a machine, against a real PostgreSQL, without the
 * task engine (spec 2 §2.3, §4, §5, §7): the flags each action sets and the
 * task it queues, Change Instance Type, updates, tasks and their cancelling,
 * notifications, the credential, and what a viewer may not do.
 * (`machines-lifecycle.test.ts` runs the same calls with the engine; the lists
 * and lookups are in `machines-list.test.ts`, creating machines in
 * `machines-create.test.ts`; the fixture is `test/machine-fixtures.ts`.)
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TMachine, TTask } from '@fleet/contracts';
import { call, events, ids, lastActivity, machineRow, ok, t, useMachineFixture } from '../../../test/machine-fixtures.js';
import { machineTasks } from '../../db/schema.js';
import { upsertCredential } from '../../engine/tasks/machine-state.repository.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';

useMachineFixture();

describe('lifecycle actions queue a task and set the flags of spec 2 §4', () => {
  it('start clears stop and idle, queues StartMachine New, audits it, announces it', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.stopped}/start`);
    expect(task).toMatchObject({ machineId: ids.stopped, accountId: ids.account, type: 'StartMachine', status: 'New', progress: 0, description: 'Start machine mf-site', startedAt: null, completedAt: null, error: null });
    expect(await machineRow(ids.stopped)).toMatchObject({ stop: false, idle: false });
    const activity = await lastActivity('StartMachine');
    expect(activity).toMatchObject({
      user: 'operator',
      accounts: [{ id: ids.account, name: 'Machines Fixture' }],
      metadata: { params: { machineId: ids.stopped, taskId: task.id }, changes: [{ entityName: 'Machine', propertyName: 'stop', oldValue: true, newValue: false }] },
    });
    const [row] = await t.database.db.select({ activityId: machineTasks.activityId }).from(machineTasks).where(eq(machineTasks.id, task.id));
    expect(row!.activityId).toBe(activity.id);
    expect(events.find((e) => e.task.id === task.id)).toMatchObject({ name: 'TaskQueued', classIds: [2, 2] });
    const machine = await ok<TMachine>('GET', `/machines/${ids.stopped}`);
    expect(machine.tasks[0]).toMatchObject({ id: task.id, status: 'New' });
  });

  it('stop sets stop; start of an idle machine clears idle', async () => {
    await ok('POST', `/machines/${ids.plain}/stop`);
    expect((await machineRow(ids.plain)).stop).toBe(true);
    await ok('POST', `/machines/${ids.plain}/start`);
    expect(await machineRow(ids.plain)).toMatchObject({ stop: false, idle: false });
    expect((await lastActivity('StartMachine')).metadata.changes.map((c) => c.propertyName)).toEqual(['stop', 'idle']);
  });

  it('recreate and terminate set the terminate marker; a terminating machine takes no new task (409)', async () => {
    const recreate = await ok<TTask>('POST', `/machines/${ids.panicked}/recreate`);
    expect(recreate.type).toBe('RecreateMachine');
    expect((await machineRow(ids.panicked)).terminate).toBe(true);
    const terminate = await ok<TTask>('POST', `/machines/${ids.panicked}/terminate`);
    expect(terminate).toMatchObject({ type: 'TerminateMachine', status: 'New' });
    expect((await lastActivity('TerminateMachine')).metadata.params).toMatchObject({ machineId: ids.panicked, taskId: terminate.id });
    const before = { row: await machineRow(ids.panicked), tasks: await t.database.db.$count(machineTasks), activity: (await lastActivity('TerminateMachine')).id };
    for (const action of ['start', 'stop', 'terminate', 'recreate']) {
      const res = await call('POST', `/machines/${ids.panicked}/${action}`);
      expect(res.statusCode, action).toBe(409);
      expect(res.json().detail).toBe('Machine mf-panic is being terminated');
    }
    // Refused whole: no flag, task or activity written.
    expect(await machineRow(ids.panicked)).toEqual(before.row);
    expect(await t.database.db.$count(machineTasks)).toBe(before.tasks);
    expect((await lastActivity('TerminateMachine')).id).toBe(before.activity);
    expect((await call('POST', `/machines/${ids.panicked}/change-instance-type`, 'operator', { instanceTypeId: 4 })).statusCode).toBe(409);
  });

  it('reset failure state clears needsAdmin and sets failCounter 0, audited', async () => {
    const machine = await ok<TMachine>('POST', `/machines/${ids.panicked}/reset-failure-state`);
    expect(machine).toMatchObject({ needsAdmin: false, failCounter: 0 });
    expect((await lastActivity('ResetFailureState')).metadata.changes).toEqual([
      { entityName: 'Machine', propertyName: 'needsAdmin', oldValue: true, newValue: false },
      { entityName: 'Machine', propertyName: 'failCounter', oldValue: 4, newValue: 0 },
    ]);
  });
});

describe('POST /machines/{id}/change-instance-type', () => {
  it('queues ChangeInstanceType with the type in its description, audited', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.stopped}/change-instance-type`, 'operator', { instanceTypeId: 5 });
    expect(task).toMatchObject({ type: 'ChangeInstanceType', status: 'New', description: 'Change instance type of mf-site to m5.xlarge' });
    expect((await lastActivity('ChangeInstanceType')).metadata.changes).toEqual([
      { entityName: 'Machine', propertyName: 'instanceTypeId', oldValue: 3, newValue: 5 },
    ]);
  });

  it.each([
    [{}, 'instanceTypeId', 400],
    [{ instanceTypeId: 'big' }, 'instanceTypeId', 400],
    [{ instanceTypeId: 999 }, 'instanceTypeId', 400],
    [{ instanceTypeId: 20 }, 'instanceTypeId', 400],
  ])('answers 400 naming the field for %o', async (body, field, status) => {
    const res = await call('POST', `/machines/${ids.stopped}/change-instance-type`, 'operator', body);
    expect(res.statusCode).toBe(status);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('answers 422 when the type is unchanged', async () => {
    const res = await call('POST', `/machines/${ids.stopped}/change-instance-type`, 'operator', { instanceTypeId: 3 });
    expect(res.statusCode).toBe(422);
  });
});

describe('PATCH /accounts/{id}/machines/{machineId}', () => {
  const patch = (body: unknown, as = 'operator', accountId = ids.account, machineId = ids.stopped) =>
    call('PATCH', `/accounts/${accountId}/machines/${machineId}`, as, body);

  it.each(['managed', 'manualMaintenance', 'turbo', 'runSmokeTest', 'overseeTermination'] as const)('toggles %s with a field-level audit', async (flag) => {
    const before = (await machineRow(ids.stopped))[flag];
    const res = await patch({ [flag]: !before });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TMachine)[flag]).toBe(!before);
    const activity = await lastActivity('UpdateMachine');
    expect(activity.metadata.changes).toEqual([{ entityName: 'Machine', propertyName: flag, oldValue: before, newValue: !before }]);
    expect((await patch({ [flag]: before })).statusCode).toBe(200);
  });

  it('switches class and sample data', async () => {
    const res = await patch({ classId: 3, sampleData: 'Select', sampleDataFile: 'campus-demo.zip' });
    expect(res.json()).toMatchObject({ classId: 3, className: 'Internal Production', sampleData: 'Select', sampleDataFile: 'campus-demo.zip' });
    const none = await patch({ sampleData: 'None' });
    expect(none.json()).toMatchObject({ sampleData: 'None', sampleDataFile: null });
    await patch({ classId: 2 });
  });

  it('refuses to move a machine into Customer Production without the group (403); admin may', async () => {
    expect((await patch({ classId: 5 })).statusCode).toBe(403);
    expect((await patch({ classId: 5 }, 'admin')).statusCode).toBe(200);
    expect((await patch({ classId: 2 }, 'admin')).statusCode).toBe(200);
  });

  it.each([
    [{}, 'body'],
    [{ managed: 'yes' }, 'managed'],
    [{ classId: 200 }, 'classId'],
    [{ classId: 42 }, 'classId'],
    [{ sampleData: 'Everything' }, 'sampleData'],
    [{ sampleData: 'Select', sampleDataFile: null }, 'sampleDataFile'],
  ])('answers 400 naming the field for %o', async (body, field) => {
    const res = await patch(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('answers 404 for a machine of another account, or hidden', async () => {
    expect((await patch({ turbo: true }, 'operator', ids.policy)).statusCode).toBe(404);
    expect((await patch({ turbo: true }, 'operator', ids.account, ids.cp)).statusCode).toBe(404);
  });
});

describe('tasks and cancelling', () => {
  it('lists a machine tasks newest first, paged', async () => {
    const page = await ok<{ items: TTask[]; totalItems: number }>('GET', `/machines/${ids.plain}/tasks`, 'viewer');
    expect(page.totalItems).toBe(2);
    expect(page.items.map((x) => x.type)).toEqual(['StartMachine', 'StopMachine']);
  });

  it('cancels a New task, audited and announced; any other status is 409', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.plain}/stop`);
    const cancelled = await ok<TTask>('POST', `/machines/${ids.plain}/tasks/${task.id}/cancel`);
    expect(cancelled).toMatchObject({ id: task.id, status: 'Cancelled' });
    expect(cancelled.completedAt).not.toBeNull();
    expect((await lastActivity('CancelTask')).metadata.params).toMatchObject({ taskId: task.id, type: 'StopMachine' });
    expect(events.find((e) => e.task.id === task.id && e.name === 'TaskFinished')?.task.status).toBe('Cancelled');
    const again = await call('POST', `/machines/${ids.plain}/tasks/${task.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`Task ${task.id} is Cancelled; only a New task can be cancelled`);

    for (const status of ['Running', 'Completed', 'Failed']) {
      const other = await ok<TTask>('POST', `/machines/${ids.plain}/start`);
      await t.database.db.update(machineTasks).set({ status }).where(eq(machineTasks.id, other.id));
      expect((await call('POST', `/machines/${ids.plain}/tasks/${other.id}/cancel`)).statusCode, status).toBe(409);
      await t.database.db.update(machineTasks).set({ status: 'Failed' }).where(eq(machineTasks.id, other.id));
    }
  });

  it('answers 404 for a task of another machine or an unknown one', async () => {
    const [foreign] = await t.database.db.select().from(machineTasks).where(eq(machineTasks.machineId, ids.stopped)).limit(1);
    expect((await call('POST', `/machines/${ids.plain}/tasks/${foreign!.id}/cancel`)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/tasks/99999999/cancel`)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/tasks/x/cancel`)).json().errors[0].propertyName).toBe('taskId');
  });
});

describe('notifications', () => {
  it('queues one pending message per target machine and audits it', async () => {
    const res = await ok<{ queued: number }>('POST', '/notification/send', 'operator', {
      machines: [ids.plain],
      accounts: [ids.account],
      title: 'Maintenance tonight',
      body: 'The site will restart at 22:00 UTC.',
    });
    expect(res.queued).toBe(3);
    const page = await ok<{ items: { machine: { id: number }; title: string; priority: string }[]; totalItems: number }>('GET', '/notification/messages', 'viewer');
    expect(page.totalItems).toBe(3);
    expect(page.items[0]).toMatchObject({ title: 'Maintenance tonight', priority: 'Medium' });
    expect(page.items.map((m) => m.machine.id).sort()).toEqual([ids.plain, ids.stopped, ids.panicked].sort());
    expect((await lastActivity('SendNotification')).metadata.params).toMatchObject({ title: 'Maintenance tonight', priority: 'Medium' });
    // The Customer Production machine of the account was not targeted for the operator.
    expect(page.items.map((m) => m.machine.id)).not.toContain(ids.cp);
  });

  it.each([
    [{ title: 'x', body: 'y' }, 'machines'],
    [{ machines: [1], title: ' ', body: 'y' }, 'title'],
    [{ machines: [1], title: 'x', body: '' }, 'body'],
    [{ machines: [1], title: 'x', body: 'y', priority: 'Urgent' }, 'priority'],
  ])('answers 400 naming the field for %o', async (body, field) => {
    const res = await call('POST', '/notification/send', 'operator', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('refuses targets the user may not see (400 naming machines)', async () => {
    const res = await call('POST', '/notification/send', 'operator', { machines: [ids.cp], title: 'x', body: 'y' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ propertyName: 'machines', attemptedValue: [ids.cp] });
  });
});

describe('GET /machines/{id}/credential', () => {
  it('answers the decrypted credential to a writer and audits each read', async () => {
    const box = createSecretBox(TEST_DATA_KEY);
    await upsertCredential(t.database.db, ids.plain, { rdpPasswordEnc: box.seal('Rdp-Secret-1'), sshPrivateKeyEnc: box.seal('-----BEGIN RSA PRIVATE KEY-----\nabc') });
    const credential = await ok<{ rdpPassword: string; sshPrivateKey: string }>('GET', `/machines/${ids.plain}/credential`);
    expect(credential).toEqual({ rdpPassword: 'Rdp-Secret-1', sshPrivateKey: '-----BEGIN RSA PRIVATE KEY-----\nabc' });
    expect(await lastActivity('ViewCredential')).toMatchObject({ user: 'operator', metadata: { params: { machineId: ids.plain } } });
  });

  it('answers 404 Credentials not found without one, 404 when hidden, 403 to a viewer', async () => {
    const none = await call('GET', `/machines/${ids.stopped}/credential`);
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe('Credentials not found for machine mf-site');
    expect((await call('GET', `/machines/${ids.cp}/credential`)).statusCode).toBe(404);
    expect((await call('GET', `/machines/${ids.plain}/credential`, 'viewer')).statusCode).toBe(403);
  });
});

describe('viewer', () => {
  it('gets 403 on every machine mutation and changes nothing', async () => {
    const before = await t.database.db.select().from(machineTasks);
    const calls: [string, string, unknown][] = [
      ['POST', `/machines/${ids.plain}/start`, undefined],
      ['POST', `/machines/${ids.plain}/stop`, undefined],
      ['POST', `/machines/${ids.plain}/terminate`, undefined],
      ['POST', `/machines/${ids.plain}/recreate`, undefined],
      ['POST', `/machines/${ids.plain}/reset-failure-state`, undefined],
      ['POST', `/machines/${ids.plain}/change-instance-type`, { instanceTypeId: 4 }],
      ['POST', `/machines/${ids.plain}/tasks/${before[0]!.id}/cancel`, undefined],
      ['POST', `/accounts/${ids.policy}/machines`, { isLauncher: true, siteId: null, accountId: ids.policy }],
      ['PATCH', `/accounts/${ids.account}/machines/${ids.plain}`, { turbo: true }],
      ['POST', '/notification/send', { machines: [ids.plain], title: 'x', body: 'y' }],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(method as 'POST', url, 'viewer', body)).statusCode, url).toBe(403);
    }
    expect(await t.database.db.select().from(machineTasks)).toEqual(before);
    expect((await machineRow(ids.plain)).turbo).toBe(false);
  });
});
