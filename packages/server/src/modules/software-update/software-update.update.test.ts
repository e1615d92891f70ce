/**
 * API tests of `POST /software-update/update-machines` and `/update-accounts`
 * (spec 3 §2.8, §7; DESIGN §12, §15) through the real app on the demo fleet:
 * account mode changes the config, bumps the version and the machines follow;
 * machine mode overrides only its machines, the override survives a full
 * resolution and follows new commits, account mode clears it; dry runs write
 * nothing; hidden ids answer like unknown ones; one refused target changes
 * nothing; the bounds; and the deploy controller deploys an overridden machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { MAX_UPDATE_TARGETS, type TBatchResult, type TInstanceSettings } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { seededAccountId } from '../../../test/account-fixtures.js';
import { commitsOf, freshAccounts } from '../../../test/deploy-fixtures.js';
import { accountSettings, machines, operations } from '../../db/schema.js';
import { createOperationQueue } from '../../engine/operations/queue.js';
import { queueDeploys } from '../../engine/desired-state/controller.js';
import { recordCommit, resolveAllDesiredStates } from '../../engine/desired-state/desired-state.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const db = () => t.database.db;

/** A seeded account not Customer Production nor add-on, with at least two managed, live, up-to-date machines; another one each call. */
const freshAccount = freshAccounts(db);

const machineRows = (ids: number[]) => db().select().from(machines).where(inArray(machines.id, ids)).orderBy(machines.id);
/** Activities of the software update (other activities, such as sign-ins, are not counted). */
const activityCount = async () =>
  (await db().execute<{ n: number }>(sql`select count(*)::int as n from audit_activities where action in ('UpdateMachinesSoftware', 'UpdateAccountsSoftware')`)).rows[0]!.n;
const settingsOf = async (accountId: number) => (await db().select().from(accountSettings).where(eq(accountSettings.accountId, accountId)))[0]!;

const update = (kind: 'machines' | 'accounts', body: Record<string, unknown>, as = 'admin') =>
  t.call({ method: 'POST', url: `/software-update/update-${kind}`, as, body });

async function ok(kind: 'machines' | 'accounts', body: Record<string, unknown>, as = 'admin'): Promise<TBatchResult> {
  const res = await update(kind, body, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TBatchResult;
}

describe('account mode', () => {
  it('dry run answers the changes and the resolved commit, and writes nothing', async () => {
    const account = await freshAccount();
    const [, older] = await commitsOf(db(), 'launcher', 'master');
    const before = { settings: await settingsOf(account.id), machines: await machineRows(account.machineIds), activities: await activityCount() };
    const result = await ok('accounts', { accounts: [account.id], launcherVersionMode: 'Select', launcherVersion: `master|${older}`, dryRun: true });
    expect(result).toMatchObject({ dryRun: true, changed: 1, refused: 0, activityId: null, rolloutId: null });
    const [target] = result.targets;
    expect(target).toMatchObject({ id: account.id, refused: null });
    expect(target!.changes).toEqual([
      { field: 'launcherVersion', oldValue: expect.any(String), newValue: `Select master|${older}`, resolved: `master|${older}` },
    ]);
    expect(await settingsOf(account.id)).toEqual(before.settings);
    expect(await machineRows(account.machineIds)).toEqual(before.machines);
    expect(await activityCount()).toBe(before.activities);
  });

  it('changes the config, bumps the version, the machines follow, Skip leaves a software; one audited activity', async () => {
    const account = await freshAccount();
    const [, older] = await commitsOf(db(), 'launcher', 'master');
    const before = await settingsOf(account.id);
    const result = await ok('accounts', { accounts: [account.id], launcherVersionMode: 'Select', launcherVersion: `master|${older}` });
    expect(result).toMatchObject({ dryRun: false, changed: 1, refused: 0 });
    const after = await settingsOf(account.id);
    expect(after.instanceVersion).toBe(before.instanceVersion + 1);
    expect(after.machineConfig).toMatchObject({ launcherVersionMode: 'Select', launcherVersion: `master|${older}` });
    expect(after.machineConfig.siteMasterVersionMode).toBe(before.machineConfig.siteMasterVersionMode);
    expect(after.machineConfig.siteMasterVersion).toBe(before.machineConfig.siteMasterVersion);
    for (const m of await machineRows(account.machineIds)) {
      expect(m).toMatchObject({ obsolete: true, desiredActivityId: result.activityId });
      expect(m.desiredVersions.launcher).toBe(`master|${older}`);
    }
    const settings = await t.call({ method: 'GET', url: `/accounts/${account.id}/instance-settings`, as: 'admin' });
    expect((settings.json() as TInstanceSettings).version).toBe(after.instanceVersion);
    const { rows } = await db().execute<{ action: string; changes: { entityName: string; propertyName: string }[]; params: Record<string, unknown> }>(
      sql`select action, changes, params from audit_activities where id = ${result.activityId}`,
    );
    expect(rows[0]).toMatchObject({ action: 'UpdateAccountsSoftware', params: { accountIds: [account.id] } });
    expect(rows[0]!.changes).toEqual([expect.objectContaining({ entityName: `Account ${account.id}`, propertyName: 'launcherVersion' })]);
  });

  it("is atomic: a target the push's rules refuse answers 422 naming it and the rule; nothing changes", async () => {
    const [a, b] = [await freshAccount(), await freshAccount()];
    const before = [await settingsOf(a.id), await settingsOf(b.id)];
    const addOn = await seededAccountId(t, { classId: 200 });
    const activities = await activityCount();
    const mixed = await update('accounts', { accounts: [a.id, addOn, b.id], launcherVersionMode: 'None' });
    expect(mixed.statusCode, mixed.body).toBe(422);
    expect(mixed.json()).toMatchObject({ errors: [{ propertyName: 'accounts.1', attemptedValue: addOn }] });
    const unknown = await update('accounts', { accounts: [a.id, b.id], launcherVersionMode: 'Select', launcherVersion: 'master|fffffff' });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect((unknown.json() as { errors: { propertyName: string; errorMessage: string }[] }).errors).toEqual([
      expect.objectContaining({ propertyName: 'accounts.0', errorMessage: expect.stringContaining('Launcher version is not a known commit') }),
      expect.objectContaining({ propertyName: 'accounts.1', errorMessage: expect.stringContaining('Launcher version is not a known commit') }),
    ]);
    expect([await settingsOf(a.id), await settingsOf(b.id)]).toEqual(before);
    expect(await activityCount()).toBe(activities);
  });

  it('sets library modes and files in account mode', async () => {
    const account = await freshAccount();
    const { rows } = await db().execute<{ id: number }>(sql`select id from library_files order by id limit 1`);
    const file = rows[0]!.id;
    const result = await ok('accounts', { accounts: [account.id], mainLibraryMode: 'Select', mainLibraryFiles: [file], accountLibraryMode: 'None' });
    expect(result.targets[0]!.changes.map((c) => c.field)).toContain('mainLibraryFiles');
    expect((await settingsOf(account.id)).machineConfig).toMatchObject({ mainLibraryMode: 'Select', mainLibraryFiles: [file], accountLibraryMode: 'None', accountLibraryFiles: [] });
  });

  it('refuses add-on accounts (422), and viewers (403)', async () => {
    const addOn = await seededAccountId(t, { classId: 200 });
    const res = await update('accounts', { accounts: [addOn], launcherVersionMode: 'None' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ propertyName: 'accounts.0', attemptedValue: addOn }] });
    const dry = await ok('accounts', { accounts: [addOn], launcherVersionMode: 'None', dryRun: true });
    expect(dry.targets[0]!.refused).toBe('Add-on accounts have no instance settings');
    expect((await update('accounts', { accounts: [addOn], launcherVersionMode: 'None' }, 'viewer')).statusCode).toBe(403);
  });
});

describe('machine mode', () => {
  it('overrides the desired versions of only those machines; survives a full resolution; follows a new commit; account mode clears it', async () => {
    const account = await freshAccount();
    const [first, second] = account.machineIds as [number, number];
    const [, older] = await commitsOf(db(), 'siteMaster', 'master');
    const current = (await machineRows([first]))[0]!.currentVersions.siteMaster ?? null;

    const dry = await ok('machines', { machines: [first], siteMasterVersionMode: 'Select', siteMasterVersion: `master|${older}`, dryRun: true });
    expect(dry.targets[0]!.changes).toEqual([
      { field: 'siteMasterVersion', oldValue: expect.any(String), newValue: `Select master|${older}`, resolved: `master|${older}`, running: current },
    ]);
    expect((await machineRows([first]))[0]!.versionOverrides).toEqual({});

    const result = await ok('machines', { machines: [first], siteMasterVersionMode: 'Select', siteMasterVersion: `master|${older}` });
    expect(result).toMatchObject({ changed: 1, refused: 0 });
    const [m1, m2] = await machineRows([first, second]);
    expect(m1!.versionOverrides).toEqual({ siteMaster: { mode: 'Select', version: `master|${older}` } });
    expect(m1!.desiredVersions.siteMaster).toBe(`master|${older}`);
    expect(m1!.desiredActivityId).toBe(result.activityId);
    expect(m2!.versionOverrides).toEqual({});
    expect(m2!.obsolete).toBe(false);

    expect(await resolveAllDesiredStates(db())).toBe(0);
    expect((await machineRows([first]))[0]!.desiredVersions.siteMaster).toBe(`master|${older}`);

    // Skip leaves the override; Latest on a branch follows that branch's new commits.
    await ok('machines', { machines: [first], launcherVersionMode: 'Latest', launcherVersion: 'develop' });
    expect((await machineRows([first]))[0]!.versionOverrides).toEqual({
      siteMaster: { mode: 'Select', version: `master|${older}` },
      launcher: { mode: 'Latest', version: 'develop|latest' },
    });
    const { changed } = await db().transaction((tx) =>
      recordCommit(tx, { software: 'launcher', branch: 'develop', shortHash: 'dec0de1', fullHash: 'dec0de1'.padEnd(40, '0'), author: 'Test', message: 'Override', timestamp: new Date() }),
    );
    expect(changed.map((c) => c.id)).toContain(first);
    expect((await machineRows([first]))[0]!.desiredVersions.launcher).toBe('develop|dec0de1');

    // Account mode for the site master clears that override only; the machines agree with the account again.
    const acc = await ok('accounts', { accounts: [account.id], siteMasterVersionMode: 'Latest', siteMasterVersion: 'master' });
    expect(acc.targets[0]!.changes.map((c) => c.field)).toContain('versionOverrides');
    const [n1, n2] = await machineRows([first, second]);
    expect(n1!.versionOverrides).toEqual({ launcher: { mode: 'Latest', version: 'develop|latest' } });
    expect(n1!.desiredVersions.siteMaster).toBe(n2!.desiredVersions.siteMaster);
    expect(n1!.desiredVersions.launcher).toBe('develop|dec0de1');
  });

  it('the deploy controller queues an UpdateSoftware for an overridden machine, caused by the update', async () => {
    const account = await freshAccount();
    const [first, second] = account.machineIds as [number, number];
    const [, older] = await commitsOf(db(), 'launcher', 'master');
    const result = await ok('machines', { machines: [first], launcherVersionMode: 'Select', launcherVersion: `master|${older}` });
    await queueDeploys(db(), { queue: createOperationQueue({ announce: () => undefined }) });
    const ops = await db()
      .select()
      .from(operations)
      .where(and(inArray(operations.machineId, [first, second]), eq(operations.typeName, 'UpdateSoftware'), sql`${operations.finishedAt} is null`));
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ machineId: first, activityId: result.activityId });
    expect((ops[0]!.params as { versions: Record<string, string> }).versions.launcher).toBe(`master|${older}`);
  });

  it('is atomic: one refused machine (terminating, unresolvable version) answers 422 naming it, and nothing changes', async () => {
    const account = await freshAccount();
    const [first, second] = account.machineIds as [number, number];
    await db().update(machines).set({ terminate: true }).where(eq(machines.id, second));
    const activities = await activityCount();
    const res = await update('machines', { machines: [first, second], launcherVersionMode: 'None' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ propertyName: 'machines.1', attemptedValue: second, errorMessage: expect.stringContaining('being terminated') }] });
    expect((await machineRows([first, second])).map((m) => m.versionOverrides)).toEqual([{}, {}]);
    expect(await activityCount()).toBe(activities);

    const unknown = await update('machines', { machines: [first], launcherVersionMode: 'Select', launcherVersion: 'master|fffffff' });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(JSON.stringify(unknown.json())).toContain('Launcher version Select master|fffffff does not resolve');
    const dry = await ok('machines', { machines: [first, second], launcherVersionMode: 'None', dryRun: true });
    expect(dry).toMatchObject({ refused: 1, changed: 1 });
  });

  it('refuses library modes (400 naming the field) and rollouts until they are wired (422)', async () => {
    const account = await freshAccount();
    const res = await update('machines', { machines: [account.machineIds[0]], mainLibraryMode: 'None' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errors: [{ propertyName: 'mainLibraryMode' }] });
    const rollout = await update('machines', { machines: [account.machineIds[0]], launcherVersionMode: 'None', rollout: {} });
    expect(rollout.statusCode, rollout.body).toBe(200);
    expect(rollout.json()).toMatchObject({ dryRun: false, rolloutId: expect.any(Number) });
  });
});

describe('ids and bounds', () => {
  it('answers 404 for hidden ids exactly as for unknown ones, dry run or not', async () => {
    const cp = await seededAccountId(t, { classId: 5 });
    const [cpMachine] = await db().select({ id: machines.id }).from(machines).where(eq(machines.accountId, cp)).limit(1);
    const unknownId = 2_000_000_000;
    for (const dryRun of [true, false]) {
      for (const [kind, id] of [
        ['machines', cpMachine!.id],
        ['accounts', cp],
      ] as const) {
        const hidden = await update(kind, { [kind]: [id], launcherVersionMode: 'None', dryRun }, 'operator');
        const unknown = await update(kind, { [kind]: [unknownId], launcherVersionMode: 'None', dryRun }, 'operator');
        expect(hidden.statusCode, hidden.body).toBe(404);
        expect(unknown.statusCode).toBe(404);
        const label = kind === 'machines' ? 'Machine' : 'Account';
        expect(hidden.json()).toMatchObject({ errors: [{ propertyName: `${kind}.0`, errorMessage: `${label} ${id} was not found` }] });
        expect(unknown.json()).toMatchObject({ errors: [{ propertyName: `${kind}.0`, errorMessage: `${label} ${unknownId} was not found` }] });
        expect(Object.keys(hidden.json() as object).sort()).toEqual(Object.keys(unknown.json() as object).sort());
      }
    }
    // The admin (CustomerProductionAccess) may.
    expect((await update('accounts', { accounts: [cp], launcherVersionMode: 'None', dryRun: true })).statusCode).toBe(200);
  });

  it(`validates the bound: ${MAX_UPDATE_TARGETS} ids pass validation, one more is 400`, async () => {
    const ids = Array.from({ length: MAX_UPDATE_TARGETS }, (_, i) => 1_000_000 + i);
    const atBound = await update('machines', { machines: ids, launcherVersionMode: 'None', dryRun: true });
    expect(atBound.statusCode).toBe(404);
    const over = await update('machines', { machines: [...ids, 2_000_000], launcherVersionMode: 'None', dryRun: true });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ errors: [{ propertyName: 'machines' }] });
  });
});
