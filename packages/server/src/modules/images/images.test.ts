/**
 * API tests of the image catalogues (spec 3 §2.2 IRMN Versions, §2.3 SaaS Images,
 * §2.4 Cloud Images, §5, §7): each rule, each in-use refusal (409 naming the
 * users), the audit with field-level changes, and the viewer's refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION, type TCloudImage, type TIrmnVersion, type TSaasImage, type TSaveSaasImageRequest } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities, fieldErrors } from '../../../test/account-fixtures.js';
import { insertAccount } from '../../../test/fixtures.js';
import { accounts, cloudImages, componentConfigs } from '../../db/schema.js';
import { compactSaasImageUsage } from '../../db/account-counts.js';
import { SPARE_CLOUD_IMAGES } from '../../seed/catalogue.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ok = async <T>(opts: Parameters<TestApp['call']>[0]): Promise<T> => {
  const res = await t.call({ as: 'admin', ...opts });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const detail = (res: { body: string }) => (JSON.parse(res.body) as { detail: string }).detail;

const versions = () => ok<TIrmnVersion[]>({ method: 'GET', url: '/irmn-versions', as: 'viewer' });
const images = (query: Record<string, string> = {}, as = 'viewer') => ok<TSaasImage[]>({ method: 'GET', url: '/cloud/images', query, as });

let seq = 0;
/** A cloud image of the simulated cloud in `region`, not used by any SaaS image. */
async function newCloudImage(region = 'us-east-1', name = `test-ami-${++seq}`): Promise<string> {
  const imageId = `ami-${(0x10000000 + Date.now() * 10 + seq).toString(16).slice(-17).padStart(17, '0')}`;
  await t.database.db.insert(cloudImages).values({ imageId, name, description: 'test', region, status: 'available' });
  return imageId;
}

async function imageBody(extra: Partial<TSaveSaasImageRequest> = {}): Promise<TSaveSaasImageRequest> {
  return { name: `test-image-${++seq}`, region: 'us-east-1', irmnVersion: '8.1', cloudImage: await newCloudImage(extra.region ?? 'us-east-1'), ...extra };
}

describe('IRMN versions', () => {
  it('lists by name with default and status; the statuses lookup answers the three statuses', async () => {
    const list = await versions();
    expect(list.map((v) => v.name)).toEqual([...list.map((v) => v.name)].sort());
    expect(list.filter((v) => v.default)).toHaveLength(1);
    expect(await ok({ method: 'GET', url: '/lookup/irmn-version-statuses', as: 'viewer' })).toEqual(['InDevelopment', 'Planned', 'Released']);
    const one = list[0]!;
    expect(await ok({ method: 'GET', url: `/irmn-versions/${one.id}`, as: 'viewer' })).toEqual(one);
    expect((await t.call({ method: 'GET', url: '/irmn-versions/2147483000', as: 'viewer' })).statusCode).toBe(404);
  });

  it('creates, renames and re-statuses a version, audited with field-level changes', async () => {
    const created = await ok<TIrmnVersion>({ method: 'POST', url: '/irmn-versions', body: { name: '9.5', status: 'Planned', default: false } });
    expect(created).toMatchObject({ name: '9.5', status: 'Planned', default: false });
    const updated = await ok<TIrmnVersion>({ method: 'PUT', url: `/irmn-versions/${created.id}`, body: { name: '9.5.1', status: 'InDevelopment', default: false } });
    expect(updated).toMatchObject({ id: created.id, name: '9.5.1', status: 'InDevelopment' });
    const [audit] = await activities(t, undefined, 'UpdateIrmnVersion');
    expect(audit!.user).toBe('admin');
    expect(audit!.metadata.changes).toEqual([
      { entityName: 'IrmnVersion', propertyName: 'name', oldValue: '9.5', newValue: '9.5.1' },
      { entityName: 'IrmnVersion', propertyName: 'status', oldValue: 'Planned', newValue: 'InDevelopment' },
    ]);
    expect((await activities(t, undefined, 'CreateIrmnVersion'))[0]!.metadata.params).toMatchObject({ name: '9.5' });
  });

  it('keeps one default at a time: a new default takes the tick and the change to the old one is audited', async () => {
    const before = (await versions()).find((v) => v.default)!;
    const created = await ok<TIrmnVersion>({ method: 'POST', url: '/irmn-versions', body: { name: '9.1', status: 'Released', default: true } });
    const after = await versions();
    expect(after.filter((v) => v.default).map((v) => v.id)).toEqual([created.id]);
    const [audit] = await activities(t, undefined, 'CreateIrmnVersion');
    expect(audit!.metadata.changes).toContainEqual({ entityName: `IrmnVersion ${before.name}`, propertyName: 'default', oldValue: true, newValue: false });
    // Back to the seeded default through an update.
    await ok({ method: 'PUT', url: `/irmn-versions/${before.id}`, body: { name: before.name, status: before.status, default: true } });
    expect((await versions()).filter((v) => v.default).map((v) => v.id)).toEqual([before.id]);
  });

  it('refuses a name already used (409, any case) and bad input (400 naming the field)', async () => {
    const res = await t.call({ method: 'POST', url: '/irmn-versions', as: 'admin', body: { name: '8.1', status: 'Released', default: false } });
    expect(res.statusCode).toBe(409);
    expect(detail(res)).toBe("An IRMN version named '8.1' already exists");
    const other = (await versions()).find((v) => v.name === '8.0')!;
    expect((await t.call({ method: 'PUT', url: `/irmn-versions/${other.id}`, as: 'admin', body: { name: '8.1', status: 'Released', default: false } })).statusCode).toBe(409);
    expect(fieldErrors(await t.call({ method: 'POST', url: '/irmn-versions', as: 'admin', body: { name: ' ', status: 'Released', default: false } }))[0]).toMatch(/^name:/);
    expect(fieldErrors(await t.call({ method: 'POST', url: '/irmn-versions', as: 'admin', body: { name: '9.9', status: 'Shipped', default: false } }))[0]).toMatch(/^status:/);
    expect((await t.call({ method: 'PUT', url: '/irmn-versions/2147483000', as: 'admin', body: { name: '9.9', status: 'Planned', default: false } })).statusCode).toBe(404);
  });

  it('refuses to delete a version used by images (409 naming them) and by configs; deletes an unused one', async () => {
    const v81 = (await versions()).find((v) => v.name === '8.1')!;
    const res = await t.call({ method: 'DELETE', url: `/irmn-versions/${v81.id}`, as: 'admin' });
    expect(res.statusCode).toBe(409);
    expect(detail(res)).toMatch(/^IRMN version 8\.1 is still used by \d+ SaaS images \(irmn-8\.1\.3-ubuntu2204-use1, /);

    const unused = await ok<TIrmnVersion>({ method: 'POST', url: '/irmn-versions', body: { name: '9.2', status: 'Planned', default: false } });
    const [config] = await t.database.db.insert(componentConfigs).values({ rootKey: 'test', subKey: 'irmnInUse', versionId: unused.id }).returning();
    const byConfig = await t.call({ method: 'DELETE', url: `/irmn-versions/${unused.id}`, as: 'admin' });
    expect(byConfig.statusCode).toBe(409);
    expect(detail(byConfig)).toBe('IRMN version 9.2 is still used by 1 component config (test.irmnInUse)');
    await t.database.db.delete(componentConfigs).where(eq(componentConfigs.id, config!.id));

    await ok({ method: 'DELETE', url: `/irmn-versions/${unused.id}` });
    expect((await versions()).some((v) => v.id === unused.id)).toBe(false);
    expect((await activities(t, undefined, 'DeleteIrmnVersion'))[0]!.metadata.params).toMatchObject({ name: '9.2' });
  });
});

describe('SaaS images', () => {
  /** Each image's live accounts recounted from `accounts`, Customer Production left out when `hideCp`. */
  async function recount(hideCp: boolean): Promise<Map<string, number>> {
    const { rows } = await t.database.db.execute<{ name: string; n: number }>(sql`
      select vm_image_name as name, count(*)::int as n from accounts
      where deleted_at is null and vm_image_name is not null and (${!hideCp} or class_id <> ${CLASS_CUSTOMER_PRODUCTION})
      group by vm_image_name`);
    return new Map(rows.map((r) => [r.name, r.n]));
  }
  async function expectCountsRecounted() {
    for (const [as, hideCp] of [['viewer', true], ['admin', false]] as const) {
      const counted = await recount(hideCp);
      const listed = await images({}, as);
      expect(listed.map((i) => [i.name, i.accountCount])).toEqual(listed.map((i) => [i.name, counted.get(i.name) ?? 0]));
    }
  }

  it('keeps the usage counts equal to a recount as accounts are made, change image or class, and are deleted; compaction folds them', async () => {
    const [first, second] = (await images({}, 'admin')).map((i) => i.name);
    const a = await insertAccount(t.database.db, { name: 'Usage A', vmImageName: first! });
    const b = await insertAccount(t.database.db, { name: 'Usage B', vmImageName: first! });
    await insertAccount(t.database.db, { name: 'Usage none', vmImageName: null });
    await expectCountsRecounted();
    await t.database.db.update(accounts).set({ vmImageName: second! }).where(eq(accounts.id, a.id));
    await t.database.db.update(accounts).set({ classId: CLASS_CUSTOMER_PRODUCTION }).where(eq(accounts.id, b.id));
    await expectCountsRecounted();
    await t.database.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, a.id));
    await t.database.db.update(accounts).set({ vmImageName: null }).where(eq(accounts.id, b.id));
    await expectCountsRecounted();

    expect(await compactSaasImageUsage(t.database.db)).toBeGreaterThan(0);
    await expectCountsRecounted();
    const { rows } = await t.database.db.execute<{ rows: number; groups: number }>(
      sql`select count(*)::int as rows, count(distinct (image_name, class_id))::int as groups from saas_image_usage_deltas`,
    );
    expect(rows[0]!.rows).toBe(rows[0]!.groups);
    expect(await compactSaasImageUsage(t.database.db)).toBe(0);
  });

  it('lists with usage counts; search is a case-insensitive substring of the name; region filters', async () => {
    const all = await images();
    expect(all.length).toBeGreaterThanOrEqual(14);
    // Each image's count is its live accounts' (by image name), Customer Production left out for the viewer.
    const { rows } = await t.database.db.execute<{ name: string; n: number }>(sql`
      select vm_image_name as name, count(*)::int as n from accounts
      where deleted_at is null and vm_image_name is not null and class_id <> ${CLASS_CUSTOMER_PRODUCTION} group by vm_image_name`);
    const counted = new Map(rows.map((r) => [r.name, r.n]));
    expect(all.map((i) => [i.name, i.accountCount])).toEqual(all.map((i) => [i.name, counted.get(i.name) ?? 0]));
    const used = all.find((i) => i.accountCount > 0)!;
    expect(used.accountCount).toBeGreaterThan(0);
    const search = await images({ search: 'WIN2022' });
    expect(search.length).toBeGreaterThan(0);
    expect(search.every((i) => i.name.toLowerCase().includes('win2022'))).toBe(true);
    const euw1 = await images({ region: 'eu-west-1' });
    expect(euw1.length).toBeGreaterThan(0);
    expect(euw1.every((i) => i.region === 'eu-west-1')).toBe(true);
    expect(await images({ search: '%' })).toEqual([]);
    expect(await ok({ method: 'GET', url: `/cloud/images/${used.id}`, as: 'viewer' })).toEqual(used);
  });

  it('creates with the defaults of a new image (Windows, not official, not jump-start, active), audited', async () => {
    const body = await imageBody({ description: 'Created by a test' });
    const created = await ok<TSaasImage>({ method: 'POST', url: '/cloud/images', body });
    expect(created).toMatchObject({ name: body.name, region: 'us-east-1', irmnVersion: '8.1', osType: 'Windows', official: false, jumpStart: false, active: true, accountCount: 0, jumpStartConfig: null });
    const [audit] = await activities(t, undefined, 'CreateSaasImage');
    expect(audit!.metadata.changes).toContainEqual({ entityName: 'SaasImage', propertyName: 'name', oldValue: null, newValue: body.name });
    expect((await images({ search: body.name })).map((i) => i.id)).toEqual([created.id]);
  });

  it('edits an image with field-level audit; its name and jump-start are locked', async () => {
    const created = await ok<TSaasImage>({ method: 'POST', url: '/cloud/images', body: await imageBody() });
    const body = { ...created, description: 'Edited', official: true, osType: 'Linux' as const, irmnVersion: '8.2' };
    const updated = await ok<TSaasImage>({ method: 'PUT', url: `/cloud/images/${created.id}`, body });
    expect(updated).toMatchObject({ description: 'Edited', official: true, osType: 'Linux', irmnVersion: '8.2' });
    const [audit] = await activities(t, undefined, 'UpdateSaasImage');
    expect(audit!.metadata.changes).toEqual(
      expect.arrayContaining([
        { entityName: 'SaasImage', propertyName: 'description', oldValue: '', newValue: 'Edited' },
        { entityName: 'SaasImage', propertyName: 'irmnVersion', oldValue: '8.1', newValue: '8.2' },
        { entityName: 'SaasImage', propertyName: 'osType', oldValue: 'Windows', newValue: 'Linux' },
      ]),
    );
    expect(audit!.metadata.changes).toHaveLength(4);
    expect(fieldErrors(await t.call({ method: 'PUT', url: `/cloud/images/${created.id}`, as: 'admin', body: { ...body, name: 'renamed-image' } }))).toEqual([
      'name: The name of a saved image cannot be changed',
    ]);
    expect(fieldErrors(await t.call({ method: 'PUT', url: `/cloud/images/${created.id}`, as: 'admin', body: { ...body, jumpStart: true } }))).toEqual([
      'jumpStart: Jump-start cannot be changed',
    ]);
  });

  it('refuses unknown region, IRMN version and cloud image, and a cloud image of another region (400 naming each field)', async () => {
    const body = await imageBody();
    const errors = fieldErrors(await t.call({ method: 'POST', url: '/cloud/images', as: 'admin', body: { ...body, region: 'mars-1', irmnVersion: '0.1' } }));
    expect(errors).toEqual(expect.arrayContaining(["region: Unknown region 'mars-1'", "irmnVersion: Unknown IRMN version '0.1'"]));
    expect(errors.some((e) => e.startsWith('cloudImage: '))).toBe(true);
    expect(fieldErrors(await t.call({ method: 'POST', url: '/cloud/images', as: 'admin', body: { ...body, cloudImage: 'ami-00000000000000001' } }))).toEqual([
      'cloudImage: Image ami-00000000000000001 does not exist at the cloud provider',
    ]);
    expect(fieldErrors(await t.call({ method: 'POST', url: '/cloud/images', as: 'admin', body: { ...body, region: 'eu-west-1' } }))).toEqual([
      `cloudImage: Image ${body.cloudImage} is in region us-east-1, not eu-west-1`,
    ]);
    expect(fieldErrors(await t.call({ method: 'POST', url: '/cloud/images', as: 'admin', body: { ...body, osType: 'BeOS' } }))[0]).toMatch(/^osType:/);
    expect(fieldErrors(await t.call({ method: 'POST', url: '/cloud/images', as: 'admin', body: { ...body, name: 'a;b' } }))[0]).toMatch(/^name:/);
  });

  it('a duplicate keeps the jump-start config but needs a new name (409 for the same name)', async () => {
    const campus = (await images()).find((i) => i.name === 'js-8.1.3-campus-use1')!;
    const copy = {
      name: campus.name,
      region: campus.region,
      description: `Copy of ${campus.description}`,
      irmnVersion: campus.irmnVersion,
      official: false,
      active: true,
      jumpStart: true,
      jumpStartConfig: campus.jumpStartConfig,
      osType: campus.osType,
      cloudImage: campus.cloudImage,
    };
    const same = await t.call({ method: 'POST', url: '/cloud/images', as: 'admin', body: copy });
    expect(same.statusCode).toBe(409);
    expect(detail(same)).toBe("An image named 'js-8.1.3-campus-use1' already exists (region us-east-1)");
    const created = await ok<TSaasImage>({ method: 'POST', url: '/cloud/images', body: { ...copy, name: 'js-8.1.3-campus-use1-copy' } });
    expect(created).toMatchObject({ jumpStart: true, official: false, active: true, description: `Copy of ${campus.description}`, cloudImage: campus.cloudImage });
    expect(created.jumpStartConfig).toEqual(campus.jumpStartConfig);
    expect(fieldErrors(await t.call({ method: 'PUT', url: `/cloud/images/${created.id}`, as: 'admin', body: { ...copy, name: created.name, jumpStartConfig: { ...campus.jumpStartConfig!, deployer: 'master|fffffff' } } }))).toEqual([
      'jumpStartConfig.deployer: Deployer version is not a known commit or build',
    ]);
  });

  it('refuses to delete an image used by accounts (409 naming them, hidden accounts only counted) or by an MMA class; deletes an unused one', async () => {
    const used = (await images({}, 'admin')).find((i) => i.accountCount > 0 && !i.jumpStart)!;
    const res = await t.call({ method: 'DELETE', url: `/cloud/images/${used.id}`, as: 'admin' });
    expect(res.statusCode).toBe(409);
    expect(detail(res)).toMatch(new RegExp(`^Image ${used.name} is still used by ${used.accountCount} accounts? \\(`));

    const image = await ok<TSaasImage>({ method: 'POST', url: '/cloud/images', body: await imageBody() });
    await insertAccount(t.database.db, { name: 'Hidden Image User', classId: 5, vmImageName: image.name });
    const asOperator = await t.call({ method: 'DELETE', url: `/cloud/images/${image.id}`, as: 'operator' });
    expect(asOperator.statusCode).toBe(409);
    expect(detail(asOperator)).toBe(`Image ${image.name} is still used by 1 account`);
    expect(detail(await t.call({ method: 'DELETE', url: `/cloud/images/${image.id}`, as: 'admin' }))).toBe(`Image ${image.name} is still used by 1 account (Hidden Image User)`);
    expect((await images({ search: image.name }, 'operator'))[0]!.accountCount).toBe(0);
    expect((await images({ search: image.name }, 'admin'))[0]!.accountCount).toBe(1);
    const regionChange = await t.call({ method: 'PUT', url: `/cloud/images/${image.id}`, as: 'admin', body: { ...image, region: 'eu-west-1', cloudImage: await newCloudImage('eu-west-1') } });
    expect(regionChange.statusCode).toBe(409);

    const mma = (await images()).find((i) => i.name === 'js-8.1.3-datacenter-euw1')!;
    expect(detail(await t.call({ method: 'DELETE', url: `/cloud/images/${mma.id}`, as: 'admin' }))).toMatch(/MMA classes Customer Staging, Customer Production$/);

    const unused = await ok<TSaasImage>({ method: 'POST', url: '/cloud/images', body: await imageBody() });
    await ok({ method: 'DELETE', url: `/cloud/images/${unused.id}` });
    expect((await t.call({ method: 'GET', url: `/cloud/images/${unused.id}`, as: 'viewer' })).statusCode).toBe(404);
    expect((await activities(t, undefined, 'DeleteSaasImage'))[0]!.metadata.params).toMatchObject({ name: unused.name });
  });
});

describe('cloud images', () => {
  const cloud = (query: Record<string, string> = {}) => ok<TCloudImage[]>({ method: 'GET', url: '/cloud/caa-images', query, as: 'viewer' });

  it('lists the images of the cloud provider (the SaaS images own and spare ones), searched by name and filtered by region', async () => {
    const all = await cloud();
    const spare = SPARE_CLOUD_IMAGES[0];
    expect(all).toContainEqual({ id: spare.imageId, name: spare.name, description: spare.description, state: 'available', region: spare.region });
    const saas = await images();
    expect(saas.every((i) => all.some((c) => c.id === i.cloudImage))).toBe(true);
    const found = await cloud({ name: 'CAA-AGENT' });
    expect(found.map((c) => c.name)).toEqual(['caa-agent-2025-09-euw1']);
    expect((await cloud({ region: 'eu-west-1' })).every((c) => c.region === 'eu-west-1')).toBe(true);
  });

  it('refuses to delete an image a SaaS image points at (409 naming it), 404 for none; deletes an unused one, audited', async () => {
    const saas = (await images()).find((i) => i.name === 'irmn-8.1.3-win2022-usw2')!;
    const res = await t.call({ method: 'DELETE', url: '/cloud/caa-images', as: 'admin', query: { name: saas.name, region: saas.region } });
    expect(res.statusCode).toBe(409);
    expect(detail(res)).toBe(`Image ${saas.name} (${saas.cloudImage}) is still used by 1 SaaS image (${saas.name})`);
    expect((await t.call({ method: 'DELETE', url: '/cloud/caa-images', as: 'admin', query: { name: saas.name, region: 'eu-west-1' } })).statusCode).toBe(404);

    const spare = SPARE_CLOUD_IMAGES[1];
    await ok({ method: 'DELETE', url: '/cloud/caa-images', query: { name: spare.name, region: spare.region } });
    expect((await cloud()).some((c) => c.id === spare.imageId)).toBe(false);
    expect((await activities(t, undefined, 'DeleteCloudImage'))[0]!.metadata).toMatchObject({
      params: { id: spare.imageId, name: spare.name, region: spare.region },
      changes: [{ entityName: 'CloudImage', propertyName: 'state', oldValue: 'available', newValue: 'deregistered' }],
    });
    expect((await t.call({ method: 'DELETE', url: '/cloud/caa-images', as: 'admin', query: { name: spare.name, region: spare.region } })).statusCode).toBe(404);
    expect(fieldErrors(await t.call({ method: 'DELETE', url: '/cloud/caa-images', as: 'admin', query: { name: spare.name } }))[0]).toMatch(/^region:/);
  });
});

describe('the viewer', () => {
  it('reads every catalogue but every change is refused (403)', async () => {
    const [version] = await versions();
    const [image] = await images();
    const calls = [
      { method: 'POST', url: '/irmn-versions', body: { name: '10.0', status: 'Planned', default: false } },
      { method: 'PUT', url: `/irmn-versions/${version!.id}`, body: { name: version!.name, status: version!.status, default: version!.default } },
      { method: 'DELETE', url: `/irmn-versions/${version!.id}` },
      { method: 'POST', url: '/cloud/images', body: await imageBody() },
      { method: 'PUT', url: `/cloud/images/${image!.id}`, body: image },
      { method: 'DELETE', url: `/cloud/images/${image!.id}` },
      { method: 'DELETE', url: '/cloud/caa-images', query: { name: SPARE_CLOUD_IMAGES[0].name, region: SPARE_CLOUD_IMAGES[0].region } },
    ] as const;
    for (const call of calls) expect((await t.call({ ...call, as: 'viewer' } as Parameters<TestApp['call']>[0])).statusCode, `${call.method} ${call.url}`).toBe(403);
  });
});
