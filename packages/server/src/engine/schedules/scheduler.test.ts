/**
 * The scheduler (DESIGN §13) against a real PostgreSQL with the demo fleet and
 * a clock the test moves (no waiting in real time): daily, weekly and monthly
 * backups at their UTC times; a time missed while the server was down runs
 * once; two workers' passes at once run each due time once; retention by
 * Delete and by MoveToGlacier (object store and `GET /accounts/{id}/backups`);
 * idle stop and resume; autoStopTime once; every action audited as
 * `Scheduler` in the activity log; bad settings and bad rows do not stop a pass.
 *
 * The demo accounts' own schedules are cleared first so that each test sees
 * only its own fixture accounts act.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TBackupFilesResponse } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities } from '../../../test/account-fixtures.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { accountSettings, backupFiles, machines, machineTasks, operations, scheduleDue } from '../../db/schema.js';
import { createLocalObjectStore } from '../../storage/local-store.js';
import type { ObjectStore } from '../../storage/object-store.js';
import { createTaskEvents } from '../push/events.js';
import { createOperationQueue, type OperationQueue } from '../operations/queue.js';
import { createTaskQueue, type TaskQueue } from '../tasks/queue.js';
import { createScheduler, type PassReport, type RunReport, type Scheduler } from './scheduler.js';
import { isoWeekday } from './times.js';
import { TOO_LATE } from './planner.js';

let t: TestApp;
let store: ObjectStore;
let storeRoot: string;
let queue: OperationQueue;
let tasks: TaskQueue;
/** The clock every scheduler of this file reads. */
let clock = new Date('2030-01-01T00:00:00Z');
const at = (iso: string) => {
  clock = new Date(iso);
};
const db = () => t.database.db;
let scheduler: Scheduler;

beforeAll(async () => {
  t = await startTestApp();
  storeRoot = await mkdtemp(join(tmpdir(), 'fleet-schedules-'));
  store = createLocalObjectStore({ root: storeRoot });
  queue = createOperationQueue({ announce: () => undefined });
  tasks = createTaskQueue({ events: createTaskEvents() });
  scheduler = createScheduler({ db: db(), operations: queue, tasks, store, now: () => clock });
  // Only the fixture accounts of this file have schedules.
  await db().execute(sql`update account_settings set backup_config = backup_config || '{"times": []}',
    idle_schedules = '[]', machine_config = machine_config || '{"autoStopTime": null}'`);
  at('2029-12-01T00:00:00Z');
  await scheduler.pass();
});
afterAll(async () => {
  await t.close();
  await rm(storeRoot, { recursive: true, force: true });
});

/** An account of class Experimental with a launcher and a site master machine (running), and its settings. */
async function fixtureAccount(settings: { backupConfig?: Record<string, unknown>; idleSchedules?: unknown; machineConfig?: Record<string, unknown> }) {
  const account = await insertAccount(db(), { name: 'Schedules Fixture', classId: 1 });
  await db()
    .insert(accountSettings)
    .values({
      accountId: account.id,
      backupConfig: settings.backupConfig ?? {},
      idleSchedules: (settings.idleSchedules ?? []) as { stopAt: string; resumeAfter: number }[],
      machineConfig: { autoStopTime: null, ...settings.machineConfig },
    });
  const launcher = await insertMachine(db(), { accountId: account.id, isLauncher: true, name: `sched-${account.id}-launcher` });
  const siteMaster = await insertMachine(db(), { accountId: account.id, isSiteMaster: true, name: `sched-${account.id}-site1` });
  return { account, launcher, siteMaster };
}

/** Pushes a section the way the API does: new value, version + 1. */
async function push(accountId: number, values: { backupConfig?: Record<string, unknown>; idleSchedules?: unknown; machineConfig?: Record<string, unknown> }) {
  await db()
    .update(accountSettings)
    .set({
      ...(values.backupConfig ? { backupConfig: values.backupConfig, backupVersion: sql`${accountSettings.backupVersion} + 1` } : {}),
      ...(values.idleSchedules ? { idleSchedules: values.idleSchedules as never, idleVersion: sql`${accountSettings.idleVersion} + 1` } : {}),
      ...(values.machineConfig ? { machineConfig: values.machineConfig, instanceVersion: sql`${accountSettings.instanceVersion} + 1` } : {}),
    })
    .where(eq(accountSettings.accountId, accountId));
}

const backupsOf = (accountId: number) =>
  db().select().from(operations).where(and(eq(operations.accountId, accountId), eq(operations.typeName, 'Backup'))).orderBy(operations.id);
const tasksOf = (accountId: number) => db().select().from(machineTasks).where(eq(machineTasks.accountId, accountId)).orderBy(machineTasks.id);
/** Marks the account's queued operations finished (as if the agent ran them), so the next time queues new ones. */
const finishOperations = (accountId: number) =>
  db().update(operations).set({ status: 'SUCCESS', startedAt: clock, finishedAt: clock }).where(eq(operations.accountId, accountId));
const machineRow = async (id: number) => (await db().select().from(machines).where(eq(machines.id, id)))[0]!;

/** The runs of a pass that concern these accounts, retention left out (every account's retention runs at each midnight). */
const runsFor = (report: PassReport, ...accountIds: number[]): RunReport[] => report.runs.filter((r) => r.kind !== 'retention' && accountIds.includes(r.accountId));
/** The retention runs of a pass for the account. */
const retentionRuns = (report: PassReport, accountId: number): RunReport[] => report.runs.filter((r) => r.kind === 'retention' && r.accountId === accountId);

/** A UTC day of 2030 that is neither `weekly` nor `monthly` day of the default settings (weekday 1, day 1). */
const PLAIN_DAY = '2030-01-08'; // a Tuesday

describe('backups at their times', () => {
  it('queues a daily Backup at each time (UTC) for the launcher and the site master, audited as Scheduler', async () => {
    expect(isoWeekday(new Date(`${PLAIN_DAY}T00:00:00Z`))).toBe(2);
    const { account, launcher, siteMaster } = await fixtureAccount({ backupConfig: { times: ['17:30', '05:00'] } });
    at(`${PLAIN_DAY}T04:00:00Z`);
    const planned = await scheduler.pass();
    expect(runsFor(planned, account.id)).toEqual([]);
    expect(await backupsOf(account.id)).toEqual([]);

    at(`${PLAIN_DAY}T04:59:59Z`);
    expect(runsFor(await scheduler.pass(), account.id)).toEqual([]);
    at(`${PLAIN_DAY}T05:00:00Z`);
    const report = runsFor(await scheduler.pass(), account.id);
    expect(report.map((r) => [r.kind, r.accountId])).toEqual([['backup', account.id]]);
    const ops = await backupsOf(account.id);
    expect(ops.map((o) => [o.machineId, o.userName, o.params.category, o.activityId])).toEqual([
      [launcher.id, 'Scheduler', 'daily', report[0]!.activityId],
      [siteMaster.id, 'Scheduler', 'daily', report[0]!.activityId],
    ]);
    const [activity] = await activities(t, account.id, 'ScheduledBackup');
    expect(activity).toMatchObject({ user: 'Scheduler', accounts: [{ id: account.id }] });
    expect(activity!.metadata.params).toMatchObject({ category: 'daily', dueAt: `${PLAIN_DAY}T05:00:00.000Z` });

    // Nothing more until 17:30; then again.
    at(`${PLAIN_DAY}T17:29:00Z`);
    expect(runsFor(await scheduler.pass(), account.id)).toEqual([]);
    await finishOperations(account.id);
    at(`${PLAIN_DAY}T17:30:05Z`);
    expect(runsFor(await scheduler.pass(), account.id).map((r) => r.summary)).toEqual(['daily Backup queued for 2 machine(s)']);
    expect(await backupsOf(account.id)).toHaveLength(4);
  });

  it('the first time of the weekly day is weekly, of the monthly day monthly; the other times daily', async () => {
    // 2030-01-14 is a Monday (weekday 1); 2030-02-03 is day 3 of its month and a Sunday.
    const { account } = await fixtureAccount({ backupConfig: { times: ['02:00', '14:00'], weeklyBackupDay: 1, monthlyBackupDay: 3 } });
    const categories: string[] = [];
    for (const time of ['2030-01-13T23:00:00Z', '2030-01-14T02:00:00Z', '2030-01-14T14:00:00Z', '2030-02-03T02:00:00Z', '2030-02-03T14:00:00Z']) {
      at(time);
      await scheduler.pass();
      await finishOperations(account.id);
    }
    for (const o of await backupsOf(account.id)) if (o.machineId === (await backupsOf(account.id))[0]!.machineId) categories.push(String(o.params.category));
    // 2030-02-03 comes after a jump over weeks (missed while down): one run, the highest missed category.
    expect(categories).toEqual(['weekly', 'daily', 'monthly', 'daily']);
  });

  it('a time missed while the server was down runs once at the next start, with the highest category missed', async () => {
    const { account } = await fixtureAccount({ backupConfig: { times: ['01:00', '13:00'], weeklyBackupDay: 7, monthlyBackupDay: 28 } });
    at('2030-03-10T00:00:00Z');
    await scheduler.pass();
    // Down from 2030-03-10 to 2030-03-19 18:00: 18 times missed, a Sunday (weekday 7) among them.
    at('2030-03-19T18:00:00Z');
    const report = await scheduler.pass();
    expect(runsFor(report, account.id)).toHaveLength(1);
    const ops = await backupsOf(account.id);
    expect(ops.map((o) => o.params.category)).toEqual(['weekly', 'weekly']);
    const [row] = await db().select().from(scheduleDue).where(and(eq(scheduleDue.accountId, account.id), eq(scheduleDue.kind, 'backup')));
    expect(row!.dueAt.toISOString()).toBe('2030-03-20T01:00:00.000Z');
    expect(runsFor(await scheduler.pass(), account.id)).toEqual([]);
  });

  it('a machine whose scheduled Backup has not started gets no second one', async () => {
    const { account, launcher } = await fixtureAccount({ backupConfig: { times: ['03:00'] } });
    at('2030-04-01T00:00:00Z');
    await scheduler.pass();
    at('2030-04-02T03:00:00Z');
    await scheduler.pass();
    await db().update(operations).set({ status: 'SUCCESS', finishedAt: clock }).where(and(eq(operations.accountId, account.id), sql`${operations.machineId} <> ${launcher.id}`));
    at('2030-04-03T03:00:00Z');
    await scheduler.pass();
    const ops = await backupsOf(account.id);
    expect(ops.filter((o) => o.machineId === launcher.id)).toHaveLength(1);
    expect(ops).toHaveLength(3);
    const [latest] = await activities(t, account.id, 'ScheduledBackup');
    expect(latest!.metadata.params).toMatchObject({ alreadyQueued: [{ machineId: launcher.id }] });
  });
});

describe('exactly once', () => {
  it('two workers passing at the same time run each due time once', async () => {
    const workers: Database[] = [connectDatabase(t.database.pool.options.connectionString!, { max: 4 }), connectDatabase(t.database.pool.options.connectionString!, { max: 4 })];
    try {
      const fixtures = await Promise.all(Array.from({ length: 6 }, () => fixtureAccount({ backupConfig: { times: ['06:00'] }, idleSchedules: [{ stopAt: '2030-05-02T06:00:00.000Z', resumeAfter: 2 }] })));
      const ids = fixtures.map((f) => f.account.id);
      const [a, b] = workers.map((w) => createScheduler({ db: w.db, operations: queue, tasks, store, now: () => clock }));
      at('2030-05-01T12:00:00Z');
      await Promise.all([a!.pass(), b!.pass()]);
      for (const time of ['2030-05-02T06:00:00Z', '2030-05-02T08:00:00Z']) {
        at(time);
        const reports = await Promise.all([a!.pass(), b!.pass(), a!.pass()]);
        const runs = reports.flatMap((r) => runsFor(r, ...ids));
        const perAccount = (kind: string) => ids.map((id) => runs.filter((r) => r.accountId === id && r.kind === kind).length);
        if (time.endsWith('06:00:00Z')) {
          expect(perAccount('backup')).toEqual([1, 1, 1, 1, 1, 1]);
          expect(perAccount('idle-stop')).toEqual([1, 1, 1, 1, 1, 1]);
        } else {
          expect(perAccount('idle-resume')).toEqual([1, 1, 1, 1, 1, 1]);
        }
      }
      const ops = await db().select().from(operations).where(inArray(operations.accountId, ids));
      expect(ops).toHaveLength(12);
      const stops = await db().select().from(machineTasks).where(and(inArray(machineTasks.accountId, ids), eq(machineTasks.type, 'StopMachine')));
      const starts = await db().select().from(machineTasks).where(and(inArray(machineTasks.accountId, ids), eq(machineTasks.type, 'StartMachine')));
      expect([stops.length, starts.length]).toEqual([12, 12]);
      for (const id of ids) expect(await activities(t, id, 'ScheduledBackup')).toHaveLength(1);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });
});

describe('retention', () => {
  /** A backup file of the machine, `days` old at the clock, with its object. */
  async function file(m: { id: number; accountId: number }, category: string, days: number, name: string) {
    const objectKey = `backups/${m.accountId}/${m.id}/${name}`;
    await store.put(objectKey, new TextEncoder().encode(name));
    await db()
      .insert(backupFiles)
      .values({ accountId: m.accountId, machineId: m.id, softwareName: 'launcher', name, createdAt: new Date(clock.getTime() - days * 86_400_000), category, size: name.length, objectKey });
    return objectKey;
  }

  it('once a day, each category past its days gets its end-of-life action: Delete removes object and row, MoveToGlacier changes the class', async () => {
    const backupConfig = { times: [], dailyDaysToRetain: 7, dailyEolAction: 'Delete', weeklyDaysToRetain: 28, weeklyEolAction: 'MoveToGlacier', monthlyDaysToRetain: 90, monthlyEolAction: 'Delete', manualDaysToRetain: 3, manualEolAction: 'MoveToGlacier' };
    const { account, launcher } = await fixtureAccount({ backupConfig });
    at('2030-06-10T12:00:00Z');
    await scheduler.pass();
    const n = account.id;
    const keys = {
      oldDaily: await file(launcher, 'daily', 8, `r${n}-daily-old.sql.gz`),
      newDaily: await file(launcher, 'daily', 6, `r${n}-daily-new.sql.gz`),
      oldWeekly: await file(launcher, 'weekly', 29, `r${n}-weekly-old.sql.gz`),
      newWeekly: await file(launcher, 'weekly', 27, `r${n}-weekly-new.sql.gz`),
      oldMonthly: await file(launcher, 'monthly', 91, `r${n}-monthly-old.sql.gz`),
      oldManual: await file(launcher, 'manual', 4, `r${n}-manual-old.sql.gz`),
    };
    at('2030-06-10T23:59:59Z');
    expect(retentionRuns(await scheduler.pass(), n)).toEqual([]);
    at('2030-06-11T00:00:00Z');
    const report = await scheduler.pass();
    expect(retentionRuns(report, n).map((r) => r.summary)).toEqual(['retention: 2 deleted, 2 moved to Glacier']);

    expect(await store.exists(keys.oldDaily)).toBe(false);
    expect(await store.exists(keys.oldMonthly)).toBe(false);
    expect((await store.head(keys.oldWeekly))?.storageClass).toBe('Glacier');
    expect((await store.head(keys.oldManual))?.storageClass).toBe('Glacier');
    expect((await store.head(keys.newWeekly))?.storageClass).toBe('Standard');
    expect(await store.exists(keys.newDaily)).toBe(true);

    const res = await t.call({ method: 'GET', url: `/accounts/${n}/backups`, as: 'admin', query: { limit: '50' } });
    expect(res.statusCode, res.body).toBe(200);
    const listed = (res.json() as TBackupFilesResponse).items.map((f) => [f.name, f.storageClass]).sort();
    expect(listed).toEqual(
      [
        [`r${n}-daily-new.sql.gz`, 'Standard'],
        [`r${n}-manual-old.sql.gz`, 'Glacier'],
        [`r${n}-weekly-new.sql.gz`, 'Standard'],
        [`r${n}-weekly-old.sql.gz`, 'Glacier'],
      ].sort(),
    );
    const [activity] = await activities(t, n, 'BackupRetention');
    expect(activity).toMatchObject({ user: 'Scheduler' });
    expect(activity!.metadata.params).toMatchObject({
      deleted: { daily: [`r${n}-daily-old.sql.gz`], monthly: [`r${n}-monthly-old.sql.gz`] },
      movedToGlacier: { weekly: [`r${n}-weekly-old.sql.gz`], manual: [`r${n}-manual-old.sql.gz`] },
    });

    // Once a day: later that day nothing, though the new daily file has aged meanwhile.
    at('2030-06-11T20:00:00Z');
    await db().update(backupFiles).set({ createdAt: new Date('2030-06-01T00:00:00Z') }).where(eq(backupFiles.objectKey, keys.newDaily));
    expect(retentionRuns(await scheduler.pass(), n)).toEqual([]);
    at('2030-06-12T00:00:30Z');
    // The new daily file is past its 7 days now, the new weekly one past its 28.
    expect(retentionRuns(await scheduler.pass(), n).map((r) => r.summary)).toEqual(['retention: 1 deleted, 1 moved to Glacier']);
    expect(await store.exists(keys.newDaily)).toBe(false);
  });
});

describe('idle schedule and auto-stop', () => {
  beforeEach(() => at('2030-07-01T00:00:00Z'));

  it('stops the running machines at stopAt (stop and idle true, StopMachine tasks) and starts them after resumeAfter hours', async () => {
    const { account, launcher, siteMaster } = await fixtureAccount({ idleSchedules: [{ stopAt: '2030-07-01T20:00:00.000Z', resumeAfter: 10 }] });
    // An operator stopped the site master: the idle schedule neither marks it idle nor starts it.
    await db().update(machines).set({ stop: true }).where(eq(machines.id, siteMaster.id));
    await scheduler.pass();
    at('2030-07-01T19:59:00Z');
    await scheduler.pass();
    expect(await tasksOf(account.id)).toEqual([]);

    at('2030-07-01T20:00:10Z');
    const stop = runsFor(await scheduler.pass(), account.id);
    expect(stop.map((r) => [r.kind, r.summary])).toEqual([['idle-stop', 'idle stop of 1 machine(s) until 2030-07-02T06:00:00.000Z']]);
    expect(await machineRow(launcher.id)).toMatchObject({ stop: true, idle: true });
    expect(await machineRow(siteMaster.id)).toMatchObject({ stop: true, idle: false });
    const [stopTask] = await tasksOf(account.id);
    expect(stopTask).toMatchObject({ machineId: launcher.id, type: 'StopMachine', status: 'New', activityId: stop[0]!.activityId });
    const [activity] = await activities(t, account.id, 'IdleStop');
    expect(activity).toMatchObject({ user: 'Scheduler' });
    expect(activity!.metadata.changes).toEqual([
      { entityName: `Machine ${launcher.name}`, propertyName: 'stop', oldValue: false, newValue: true },
      { entityName: `Machine ${launcher.name}`, propertyName: 'idle', oldValue: false, newValue: true },
    ]);

    at('2030-07-02T05:59:00Z');
    expect(runsFor(await scheduler.pass(), account.id)).toEqual([]);
    at('2030-07-02T06:00:00Z');
    expect(runsFor(await scheduler.pass(), account.id).map((r) => r.kind)).toEqual(['idle-resume']);
    expect(await machineRow(launcher.id)).toMatchObject({ stop: false, idle: false });
    expect(await machineRow(siteMaster.id)).toMatchObject({ stop: true, idle: false });
    expect((await tasksOf(account.id)).map((x) => [x.machineId, x.type])).toEqual([
      [launcher.id, 'StopMachine'],
      [launcher.id, 'StartMachine'],
    ]);
    expect(await activities(t, account.id, 'IdleResume')).toHaveLength(1);
    // Pushing the schedule again (same entry) does not stop them a second time.
    await push(account.id, { idleSchedules: [{ stopAt: '2030-07-01T20:00:00.000Z', resumeAfter: 10 }, { stopAt: '2030-07-05T20:00:00.000Z', resumeAfter: 1 }] });
    at('2030-07-02T06:30:00Z');
    expect(runsFor(await scheduler.pass(), account.id)).toEqual([]);
  });

  it('a window missed entirely while down stops nothing; one still open stops at the next start', async () => {
    const { account: over } = await fixtureAccount({ idleSchedules: [{ stopAt: '2030-07-01T10:00:00.000Z', resumeAfter: 2 }] });
    const { account: open, launcher } = await fixtureAccount({ idleSchedules: [{ stopAt: '2030-07-01T10:00:00.000Z', resumeAfter: 48 }] });
    await scheduler.pass();
    at('2030-07-01T15:00:00Z');
    const report = await scheduler.pass();
    expect(runsFor(report, over.id, open.id).map((r) => [r.accountId, r.summary])).toEqual([
      [over.id, 'idle window over before it could run'],
      [open.id, 'idle stop of 2 machine(s) until 2030-07-03T10:00:00.000Z'],
    ]);
    expect(await tasksOf(over.id)).toEqual([]);
    expect(await machineRow(launcher.id)).toMatchObject({ stop: true, idle: true });
  });

  it('autoStopTime stops the machines once; a time already long past when first seen is not run', async () => {
    const { account, launcher, siteMaster } = await fixtureAccount({ machineConfig: { autoStopTime: '2030-07-01T12:00:00.000Z' } });
    const { account: old } = await fixtureAccount({ machineConfig: { autoStopTime: '2030-06-01T12:00:00.000Z' } });
    await scheduler.pass();
    const [skipped] = await db().select().from(scheduleDue).where(and(eq(scheduleDue.accountId, old.id), eq(scheduleDue.kind, 'auto-stop')));
    expect(skipped).toMatchObject({ lastError: TOO_LATE });
    expect(skipped!.doneAt).not.toBeNull();

    at('2030-07-01T12:00:00Z');
    expect(runsFor(await scheduler.pass(), account.id, old.id).map((r) => [r.kind, r.accountId])).toEqual([['auto-stop', account.id]]);
    expect(await machineRow(launcher.id)).toMatchObject({ stop: true, idle: false });
    expect(await machineRow(siteMaster.id)).toMatchObject({ stop: true, idle: false });
    expect((await tasksOf(account.id)).map((x) => x.type)).toEqual(['StopMachine', 'StopMachine']);
    expect(await activities(t, account.id, 'AutoStop')).toMatchObject([{ user: 'Scheduler' }]);
    // Started again by an operator: the auto-stop does not come back.
    await db().update(machines).set({ stop: false }).where(eq(machines.accountId, account.id));
    at('2030-07-05T12:00:00Z');
    expect(runsFor(await scheduler.pass(), account.id, old.id)).toEqual([]);
    expect(await tasksOf(old.id)).toEqual([]);
  });
});

describe('bad settings', () => {
  it('a section that does not parse is reported and planned as nothing; a row whose run fails is moved on; the others still run', async () => {
    at('2030-08-02T00:30:00Z');
    const { account: bad } = await fixtureAccount({ backupConfig: { times: ['01:00'], weeklyBackupDay: 99 }, idleSchedules: [{ stopAt: 'tomorrow', resumeAfter: -1 }, 'x'] });
    const { account: broken } = await fixtureAccount({ backupConfig: { times: ['01:00'] } });
    const { account: good } = await fixtureAccount({ backupConfig: { times: ['01:00'] } });
    const planned = await scheduler.pass();
    expect(planned.problems.find((p) => p.accountId === bad.id)?.problems).toEqual([
      'Invalid backup settings: weeklyBackupDay: Weekly backup day must be between 1 (Monday) and 7 (Sunday)',
      '2 invalid idle schedule entries left out',
    ]);
    // A row whose plan was damaged in the database.
    await db().update(scheduleDue).set({ params: { times: 'nonsense' } }).where(and(eq(scheduleDue.accountId, broken.id), eq(scheduleDue.kind, 'backup')));

    at('2030-08-02T01:00:00Z');
    const report = await scheduler.pass();
    const mine = runsFor(report, bad.id, broken.id, good.id);
    expect(mine.map((r) => [r.accountId, r.kind, r.error ?? r.summary])).toEqual([
      [broken.id, 'backup', 'The backup schedule row has no valid plan'],
      [good.id, 'backup', 'daily Backup queued for 2 machine(s)'],
    ]);
    const [row] = await db().select().from(scheduleDue).where(and(eq(scheduleDue.accountId, broken.id), eq(scheduleDue.kind, 'backup')));
    expect(row).toMatchObject({ lastError: 'The backup schedule row has no valid plan' });
    expect(row!.dueAt.getTime()).toBeGreaterThan(clock.getTime());
    expect(runsFor(await scheduler.pass(), bad.id, broken.id, good.id)).toEqual([]);
    // A push repairs it.
    await push(broken.id, { backupConfig: { times: ['02:00'] } });
    await scheduler.pass();
    at('2030-08-02T02:00:00Z');
    expect(runsFor(await scheduler.pass(), broken.id).map((r) => r.summary)).toEqual(['daily Backup queued for 2 machine(s)']);
  });
});
