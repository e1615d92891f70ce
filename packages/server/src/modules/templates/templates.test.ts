/**
 * API tests of templates (spec 1 §2 Manage Templates, §3 Template, §5): kinds,
 * template accounts, private templates, name and value rules, owner rules, audit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTemplate } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities, fieldErrors } from '../../../test/account-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const list = async (type: string, as = 'admin') => {
  const res = await t.call({ method: 'GET', url: `/template/${type}`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TTemplate[];
};
const save = (type: string, body: unknown, as = 'admin') => t.call({ method: 'POST', url: `/template/${type}`, as, body });

describe('GET /template/{type}', () => {
  it('lists the templates of each kind with their flattened settings, then the template accounts', async () => {
    const general = await list('general');
    const sandbox = general.find((x) => x.name === 'Internal sandbox')!;
    expect(sandbox).toMatchObject({ isTemplate: true, isPublic: true, account: null, classId: 1, billingPeriod: 'Biweekly', billingAmount: 10, contactName: '' });
    const accountsOnly = general.filter((x) => !x.isTemplate);
    expect(accountsOnly.length).toBeGreaterThan(0);
    expect(accountsOnly[0]).toMatchObject({ account: { id: expect.any(Number) }, contactEmail: expect.stringContaining('@') });

    const license = await list('license-settings');
    expect(license.find((x) => x.name === 'Enterprise IPSM')).toMatchObject({ instancePolicy: 'InstancePerSiteMaster', cloudInstanceType: 5 });
    const instance = await list('instance-settings');
    expect(instance.find((x) => x.name === 'v8.1 EU')).toMatchObject({ region: 'eu-west-1', vmImageName: 'irmn-8.1.3-win2022-euw1' });
    expect(instance.filter((x) => !x.isTemplate).every((x) => typeof x.vmImageName === 'string')).toBe(true);
    const backup = await list('backup-settings');
    expect(backup.find((x) => x.name === 'Production twice daily')).toMatchObject({ times: expect.any(Array), manualEolAction: 'Delete' });
  });

  it('shows a private template only to its owner', async () => {
    const mine = (await list('general', 'admin')).find((x) => x.name === 'Staging for customer trials');
    expect(mine).toMatchObject({ isPublic: false, owner: 'admin' });
    expect((await list('general', 'operator')).map((x) => x.name)).not.toContain('Staging for customer trials');
    const hidden = await t.call({ method: 'PUT', url: `/template/general/${mine!.id}`, as: 'operator', body: { name: 'Taken over' } });
    expect(hidden.statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/template/general/${mine!.id}`, as: 'operator' })).statusCode).toBe(404);
  });

  it('answers 400 for an unknown kind', async () => {
    expect(fieldErrors(await t.call({ method: 'GET', url: '/template/everything', as: 'viewer' }))[0]).toMatch(/^type:/);
  });
});

describe('POST, PUT and DELETE /template/{type}', () => {
  it("needs a name ('Template name is required') and settings that fit the kind", async () => {
    expect(fieldErrors(await save('general', { isPublic: true }))).toEqual(['name: Template name is required']);
    expect(fieldErrors(await save('general', { name: '   ' }))).toEqual(['name: Template name is required']);
    const res = await save('backup-settings', { name: 'Bad backup', weeklyBackupDay: 9, dailyEolAction: 'Shred' });
    expect(fieldErrors(res)).toEqual([
      'weeklyBackupDay: Weekly backup day must be between 1 (Monday) and 7 (Sunday)',
      'dailyEolAction: End-of-life action must be Delete or MoveToGlacier',
    ]);
    expect(fieldErrors(await save('license-settings', { name: 'Bad license', cloudCredits: 0 }))).toEqual(['cloudCredits: Maximum Credits must be between 1 and 1000']);
  });

  it('saves a template of each kind, normalised like account settings, and audits it', async () => {
    const general = await save('general', { name: 'Trial general', isPublic: false, classId: 4, contactName: 'Pat', billingPeriod: 'Monthly', billingAmount: 99 });
    expect(general.statusCode, general.body).toBe(200);
    expect(general.json()).toMatchObject({ name: 'Trial general', isPublic: false, isTemplate: true, owner: 'admin', classId: 4, managed: true, billingAmount: 99 });
    const license = await save('license-settings', { name: 'Trial license', instancePolicy: 'AllInOne', maxSites: 9 });
    expect(license.json()).toMatchObject({ maxSites: 1, cloudCredits: 1000 });
    expect(license.json()).not.toHaveProperty('expirationTime');
    const instance = await save('instance-settings', { name: 'Trial instance', region: 'us-east-1', vmImageName: 'irmn-8.1.3-win2022-use1', launcherVersionMode: 'Select' });
    expect(instance.json()).toMatchObject({ launcherVersionMode: 'None', autoStopTime: null, enableSsl: true });
    const backup = await save('backup-settings', { name: 'Trial backup', times: ['06:00', '6:00', '06:10'] });
    expect(backup.json().times).toEqual(['06:00']);

    const [activity] = await activities(t, undefined, 'CreateTemplate');
    expect(activity).toMatchObject({ user: 'admin', metadata: { params: { type: 'backup-settings', name: 'Trial backup' } } });
    expect((await list('general', 'operator')).map((x) => x.name)).not.toContain('Trial general');
  });

  it('lets the owner replace and delete a template; others get 403; seeded ownerless ones are shared', async () => {
    const created = (await save('backup-settings', { name: 'Owner only', isPublic: true }, 'operator')).json() as TTemplate;
    const other = await t.call({ method: 'PUT', url: `/template/backup-settings/${created.id}`, as: 'admin', body: { name: 'Mine now' } });
    expect(other.statusCode).toBe(403);
    const updated = await t.call({ method: 'PUT', url: `/template/backup-settings/${created.id}`, as: 'operator', body: { name: 'Owner only v2', monthlyBackupDay: 15 } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Owner only v2', monthlyBackupDay: 15 });
    const [change] = await activities(t, undefined, 'UpdateTemplate');
    expect(change!.metadata.changes).toEqual(
      expect.arrayContaining([{ entityName: 'Template', propertyName: 'name', oldValue: 'Owner only', newValue: 'Owner only v2' }]),
    );

    expect((await t.call({ method: 'DELETE', url: `/template/backup-settings/${created.id}`, as: 'admin' })).statusCode).toBe(403);
    const deleted = await t.call({ method: 'DELETE', url: `/template/backup-settings/${created.id}`, as: 'operator' });
    expect(deleted.json()).toEqual({ ok: true });
    expect((await t.call({ method: 'DELETE', url: `/template/backup-settings/${created.id}`, as: 'operator' })).statusCode).toBe(404);
    expect((await activities(t, undefined, 'DeleteTemplate'))[0]).toMatchObject({ user: 'operator', metadata: { params: { name: 'Owner only v2' } } });

    const seeded = (await list('backup-settings', 'operator')).find((x) => x.name === 'Standard retention')!;
    const shared = await t.call({ method: 'PUT', url: `/template/backup-settings/${seeded.id}`, as: 'operator', body: { name: 'Standard retention', times: ['05:00'] } });
    expect(shared.statusCode, shared.body).toBe(200);
  });

  it('answers 404 for a template of another kind and 403 for viewers', async () => {
    const seeded = (await list('backup-settings')).find((x) => x.isTemplate)!;
    expect((await t.call({ method: 'PUT', url: `/template/general/${seeded.id}`, as: 'admin', body: { name: 'x' } })).statusCode).toBe(404);
    expect((await save('general', { name: 'Viewer template' }, 'viewer')).statusCode).toBe(403);
  });
});
