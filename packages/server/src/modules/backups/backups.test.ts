/**
 * `GET /accounts/{id}/backups`, `GET /sample-data-files` and the machine's own
 * backups in `GET /machines/{id}` (DESIGN §13) through the real app on a real
 * PostgreSQL: answers, filters, paging, bad input, and what a user without
 * CustomerProductionAccess may not see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_CUSTOMER_STAGING, MACHINE_DETAIL_BACKUPS, type TBackupFile, type TSampleDataFile } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { sampleDataFiles } from '../../db/schema.js';
import { insertSeedBackupFiles, type NewBackupFile } from './backups.repository.js';

let t: TestApp;
let account: { id: number };
let launcher: { id: number };
let site: { id: number };
let hiddenMachine: { id: number };
let productionAccount: { id: number };

const at = (day: number, hour = 4) => new Date(Date.UTC(2026, 10, day, hour));
let n = 0;
function file(machine: { id: number }, accountId: number, softwareName: string, createdAt: Date, extra: Partial<NewBackupFile> = {}): NewBackupFile {
  n += 1;
  const name = `routes-${machine.id}-${softwareName}-${n}.sql.gz`;
  return { accountId, machineId: machine.id, softwareName, name, createdAt, category: 'daily', size: 1000 + n, objectKey: `backups/${accountId}/${machine.id}/${name}`, ...extra };
}

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  account = await insertAccount(db, { name: 'Backups Routes', classId: CLASS_CUSTOMER_STAGING });
  launcher = await insertMachine(db, { accountId: account.id, classId: CLASS_CUSTOMER_STAGING, isLauncher: true, name: 'backups-routes-launcher' });
  site = await insertMachine(db, { accountId: account.id, classId: CLASS_CUSTOMER_STAGING, isSiteMaster: true, name: 'backups-routes-site' });
  // A Customer Production machine inside a visible account: its files are hidden without the group.
  hiddenMachine = await insertMachine(db, { accountId: account.id, classId: CLASS_CUSTOMER_PRODUCTION, isLauncher: true, name: 'backups-routes-hidden' });
  productionAccount = await insertAccount(db, { name: 'Backups Production', classId: CLASS_CUSTOMER_PRODUCTION });
  const productionMachine = await insertMachine(db, { accountId: productionAccount.id, classId: CLASS_CUSTOMER_PRODUCTION, isSiteMaster: true });

  const rows: NewBackupFile[] = [];
  // 25 daily launcher backups (more than the detail's 20), one manual Glacier one, site master pairs.
  for (let day = 1; day <= 25; day++) rows.push(file(launcher, account.id, 'launcher', at(day)));
  rows.push(file(launcher, account.id, 'launcher', at(26, 12), { category: 'manual', storageClass: 'Glacier' }));
  for (let day = 1; day <= 3; day++) {
    rows.push(file(site, account.id, 'siteMaster', at(day, 5)), file(site, account.id, 'auditChangeLog', at(day, 5)));
  }
  rows.push(file(hiddenMachine, account.id, 'launcher', at(27)));
  rows.push(file(productionMachine, productionAccount.id, 'siteMaster', at(27)));
  await insertSeedBackupFiles(db, rows);

  await db.insert(sampleDataFiles).values([
    { name: 'zeta-demo.zip', size: 5000, publishedBy: 'seed', objectKey: 'sample-data/default/zeta-demo.zip' },
    { name: 'alpha-demo.zip', size: 4000, publishedBy: 'operator', sourceMachineId: site.id, objectKey: 'sample-data/op-1/alpha-demo.zip' },
    { name: 'prod-demo.zip', size: 3000, publishedBy: 'admin', sourceMachineId: productionMachine.id, objectKey: 'sample-data/op-2/prod-demo.zip' },
  ]);
});
afterAll(() => t?.close());

const backups = async (accountId: number, as: string, query: Record<string, string> = {}) => {
  const res = await t.call({ method: 'GET', url: `/accounts/${accountId}/backups`, as, query });
  return { status: res.statusCode, body: res.json() as { items: TBackupFile[]; totalItems: number } };
};

describe('GET /accounts/{id}/backups', () => {
  it('lists the account files newest first, paged, with every field', async () => {
    const { status, body } = await backups(account.id, 'admin', { limit: '5' });
    expect(status).toBe(200);
    expect(body.totalItems).toBe(25 + 1 + 6 + 1);
    expect(body.items).toHaveLength(5);
    expect(body.items[0]).toMatchObject({ machineId: hiddenMachine.id, softwareName: 'launcher', createdAt: at(27).toISOString() });
    expect(body.items[1]).toMatchObject({ accountId: account.id, machineId: launcher.id, softwareName: 'launcher', category: 'manual', storageClass: 'Glacier' });
    expect(Object.keys(body.items[1]!).sort()).toEqual(['accountId', 'category', 'createdAt', 'id', 'machineId', 'name', 'size', 'softwareName', 'storageClass']);
    const times = body.items.map((i) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const next = await backups(account.id, 'admin', { limit: '5', startIndex: '5' });
    expect(next.body.items[0]!.createdAt < body.items[4]!.createdAt || next.body.items[0]!.id < body.items[4]!.id).toBe(true);
  });

  it('filters by software and by machine', async () => {
    const audit = await backups(account.id, 'admin', { softwareName: 'auditChangeLog' });
    expect(audit.body.totalItems).toBe(3);
    expect(audit.body.items.every((i) => i.softwareName === 'auditChangeLog' && i.machineId === site.id)).toBe(true);
    const ofSite = await backups(account.id, 'admin', { machineId: String(site.id) });
    expect(ofSite.body.totalItems).toBe(6);
    const none = await backups(account.id, 'admin', { machineId: String(site.id), softwareName: 'launcher' });
    expect(none.body).toEqual({ items: [], totalItems: 0 });
  });

  it('is readable without write; leaves out files of machines hidden from the user', async () => {
    const viewer = await backups(account.id, 'viewer', { limit: '100' });
    expect(viewer.status).toBe(200);
    expect(viewer.body.totalItems).toBe(25 + 1 + 6);
    expect(viewer.body.items.some((i) => i.machineId === hiddenMachine.id)).toBe(false);
  });

  it('answers 404 for an unknown account and for a Customer Production account without the group', async () => {
    expect((await backups(999_999, 'admin')).status).toBe(404);
    const hidden = await t.call({ method: 'GET', url: `/accounts/${productionAccount.id}/backups`, as: 'operator' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.headers['content-type']).toMatch(/application\/problem\+json/);
    expect((await backups(productionAccount.id, 'admin')).body.totalItems).toBe(1);
  });

  it('answers 400 naming each bad field, and 401 without a token', async () => {
    const res = await t.call({ method: 'GET', url: `/accounts/${account.id}/backups`, as: 'admin', query: { softwareName: 'database', limit: '0', machineId: 'x' } });
    expect(res.statusCode).toBe(400);
    const names = (res.json() as { errors: { propertyName: string }[] }).errors.map((e) => e.propertyName).sort();
    expect(names).toEqual(['limit', 'machineId', 'softwareName']);
    expect((await t.call({ method: 'GET', url: '/accounts/abc/backups', as: 'admin' })).statusCode).toBe(400);
    expect((await t.call({ method: 'GET', url: `/accounts/${account.id}/backups` })).statusCode).toBe(401);
  });
});

describe('GET /machines/{id} backups', () => {
  it('carries the machine own files per software, newest first, at most 20 each; the list does not', async () => {
    const res = await t.call({ method: 'GET', url: `/machines/${launcher.id}`, as: 'viewer' });
    expect(res.statusCode).toBe(200);
    const m = res.json() as { cloudBackupsLauncher: TBackupFile[]; cloudBackupsSiteMaster: TBackupFile[]; cloudBackupsAuditChangeLog: TBackupFile[] };
    expect(m.cloudBackupsLauncher).toHaveLength(MACHINE_DETAIL_BACKUPS);
    expect(m.cloudBackupsLauncher[0]).toMatchObject({ category: 'manual', storageClass: 'Glacier', createdAt: at(26, 12).toISOString() });
    expect(m.cloudBackupsLauncher.at(-1)!.createdAt).toBe(at(7).toISOString());
    expect([m.cloudBackupsSiteMaster, m.cloudBackupsAuditChangeLog]).toEqual([[], []]);

    const siteRes = (await t.call({ method: 'GET', url: `/machines/${site.id}`, as: 'viewer' })).json() as typeof m;
    expect(siteRes.cloudBackupsSiteMaster.map((b) => b.createdAt)).toEqual([3, 2, 1].map((d) => at(d, 5).toISOString()));
    expect(siteRes.cloudBackupsAuditChangeLog).toHaveLength(3);

    const list = (await t.call({ method: 'GET', url: '/machines', as: 'admin', query: { accountId: String(account.id) } })).json() as { items: object[] };
    expect(list.items.length).toBeGreaterThan(0);
    for (const item of list.items) expect(item).not.toHaveProperty('cloudBackupsLauncher');
  });

  it('keeps a hidden machine 404', async () => {
    expect((await t.call({ method: 'GET', url: `/machines/${hiddenMachine.id}`, as: 'operator' })).statusCode).toBe(404);
  });
});

describe('GET /sample-data-files', () => {
  it('lists every file by name; the source machine only when the user may see it', async () => {
    const res = await t.call({ method: 'GET', url: '/sample-data-files', as: 'viewer' });
    expect(res.statusCode).toBe(200);
    const files = res.json() as TSampleDataFile[];
    const ours = files.filter((f) => ['alpha-demo.zip', 'prod-demo.zip', 'zeta-demo.zip'].includes(f.name));
    expect(ours.map((f) => [f.name, f.sourceMachineId])).toEqual([
      ['alpha-demo.zip', site.id],
      ['prod-demo.zip', null],
      ['zeta-demo.zip', null],
    ]);
    expect(files.map((f) => f.name)).toEqual([...files.map((f) => f.name)].sort());
    const admin = (await t.call({ method: 'GET', url: '/sample-data-files', as: 'admin' })).json() as TSampleDataFile[];
    expect(admin.find((f) => f.name === 'prod-demo.zip')?.sourceMachineId).toEqual(expect.any(Number));
    expect((await t.call({ method: 'GET', url: '/sample-data-files' })).statusCode).toBe(401);
  });
});
