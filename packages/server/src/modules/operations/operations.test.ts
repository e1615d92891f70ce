/**
 * The calls that queue, decide and reset operations, through the real app on a
 * real PostgreSQL, without the agent (nothing runs: the tests check what the API
 * writes and answers): each dialog's operation and params, validation (400), the
 * 422 rules, visibility (404), permission (403), approval with PROCEED and
 * CANCEL, reset last operation, Reinstall Sample Data through the machine PATCH,
 * the events, and the trail of activities to the tasks and operations they caused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { TActivityTrail, TOperation, TQueuedOperationsResponse, TTask, TUserActivity } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { machines, machineTasks, operations, sites } from '../../db/schema.js';
import type { OperationEvent } from '../../engine/push/events.js';

let t: TestApp;
const ids = { account: 0, cpAccount: 0, plain: 0, other: 0, cp: 0, cpOfAccount: 0, empty: 0 };
const events: OperationEvent[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  t.app.deps.events.subscribe((e) => {
    if ('operation' in e) events.push(e);
  });
  ids.account = (await insertAccount(db, { name: 'Ops Fixture', classId: 2 })).id;
  ids.cpAccount = (await insertAccount(db, { name: 'Ops Production', classId: 5 })).id;
  ids.plain = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'ops-launcher', isLauncher: true })).id;
  ids.other = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'ops-site', isSiteMaster: true })).id;
  ids.empty = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'ops-empty', failCounter: 2 })).id;
  ids.cp = (await insertMachine(db, { accountId: ids.account, classId: 5, name: 'ops-moved-to-production' })).id;
  ids.cpOfAccount = (await insertMachine(db, { accountId: ids.cpAccount, classId: 5, name: 'ops-production-launcher' })).id;
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, as = 'operator', body?: unknown) => t.call({ method, url, as, body });
const ok = async <T>(method: Method, url: string, as = 'operator', body?: unknown) => {
  const res = await call(method, url, as, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const queued = async (url: string, body?: unknown, as = 'operator') => (await ok<TQueuedOperationsResponse>('POST', url, as, body)).operations;
const row = async (id: number) => (await t.database.db.select().from(operations).where(eq(operations.id, id)))[0]!;
const lastActivity = async (action: string) =>
  (await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query: { action, limit: '1' } })).json()[0] as TUserActivity;
const countOperations = async () => (await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from operations`)).rows[0]!.n;

describe('POST /machines/{id}/queue-operations', () => {
  it('queues one operation per distinct type, audited, each carrying the activity, and announces them', async () => {
    const before = events.length;
    const ops = await queued(`/machines/${ids.plain}/queue-operations`, { operations: ['Backup', 'SmokeTest', 'Backup'] });
    expect(ops.map((o) => [o.typeName, o.pending, o.status, o.user, o.machineId])).toEqual([
      ['Backup', false, null, 'operator', ids.plain],
      ['SmokeTest', false, null, 'operator', ids.plain],
    ]);
    const activity = await lastActivity('QueueOperations');
    expect(activity).toMatchObject({ user: 'operator', metadata: { params: { machineId: ids.plain, operations: ['Backup', 'SmokeTest'] } } });
    expect(ops.every((o) => o.activityId === activity.id)).toBe(true);
    expect((await row(ops[0]!.id)).activityId).toBe(activity.id);
    expect(events.slice(before).map((e) => [e.name, e.operation.id, e.classIds])).toEqual(ops.map((o) => ['OperationQueued', o.id, [2, 2]]));
  });

  it('answers 422 naming operations for a type that cannot be manual, writing nothing', async () => {
    const [n, activity] = [await countOperations(), await lastActivity('QueueOperations')];
    const res = await call('POST', `/machines/${ids.plain}/queue-operations`, 'operator', { operations: ['SmokeTest', 'RestoreBackup'] });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 422, errors: [{ propertyName: 'operations', attemptedValue: 'RestoreBackup' }] });
    expect(res.json().detail).toContain('cannot be queued manually');
    expect(await countOperations()).toBe(n);
    expect((await lastActivity('QueueOperations')).id).toBe(activity.id);
  });

  it.each([
    [{ operations: [] }, 'operations'],
    [{ operations: ['Explode'] }, 'operations.0'],
    [{}, 'operations'],
  ])('answers 400 for %o', async (body, field) => {
    const res = await call('POST', `/machines/${ids.plain}/queue-operations`, 'operator', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('answers 404 for a hidden or unknown machine, 403 to a viewer', async () => {
    const body = { operations: ['Backup'] };
    for (const id of [ids.cp, ids.cpOfAccount, 2_000_000_000]) expect((await call('POST', `/machines/${id}/queue-operations`, 'operator', body)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/queue-operations`, 'viewer', body)).statusCode).toBe(403);
    expect((await call('POST', `/machines/${ids.cp}/queue-operations`, 'admin', body)).statusCode).toBe(200);
  });
});

describe('the dialogs that queue their own operation', () => {
  it('force-backup queues a manual Backup not before now + the delay', async () => {
    const [later] = await queued(`/machines/${ids.other}/force-backup`, { timeToBackup: 10 });
    expect(later).toMatchObject({ typeName: 'Backup', params: { category: 'manual', timeToBackup: 10 } });
    const delay = Date.parse(later!.notBefore!) - Date.now();
    expect(delay).toBeGreaterThan(9 * 60_000);
    expect(delay).toBeLessThanOrEqual(10 * 60_000);
    const [now] = await queued(`/machines/${ids.other}/force-backup`, { timeToBackup: 0 });
    expect(now!.notBefore).toBeNull();
    expect((await lastActivity('ForceBackup')).metadata.params).toMatchObject({ machineId: ids.other, timeToBackup: 0 });
    const bad = await call('POST', `/machines/${ids.other}/force-backup`, 'operator', { timeToBackup: 5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ propertyName: 'timeToBackup', attemptedValue: 5 });
  });

  it('force-populate carries the ticks and the alt string; refuses neither ticked and a non-alphanumeric alt string', async () => {
    const [op] = await queued(`/machines/${ids.other}/force-populate`, { populateLauncher: false, populateSiteMaster: true, altString: 'Alt42' });
    expect(op).toMatchObject({ typeName: 'Populate', params: { populateLauncher: false, populateSiteMaster: true, altString: 'Alt42' } });
    const none = await call('POST', `/machines/${ids.other}/force-populate`, 'operator', { populateLauncher: false, populateSiteMaster: false });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].propertyName).toBe('populateLauncher');
    const alt = await call('POST', `/machines/${ids.other}/force-populate`, 'operator', { populateLauncher: true, populateSiteMaster: false, altString: 'a-b' });
    expect(alt.json().errors[0].propertyName).toBe('altString');
  });

  it('publish-sample-data carries the file name; refuses an empty one', async () => {
    const [op] = await queued(`/machines/${ids.other}/publish-sample-data`, { fileName: ' campus-2026.zip ' });
    expect(op).toMatchObject({ typeName: 'PublishSampleData', params: { fileName: 'campus-2026.zip' } });
    expect((await call('POST', `/machines/${ids.other}/publish-sample-data`, 'operator', { fileName: '  ' })).statusCode).toBe(400);
  });

  it('create-ami carries name, description and IRMN version; an unknown version is 422; a name the cloud refuses is 400', async () => {
    const [op] = await queued(`/machines/${ids.plain}/create-ami`, { name: 'JumpStart 8.1', description: 'Campus demo', irmnVersion: '8.1' });
    expect(op).toMatchObject({ typeName: 'CreateJumpStartAmi', params: { name: 'JumpStart 8.1', description: 'Campus demo', irmnVersion: '8.1' } });
    const n = await countOperations();
    const res = await call('POST', `/machines/${ids.plain}/create-ami`, 'operator', { name: 'Image 6.0', irmnVersion: '6.0' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('IRMN version 6.0 does not exist');
    // The image becomes a SaaS image of that name: AMI name rules (ZImageName).
    for (const [name, message] of [
      ['JS', 'Name must have at least 3 characters'],
      ['Campus, demo', "Name may hold letters, digits, spaces and ()[]./-'@_ only"],
      ['JumpStart 🚀', "Name may hold letters, digits, spaces and ()[]./-'@_ only"],
    ]) {
      const refused = await call('POST', `/machines/${ids.plain}/create-ami`, 'operator', { name, irmnVersion: '8.1' });
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json().errors).toEqual([expect.objectContaining({ propertyName: 'name', errorMessage: message })]);
    }
    expect(await countOperations()).toBe(n);
  });

  it('restore-backup carries the chosen files; waits for approval on a production class; refuses none chosen', async () => {
    const [op] = await queued(`/machines/${ids.other}/restore-backup`, { siteMasterBackupFile: 'acme/siteMaster/backup-1.bak' });
    expect(op).toMatchObject({
      typeName: 'RestoreBackup',
      pending: false,
      params: { launcherBackupFile: null, siteMasterBackupFile: 'acme/siteMaster/backup-1.bak', auditChangeLogBackupFile: null },
    });
    const [production] = await queued(`/machines/${ids.cpOfAccount}/restore-backup`, { launcherBackupFile: 'p/launcher/1.bak' }, 'admin');
    expect(production!.pending).toBe(true);
    expect((await call('POST', `/machines/${ids.other}/restore-backup`, 'operator', {})).json().errors[0].propertyName).toBe('launcherBackupFile');
  });

  it('test-latest-code defaults to master; an unknown branch or a missing repository is 422 with the reason', async () => {
    const [op] = await queued(`/machines/${ids.plain}/test-latest-code`, {});
    expect(op).toMatchObject({ typeName: 'TestLatestCode', params: { branch: 'master' } });
    const missing = await call('POST', `/machines/${ids.plain}/test-latest-code`, 'operator', { branch: 'feature/legacy-cad-bridge' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail).toBe('The repository of branch feature/legacy-cad-bridge (fleet/cad-bridge) is missing');
    const unknown = await call('POST', `/machines/${ids.plain}/test-latest-code`, 'operator', { branch: 'nope' });
    expect(unknown.json()).toMatchObject({ status: 422, detail: 'Branch nope does not exist' });
  });

  it.each([
    ['force-backup', { timeToBackup: 3 }],
    ['force-populate', { populateLauncher: true, populateSiteMaster: false }],
    ['publish-sample-data', { fileName: 'x.zip' }],
    ['create-ami', { name: 'AMI 8.1', irmnVersion: '8.1' }],
    ['restore-backup', { launcherBackupFile: 'a.bak' }],
    ['test-latest-code', { branch: 'develop' }],
  ])('%s answers 404 for a hidden or unknown machine and 403 to a viewer, writing nothing', async (path, body) => {
    const n = await countOperations();
    for (const id of [ids.cp, ids.cpOfAccount, 2_000_000_000]) expect((await call('POST', `/machines/${id}/${path}`, 'operator', body)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/${path}`, 'viewer', body)).statusCode).toBe(403);
    expect(await countOperations()).toBe(n);
  });
});

describe('PATCH /machines/{id}/operations/{operationId}: approval', () => {
  const decide = (machineId: number, operationId: number, params: unknown, as = 'admin') =>
    call('PATCH', `/machines/${machineId}/operations/${operationId}`, as, { params });

  it('an UpdateSoftware on a production class waits; PROCEED releases it once, naming who', async () => {
    const [op] = await queued(`/machines/${ids.cpOfAccount}/queue-operations`, { operations: ['UpdateSoftware'] }, 'admin');
    expect(op).toMatchObject({ pending: true, decision: null, status: null });
    const before = events.length;
    const res = await decide(ids.cpOfAccount, op!.id, 'PROCEED');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: op!.id, pending: false, decision: 'PROCEED', decidedBy: 'admin', status: null, finishTime: null });
    expect(events.slice(before).map((e) => [e.name, e.operation.decision])).toEqual([['OperationQueued', 'PROCEED']]);
    const activity = await lastActivity('ProceedOperation');
    expect(activity.metadata.params).toMatchObject({ operationId: op!.id, decision: 'PROCEED' });
    expect(activity.metadata.changes).toContainEqual({ entityName: 'Operation', propertyName: 'pending', oldValue: true, newValue: false });
    const again = await decide(ids.cpOfAccount, op!.id, 'PROCEED');
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`Operation ${op!.id} is not waiting for approval`);
  });

  it('CANCEL makes a pending operation being cancelled (decision CANCEL, not finished); PROCEED after it is 409', async () => {
    const [op] = await queued(`/machines/${ids.cpOfAccount}/queue-operations`, { operations: ['UpdateSoftware'] }, 'admin');
    const res = await decide(ids.cpOfAccount, op!.id, 'CANCEL');
    expect(res.json()).toMatchObject({ pending: false, decision: 'CANCEL', decidedBy: 'admin', status: null, finishTime: null });
    expect((await lastActivity('CancelOperation')).metadata.params).toMatchObject({ operationId: op!.id });
    expect((await decide(ids.cpOfAccount, op!.id, 'PROCEED')).statusCode).toBe(409);
  });

  it('CANCEL of a queued or running operation is allowed (once); of a finished one 409; PROCEED of a running one 409', async () => {
    const [a, b, c] = await queued(`/machines/${ids.other}/queue-operations`, { operations: ['ApplyConfig', 'SmokeTest', 'UpdateSoftware'] });
    expect((await decide(ids.other, a!.id, 'CANCEL', 'operator')).json()).toMatchObject({ decision: 'CANCEL', decidedBy: 'operator' });
    const twice = await decide(ids.other, a!.id, 'CANCEL', 'admin');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe(`Operation ${a!.id} is already being cancelled`);
    expect((await row(a!.id)).decidedBy).toBe('operator');

    await t.database.db.update(operations).set({ status: 'RUNNING', startedAt: new Date(), pending: true }).where(eq(operations.id, b!.id));
    expect((await decide(ids.other, b!.id, 'PROCEED', 'operator')).statusCode).toBe(409);
    const running = await decide(ids.other, b!.id, 'CANCEL', 'operator');
    expect(running.statusCode, running.body).toBe(200);
    // Still RUNNING: whoever runs it stops it at its next heartbeat (engine/operations agent-run, the MMA protocol).
    expect(running.json()).toMatchObject({ status: 'RUNNING', decision: 'CANCEL', decidedBy: 'operator' });

    await t.database.db.update(operations).set({ status: 'SUCCESS', finishedAt: new Date(), decision: null }).where(eq(operations.id, b!.id));
    const finished = await decide(ids.other, b!.id, 'CANCEL', 'operator');
    expect(finished.statusCode).toBe(409);
    expect(finished.json().detail).toBe(`Operation ${b!.id} has finished; only a queued, pending or running operation can be cancelled`);
    expect((await row(b!.id)).decision).toBeNull();
    expect((await decide(ids.other, c!.id, 'PROCEED', 'operator')).statusCode).toBe(409);
  });

  it('answers 404 for an operation of another machine, an unknown one, a hidden machine; 403 to a viewer; 400 for bad params', async () => {
    const [op] = await queued(`/machines/${ids.plain}/queue-operations`, { operations: ['SmokeTest'] });
    expect((await decide(ids.other, op!.id, 'CANCEL')).statusCode).toBe(404);
    expect((await decide(ids.plain, 2_000_000_000, 'CANCEL')).statusCode).toBe(404);
    const [cp] = await queued(`/machines/${ids.cp}/queue-operations`, { operations: ['SmokeTest'] }, 'admin');
    expect((await decide(ids.cp, cp!.id, 'CANCEL', 'operator')).statusCode).toBe(404);
    expect((await decide(ids.plain, op!.id, 'CANCEL', 'viewer')).statusCode).toBe(403);
    const bad = await decide(ids.plain, op!.id, 'MAYBE');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('params');
    expect((await row(op!.id)).decision).toBeNull();
  });
});

describe('POST /machines/{id}/reset-last-operation', () => {
  it('answers 409 with the reason when the machine has no unfinished operation', async () => {
    const res = await call('POST', `/machines/${ids.empty}/reset-last-operation`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('The machine has no queued, pending or running operation');
  });

  it('ends the latest unfinished operation FAILURE ("Reset by"), clears its lease, keeps failCounter, emits OperationFinished', async () => {
    const [first, second] = await queued(`/machines/${ids.empty}/queue-operations`, { operations: ['SmokeTest', 'Backup'] });
    await t.database.db
      .update(operations)
      .set({ status: 'RUNNING', startedAt: new Date(), worker: 'w1', heartbeatAt: new Date(), attempts: 1, output: 'started\n' })
      .where(eq(operations.id, second!.id));
    const before = events.length;
    const [reset] = await queued(`/machines/${ids.empty}/reset-last-operation`);
    expect(reset).toMatchObject({ id: second!.id, status: 'FAILURE', failCounter: 2 });
    expect(reset!.finishTime).not.toBeNull();
    const stored = await row(second!.id);
    expect(stored).toMatchObject({ worker: null, heartbeatAt: null, failCounter: 2, status: 'FAILURE' });
    expect(stored.output).toMatch(/^started\n\d{4}-\d\d-\d\dT[\d:.]+Z Reset by operator\n$/);
    expect((await t.database.db.select().from(machines).where(eq(machines.id, ids.empty)))[0]!.failCounter).toBe(2);
    expect(events.slice(before).map((e) => [e.name, e.operation.id, e.operation.status])).toEqual([['OperationFinished', second!.id, 'FAILURE']]);
    expect((await lastActivity('ResetLastOperation')).metadata).toMatchObject({
      params: { machineId: ids.empty, operationId: second!.id },
      changes: [{ entityName: 'Operation', propertyName: 'status', oldValue: 'RUNNING', newValue: 'FAILURE' }],
    });
    expect((await queued(`/machines/${ids.empty}/reset-last-operation`))[0]!.id).toBe(first!.id);
    expect((await call('POST', `/machines/${ids.empty}/reset-last-operation`)).statusCode).toBe(409);
  });

  it('answers 404 for a hidden machine and 403 to a viewer', async () => {
    expect((await call('POST', `/machines/${ids.cpOfAccount}/reset-last-operation`)).statusCode).toBe(404);
    expect((await call('POST', `/machines/${ids.plain}/reset-last-operation`, 'viewer')).statusCode).toBe(403);
  });
});

describe('Reinstall Sample Data (PATCH /accounts/{id}/machines/{machineId})', () => {
  const patch = (body: unknown) => call('PATCH', `/accounts/${ids.account}/machines/${ids.other}`, 'operator', body);
  const reinstalls = async () =>
    (await t.database.db.select().from(operations).where(sql`${operations.machineId} = ${ids.other} and ${operations.typeName} = 'ReinstallSampleData'`)).length;

  it('queues ReinstallSampleData with the new choice, caused by the UpdateMachine activity', async () => {
    expect((await patch({ sampleData: 'Select', sampleDataFile: 'campus-demo.zip' })).statusCode).toBe(200);
    const activity = await lastActivity('UpdateMachine');
    const [op] = await t.database.db.select().from(operations).where(eq(operations.activityId, activity.id));
    expect(op).toMatchObject({ typeName: 'ReinstallSampleData', userName: 'operator', params: { sampleData: 'Select', sampleDataFile: 'campus-demo.zip' } });
    expect((await patch({ sampleData: 'Default' })).statusCode).toBe(200);
    const [next] = await t.database.db.select().from(operations).where(eq(operations.activityId, (await lastActivity('UpdateMachine')).id));
    expect(next!.params).toEqual({ sampleData: 'Default', sampleDataFile: null });
  });

  it('queues nothing when the sample data does not change', async () => {
    const n = await reinstalls();
    expect((await patch({ sampleData: 'Default' })).statusCode).toBe(200);
    expect((await patch({ turbo: true })).statusCode).toBe(200);
    expect(await reinstalls()).toBe(n);
  });
});

describe('GET /user-activities/{id}/trail', () => {
  const trail = (id: number, as = 'operator') => call('GET', `/user-activities/${id}/trail`, as);

  it('lists the task a machine action queued and the operations a dialog queued', async () => {
    const task = await ok<TTask>('POST', `/machines/${ids.plain}/stop`);
    const stop = await lastActivity('StopMachine');
    expect((await t.database.db.select().from(machineTasks).where(eq(machineTasks.id, task.id)))[0]!.activityId).toBe(stop.id);
    const stopTrail = (await trail(stop.id)).json() as TActivityTrail;
    expect(stopTrail).toEqual({ tasks: [task], operations: [] });
    const ops = await queued(`/machines/${ids.plain}/queue-operations`, { operations: ['ApplyConfig', 'SmokeTest'] });
    const opsTrail = (await trail((await lastActivity('QueueOperations')).id)).json() as TActivityTrail;
    expect(opsTrail.tasks).toEqual([]);
    expect(opsTrail.operations.map((o: TOperation) => o.id)).toEqual(ops.map((o) => o.id));
  });

  it('links change instance type, machine creation and account deletion to their tasks', async () => {
    await ok('POST', `/machines/${ids.plain}/change-instance-type`, 'operator', { instanceTypeId: 3 });
    expect(((await trail((await lastActivity('ChangeInstanceType')).id)).json() as TActivityTrail).tasks.map((x) => x.type)).toEqual(['ChangeInstanceType']);
    const fresh = await insertAccount(t.database.db, { name: 'Ops Fresh', classId: 2 });
    const [site] = await t.database.db
      .insert(sites)
      .values({ accountId: fresh.id, name: 'Site 1', urlFriendlyName: 'site1', domainName: `site1-${fresh.urlFriendlyName}.fleet.example` })
      .returning();
    const created = await ok<{ task: TTask }>('POST', `/accounts/${fresh.id}/machines`, 'operator', { isLauncher: true, siteId: site!.id, accountId: fresh.id });
    expect(((await trail((await lastActivity('CreateMachine')).id)).json() as TActivityTrail).tasks).toEqual([created.task]);
    const doomed = await insertAccount(t.database.db, { name: 'Ops Doomed', classId: 2 });
    const [m1, m2] = [await insertMachine(t.database.db, { accountId: doomed.id, classId: 2 }), await insertMachine(t.database.db, { accountId: doomed.id, classId: 2 })];
    await ok('DELETE', `/accounts/${doomed.id}`, 'operator');
    const deletion = (await trail((await lastActivity('DeleteAccount')).id)).json() as TActivityTrail;
    expect(deletion.tasks.map((x) => [x.type, x.machineId])).toEqual([
      ['TerminateMachine', m1.id],
      ['TerminateMachine', m2.id],
    ]);
  });

  it('answers 404 for an unknown activity and for one of a hidden account; leaves out hidden machines', async () => {
    expect((await trail(2_000_000_000)).statusCode).toBe(404);
    await ok('POST', `/machines/${ids.cpOfAccount}/queue-operations`, 'admin', { operations: ['SmokeTest'] });
    const hidden = await lastActivity('QueueOperations');
    expect((await trail(hidden.id)).statusCode).toBe(404);
    expect(((await trail(hidden.id, 'admin')).json() as TActivityTrail).operations).toHaveLength(1);
    // A Customer Production machine inside a visible account: the activity shows, its operation does not.
    await ok('POST', `/machines/${ids.cp}/queue-operations`, 'admin', { operations: ['SmokeTest'] });
    const ofHiddenMachine = await lastActivity('QueueOperations');
    expect(((await trail(ofHiddenMachine.id)).json() as TActivityTrail).operations).toEqual([]);
    expect(((await trail(ofHiddenMachine.id, 'admin')).json() as TActivityTrail).operations).toHaveLength(1);
    expect((await call('GET', `/user-activities/abc/trail`)).statusCode).toBe(400);
  });
});
