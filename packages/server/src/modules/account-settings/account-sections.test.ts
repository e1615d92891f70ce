/**
 * API tests of the instance settings, backup settings and idle schedule pushes
 * (spec 1 §2 Instance Settings, §4 modes, §5 rules; DESIGN §5): locked fields,
 * catalogue checks, normalisation, add-on accounts, stale versions and audit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TInstanceSettings } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount } from '../../../test/fixtures.js';
import { activities, detail, fieldErrors, seededAccountId } from '../../../test/account-fixtures.js';
import { accounts, softwareCommits } from '../../db/schema.js';

let t: TestApp;
const ids = { internal: 0, addOn: 0, cp: 0, blank: 0 };

beforeAll(async () => {
  t = await startTestApp();
  ids.internal = await seededAccountId(t, { classId: 3 });
  ids.addOn = await seededAccountId(t, { classId: 200 });
  ids.cp = await seededAccountId(t, { classId: 5 });
  // An account without stored instance settings: nothing is locked yet.
  ids.blank = (await insertAccount(t.database.db, { name: 'Blank Settings', classId: 2 })).id;
});
afterAll(() => t.close());

const instance = async (id: number, as = 'admin') => {
  const res = await t.call({ method: 'GET', url: `/accounts/${id}/instance-settings`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TInstanceSettings;
};
const pushInstance = (id: number, body: Record<string, unknown>, as = 'admin') =>
  t.call({ method: 'PUT', url: `/accounts/${id}/instance-settings`, as, body });

describe('instance settings', () => {
  it('reads the machineConfig with its version; add-on accounts have none (422)', async () => {
    const s = await instance(ids.internal);
    expect(s).toMatchObject({ version: 1, region: expect.any(String), vmImageName: expect.any(String) });
    expect(s.launcherVersionMode).toMatch(/^(Latest|Select|LatestBuild|None)$/);
    const res = await t.call({ method: 'GET', url: `/accounts/${ids.addOn}/instance-settings`, as: 'viewer' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Add-on accounts have no instance settings');
    expect((await pushInstance(ids.addOn, { ...s, version: 1 })).statusCode).toBe(422);
  });

  it('locks region, image, SSL and sample data of an existing account, naming each field', async () => {
    const s = await instance(ids.internal);
    const res = await pushInstance(ids.internal, {
      ...s,
      region: s.region === 'eu-west-1' ? 'us-east-1' : 'eu-west-1',
      vmImageName: 'irmn-8.0.7-win2019-use1' === s.vmImageName ? 'irmn-8.1.3-win2022-use1' : 'irmn-8.0.7-win2019-use1',
      enableSsl: !s.enableSsl,
      includeSampleData: !s.includeSampleData,
      sampleDataFile: s.includeSampleData ? null : 'campus-demo.zip',
    });
    expect(fieldErrors(res)).toEqual(
      expect.arrayContaining([
        'region: Region cannot be changed for an existing account',
        'vmImageName: Image cannot be changed for an existing account',
        'enableSsl: SSL cannot be changed for an existing account',
        'includeSampleData: Sample data cannot be changed for an existing account',
      ]),
    );
  });

  it("requires an image ('Image is required')", async () => {
    const s = await instance(ids.internal);
    expect(fieldErrors(await pushInstance(ids.internal, { ...s, vmImageName: '' }))).toEqual(['vmImageName: Image is required']);
    const { vmImageName: _omitted, ...rest } = s;
    expect(fieldErrors(await pushInstance(ids.internal, rest))).toEqual(['vmImageName: Image is required']);
  });

  it('normalises version modes, checks versions and library files, audits and bumps the version', async () => {
    const s = await instance(ids.internal);
    const [commit] = await t.database.db.select().from(softwareCommits).where(eq(softwareCommits.software, 'reporting')).limit(1);
    const bad = await pushInstance(ids.internal, {
      ...s,
      launcherVersionMode: 'Select',
      launcherVersion: 'master|0000000',
      clientVersionMode: 'Latest',
      clientVersion: 'no-such-branch',
      mainLibraryMode: 'Select',
      mainLibraryFiles: [987654],
    });
    expect(fieldErrors(bad)).toEqual([
      'mainLibraryFiles.0: Library file 987654 does not exist',
      'launcherVersion: Launcher version is not a known commit',
      "clientVersion: Web Client branch 'no-such-branch' does not exist",
    ]);

    const res = await pushInstance(ids.internal, {
      ...s,
      launcherVersionMode: 'Select',
      launcherVersion: '',
      clientVersionMode: 'Latest',
      clientVersion: '',
      reportingVersionMode: 'Select',
      reportingVersion: `master|${commit!.shortHash}`,
      deployerVersionMode: 'LatestBuild',
      deployerVersion: 'ignored',
      mainLibraryMode: 'Select',
      mainLibraryFiles: [],
      keyType: 'Unique',
      showInGrafana: !s.showInGrafana,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      version: s.version + 1,
      launcherVersionMode: 'None',
      launcherVersion: '',
      clientVersion: 'master|latest',
      reportingVersion: `master|${commit!.shortHash}`,
      deployerVersion: '',
      mainLibraryMode: 'None',
      useUniqueKey: true,
    });
    const [activity] = await activities(t, ids.internal, 'PushInstanceSettings');
    expect(activity!.metadata.changes).toEqual(
      expect.arrayContaining([{ entityName: 'MachineConfig', propertyName: 'showInGrafana', oldValue: s.showInGrafana, newValue: !s.showInGrafana }]),
    );
    const stale = await pushInstance(ids.internal, { ...s }, 'operator');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toContain('Instance settings');
  });

  it('checks a first image: it exists, is active and lies in the region; a blank region becomes the image region', async () => {
    const s = await instance(ids.blank);
    expect(s.region).toBe('');
    const push = (change: Record<string, unknown>) => pushInstance(ids.blank, { ...s, ...change });
    expect(fieldErrors(await push({ vmImageName: 'no-such-image' }))).toEqual(["vmImageName: Image 'no-such-image' does not exist", 'region: Region is required']);
    expect(fieldErrors(await push({ vmImageName: 'irmn-7.6.2-win2016-use1' }))[0]).toBe("vmImageName: Image 'irmn-7.6.2-win2016-use1' is not active");
    expect(fieldErrors(await push({ vmImageName: 'irmn-8.1.3-win2022-use1', region: 'eu-west-1' }))).toEqual([
      "vmImageName: Image 'irmn-8.1.3-win2022-use1' is in region us-east-1, not eu-west-1",
    ]);
    const ok = await push({ vmImageName: 'irmn-8.1.3-win2022-use1', region: '' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ region: 'us-east-1', vmImageName: 'irmn-8.1.3-win2022-use1' });
    const [row] = await t.database.db.select({ vmImageName: accounts.vmImageName }).from(accounts).where(eq(accounts.id, ids.blank));
    expect(row!.vmImageName).toBe('irmn-8.1.3-win2022-use1');
  });

  it('answers 404 to operators for Customer Production and 403 to viewers', async () => {
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.cp}/instance-settings`, as: 'operator' })).statusCode).toBe(404);
    const s = await instance(ids.internal);
    expect((await pushInstance(ids.internal, s, 'viewer')).statusCode).toBe(403);
  });
});

describe('backup settings', () => {
  const push = async (id: number, change: Record<string, unknown>, as = 'admin') => {
    const a = await detail(t, id);
    return t.call({ method: 'PUT', url: `/accounts/${id}/backup-settings`, as, body: { ...a.backupConfig, version: a.versions.backup, ...change } });
  };

  it('keeps times in 30-minute steps, ignoring invalid and duplicate ones', async () => {
    const res = await push(ids.internal, { times: ['05:00', '5:00', '25:00', '05:15', 'noon', '2026-11-23T22:30:00Z', '1:30', '23:30', '24:00'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().times).toEqual(['01:30', '05:00', '22:30', '23:30']);
  });

  it('lists every error with its attempted value: days, retention, end-of-life actions', async () => {
    const res = await push(ids.internal, {
      weeklyBackupDay: 8,
      monthlyBackupDay: 29,
      dailyDaysToRetain: 0,
      monthlyDaysToRetain: -3,
      manualEolAction: 'Burn',
    });
    expect(fieldErrors(res)).toEqual([
      'weeklyBackupDay: Weekly backup day must be between 1 (Monday) and 7 (Sunday)',
      'monthlyBackupDay: Monthly backup day must be between 1 and 28',
      'dailyDaysToRetain: Daily retention days must be at least 1',
      'monthlyDaysToRetain: Monthly retention days must be at least 1',
      'manualEolAction: End-of-life action must be Delete or MoveToGlacier',
    ]);
    expect(res.json().errors.map((e: { attemptedValue: unknown }) => e.attemptedValue)).toEqual([8, 29, 0, -3, 'Burn']);
    expect(fieldErrors(await push(ids.internal, { weeklyBackupDay: 0 }))[0]).toMatch(/^weeklyBackupDay:/);
  });

  it('accepts the limits, audits, and refuses a stale version', async () => {
    const a = await detail(t, ids.internal);
    const body = { ...a.backupConfig, weeklyBackupDay: 7, monthlyBackupDay: 28, manualDaysToRetain: 1, weeklyEolAction: 'Delete', version: a.versions.backup };
    const res = await t.call({ method: 'PUT', url: `/accounts/${ids.internal}/backup-settings`, as: 'admin', body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ weeklyBackupDay: 7, monthlyBackupDay: 28, version: a.versions.backup + 1 });
    const [activity] = await activities(t, ids.internal, 'PushBackupSettings');
    expect(activity!.metadata.changes).toEqual(expect.arrayContaining([expect.objectContaining({ propertyName: 'monthlyBackupDay', newValue: 28 })]));
    const stale = await t.call({ method: 'PUT', url: `/accounts/${ids.internal}/backup-settings`, as: 'admin', body });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toMatch(/Backup settings .* last pushed by admin/);
  });

  it('answers 422 for add-on accounts', async () => {
    const res = await t.call({ method: 'PUT', url: `/accounts/${ids.addOn}/backup-settings`, as: 'admin', body: { version: 1 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Add-on accounts have no backup settings');
  });
});

describe('idle schedule', () => {
  const push = (id: number, idleSchedules: unknown, version: number, as = 'admin') =>
    t.call({ method: 'PUT', url: `/accounts/${id}/idle-schedule`, as, body: { idleSchedules, version } });

  it('needs resume after at least 0 hours and a date-time stop, naming each entry', async () => {
    const res = await push(ids.internal, [{ stopAt: 'tomorrow', resumeAfter: 1 }, { stopAt: '2026-12-01T18:00:00Z', resumeAfter: -1 }], 1);
    expect(fieldErrors(res)).toEqual(['idleSchedules.0.stopAt: Stop at must be a date and time', 'idleSchedules.1.resumeAfter: Resume after must be at least 0 hours']);
    expect(res.json().errors[1].attemptedValue).toBe(-1);
  });

  it('stores the entries in time order, audits them, refuses a stale version', async () => {
    const a = await detail(t, ids.internal);
    const entries = [
      { stopAt: '2026-12-02T20:00:00+01:00', resumeAfter: 0 },
      { stopAt: '2026-12-01T18:00:00Z', resumeAfter: 12.5 },
    ];
    const res = await push(ids.internal, entries, a.versions.idle);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      version: a.versions.idle + 1,
      idleSchedules: [
        { stopAt: '2026-12-01T18:00:00.000Z', resumeAfter: 12.5 },
        { stopAt: '2026-12-02T19:00:00.000Z', resumeAfter: 0 },
      ],
    });
    expect((await detail(t, ids.internal)).idleSchedules).toHaveLength(2);
    const [activity] = await activities(t, ids.internal, 'PushIdleSchedule');
    expect(activity!.metadata.changes[0]).toMatchObject({ entityName: 'IdleSchedule', propertyName: 'idleSchedules' });
    expect((await push(ids.internal, [], a.versions.idle)).statusCode).toBe(409);
  });

  it('answers 422 for add-on accounts and 403 for viewers', async () => {
    expect((await push(ids.addOn, [], 1)).statusCode).toBe(422);
    expect((await push(ids.internal, [], 1, 'viewer')).statusCode).toBe(403);
  });
});
