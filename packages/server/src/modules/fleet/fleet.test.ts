import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import type { TMachineStats, TSaasImage } from '@fleet/contracts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const cp = await insertAccount(t.database.db, { name: 'Stats CP', classId: 5 });
  await insertMachine(t.database.db, { accountId: cp.id, classId: 5, needsAdmin: true });
});
afterAll(() => t.close());

const stats = async (as: string) => (await t.call({ method: 'GET', url: '/machines/stats', as })).json() as TMachineStats;

describe('GET /machines/stats', () => {
  it('counts every class for every user, and tells a user without the group what it cannot open', async () => {
    const admin = await stats('admin');
    const operator = await stats('operator');
    for (const s of [admin, operator]) {
      expect(s.classStats.map((c) => c.class.name)).toEqual([
        'Experimental',
        'Internal Testing',
        'Internal Production',
        'Customer Staging',
        'Customer Production',
        'On Premise',
      ]);
    }
    expect(admin.classStats.find((c) => c.class.id === 5)!.total).toBeGreaterThanOrEqual(1);
    // The same counts for both; the operator is told which it cannot open (all of Customer Production), the admin none.
    const counts = (s: typeof admin) => s.classStats.map(({ class: c, total }) => ({ c, total }));
    expect(counts(operator)).toEqual(counts(admin));
    expect(admin.classStats.map((c) => c.restricted)).toEqual([0, 0, 0, 0, 0, 0]);
    const cp = operator.classStats.find((c) => c.class.id === 5)!;
    expect(cp.restricted).toBe(cp.total);
    expect([operator.needsAdmin, operator.turbo, operator.unmanaged]).toEqual([admin.needsAdmin, admin.turbo, admin.unmanaged]);
    expect(admin.restricted).toEqual({ classIds: [], needsAdmin: 0, turbo: 0, unmanaged: 0 });
    expect(operator.restricted.classIds).toEqual([5]);
    expect(operator.restricted.needsAdmin).toBeGreaterThanOrEqual(1);
    expect(admin.totalCost).toBeGreaterThanOrEqual(admin.runningCost);
  });

  it('needs a token', async () => {
    expect((await t.call({ method: 'GET', url: '/machines/stats' })).statusCode).toBe(401);
  });
});

describe('GET /mma/stats and /mma/classes', () => {
  it('counts MMA instances on standby', async () => {
    const res = await t.call({ method: 'GET', url: '/mma/stats', as: 'viewer' });
    expect(res.statusCode).toBe(200);
    const classes = (await t.call({ method: 'GET', url: '/mma/classes', as: 'viewer' })).json();
    const standby = classes.filter((c: { mmaInstance: { standby: boolean } | null }) => c.mmaInstance?.standby).length;
    expect(res.json()).toMatchObject({ standby });
  });
});

describe('GET /cloud/images', () => {
  it('lists the images; a jump-start image carries its deployer, SSL, monitoring, versions and library files', async () => {
    const res = await t.call({ method: 'GET', url: '/cloud/images', as: 'viewer' });
    expect(res.statusCode, res.body).toBe(200);
    const images = res.json() as TSaasImage[];
    const plain = images.filter((i) => !i.jumpStart);
    const jumpStart = images.filter((i) => i.jumpStart);
    expect(plain.length).toBeGreaterThan(0);
    expect(jumpStart.length).toBeGreaterThan(0);
    expect(plain.every((i) => i.jumpStartConfig === null)).toBe(true);

    const campus = jumpStart.find((i) => i.name === 'js-8.1.3-campus-use1')!;
    const config = campus.jumpStartConfig!;
    expect(config.enableSsl).toBe(true);
    expect(config.showInGrafana).toBe(true);
    expect(config.deployer).toMatch(/^master\|[0-9a-f]{7,}$/);
    expect(Object.keys(config.versions)).toEqual(
      expect.arrayContaining(['launcher', 'siteMaster', 'smchk', 'client', 'reporting', 'pdfExport', 'sqlExport', 'populate', 'auditChangeLog']),
    );
    expect(config.versions.launcher).toMatch(/^release\/8\.1\|[0-9a-f]{7,}$/);
    // The library files are Prod files of the image's IRMN version.
    const files = (await t.call({ method: 'GET', url: '/library/files', as: 'viewer', query: { limit: '1000', type: 'Prod', version: '8.1' } })).json() as {
      items: { id: number }[];
    };
    expect(config.libraryFiles.length).toBeGreaterThan(0);
    expect(config.libraryFiles.every((id) => files.items.some((f) => f.id === id))).toBe(true);

    const preview = jumpStart.find((i) => i.name.includes('preview'))!;
    expect(preview.jumpStartConfig!.showInGrafana).toBe(false);
  });
});
