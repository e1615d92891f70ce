/**
 * API tests of the MMA screen (spec 3 §2.7, §6, §7 MMA; DESIGN §5, §12): the
 * instances list, editing a class (merged answer, jump-start images only,
 * deployer version stamp, audit with field-level changes), the Customer
 * Production group rule, viewer refusal, and standby off releasing the class's
 * queued operations through the real operation agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_CUSTOMER_STAGING, CLASS_EXPERIMENTAL, type TMmaClass, type TMmaInstance } from '@fleet/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { mmaInstances, saasImages } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities } from '../../../test/account-fixtures.js';
import { sleep, startAgentFixture, type AgentFixture } from '../../../test/operation-fixtures.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../../test/db-url.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const classes = async (as = 'admin') => (await t.call({ method: 'GET', url: '/mma/classes', as })).json() as TMmaClass[];
const bodyOf = (c: TMmaClass, extra: Record<string, unknown> = {}) => ({
  name: c.name,
  image: c.image,
  deployerBranch: c.mmaInstance!.deployerBranch,
  deployerVersion: c.mmaInstance!.deployerVer,
  standby: c.mmaInstance!.standby,
  priorityGroup: c.mmaInstance!.priorityGroup,
  caaHost: c.mmaInstance!.caaHost,
  ...extra,
});
const put = (id: number, body: unknown, as = 'admin') => t.call({ method: 'PUT', url: `/mma/classes/${id}`, as, body });

describe('GET /mma/instances', () => {
  it('lists one instance per class with its class name, as the classes list has them', async () => {
    const res = await t.call({ method: 'GET', url: '/mma/instances', as: 'viewer' });
    expect(res.statusCode, res.body).toBe(200);
    const instances = res.json() as TMmaInstance[];
    const list = await classes('viewer');
    expect(instances.length).toBe(list.filter((c) => c.mmaInstance).length);
    const first = list.find((c) => c.mmaInstance)!;
    expect(instances.find((i) => i.mmaClassId === first.id)).toMatchObject({ mmaClassName: first.name, ...first.mmaInstance });
  });
});

describe('PUT /mma/classes/{id}', () => {
  it('edits a class with a jump-start image and answers the class as the list has it, audited field by field', async () => {
    const [image] = await t.database.db.select().from(saasImages).where(eq(saasImages.jumpStart, true)).limit(1);
    expect(image, 'the demo seed has a jump-start image').toMatchObject({ jumpStart: true });
    const before = (await classes()).find((c) => c.id === CLASS_EXPERIMENTAL)!;
    const res = await put(CLASS_EXPERIMENTAL, bodyOf(before, { image: image!.name, deployerVersion: 'master|abc1234', priorityGroup: 7, caaHost: 'caa-exp.fleet.example' }), 'operator');
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json() as TMmaClass;
    expect(updated).toMatchObject({ id: CLASS_EXPERIMENTAL, image: image!.name, mmaInstance: { deployerVer: 'master|abc1234', priorityGroup: 7, caaHost: 'caa-exp.fleet.example' } });
    expect(Date.parse(updated.mmaInstance!.deployerVerUpdatedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await classes()).find((c) => c.id === CLASS_EXPERIMENTAL)).toEqual(updated);

    const [activity] = await activities(t, undefined, 'UpdateMmaClass');
    expect(activity).toMatchObject({ user: 'operator' });
    expect(activity!.metadata.changes).toEqual(
      expect.arrayContaining([
        { entityName: 'MmaClass', propertyName: 'image', oldValue: before.image, newValue: image!.name },
        { entityName: 'MmaInstance', propertyName: 'deployerVer', oldValue: before.mmaInstance!.deployerVer, newValue: 'master|abc1234' },
        { entityName: 'MmaInstance', propertyName: 'priorityGroup', oldValue: before.mmaInstance!.priorityGroup, newValue: 7 },
      ]),
    );
    expect(activity!.metadata.changes.some((c) => c.propertyName === 'standby')).toBe(false);
  });

  it('refuses an image that is not a jump-start image (422), and keeps the class unchanged', async () => {
    const [plain] = await t.database.db.select().from(saasImages).where(eq(saasImages.jumpStart, false)).limit(1);
    const before = (await classes()).find((c) => c.id === CLASS_CUSTOMER_STAGING)!;
    const res = await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { image: plain!.name }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toContain('not a jump-start image');
    expect(await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { image: 'no-such-image' })).then((r) => r.statusCode)).toBe(422);
    expect((await classes()).find((c) => c.id === CLASS_CUSTOMER_STAGING)).toEqual(before);
  });

  it('refuses a CAA target machine that is not a host name (400 naming caaHost), and keeps the class unchanged', async () => {
    const before = (await classes()).find((c) => c.id === CLASS_CUSTOMER_STAGING)!;
    for (const caaHost of ['caa host.fleet.example', 'caa-🚀.fleet.example', '-caa.fleet.example', 'caa..fleet.example']) {
      const res = await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { caaHost }));
      expect(res.statusCode, caaHost).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ propertyName: 'caaHost', errorMessage: 'Must be a host name: letters, digits, hyphens and dots' })]);
    }
    expect((await classes()).find((c) => c.id === CLASS_CUSTOMER_STAGING)).toEqual(before);
    expect((await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { caaHost: '10.0.4.17' }))).json().mmaInstance.caaHost).toBe('10.0.4.17');
  });

  it('keeps the image when it is left out, and clears it with null', async () => {
    const before = (await classes()).find((c) => c.id === CLASS_EXPERIMENTAL)!;
    const { image: _image, ...withoutImage } = bodyOf(before);
    expect((await put(CLASS_EXPERIMENTAL, withoutImage)).json().image).toBe(before.image);
    expect((await put(CLASS_EXPERIMENTAL, bodyOf(before, { image: null }))).json().image).toBeNull();
  });

  it('refuses Customer Production without group CustomerProductionAccess (403), allows it with the group', async () => {
    const cp = (await classes()).find((c) => c.id === CLASS_CUSTOMER_PRODUCTION)!;
    const refused = await put(CLASS_CUSTOMER_PRODUCTION, bodyOf(cp, { priorityGroup: 9 }), 'operator');
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().detail).toContain('CustomerProductionAccess');
    expect((await classes()).find((c) => c.id === CLASS_CUSTOMER_PRODUCTION)).toEqual(cp);
    const allowed = await put(CLASS_CUSTOMER_PRODUCTION, bodyOf(cp, { priorityGroup: 9 }), 'admin');
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json().mmaInstance.priorityGroup).toBe(9);
  });

  it('refuses the viewer (403), an unknown class (404) and bad input (400 naming the field)', async () => {
    const c = (await classes()).find((x) => x.id === CLASS_EXPERIMENTAL)!;
    expect((await put(CLASS_EXPERIMENTAL, bodyOf(c), 'viewer')).statusCode).toBe(403);
    expect((await put(999_999, bodyOf(c))).statusCode).toBe(404);
    const bad = await put(CLASS_EXPERIMENTAL, bodyOf(c, { name: '', priorityGroup: -1, standby: 'yes' }));
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual(['name', 'priorityGroup', 'standby']);
  });

  it('switching standby on and off updates the standby count of the top bar', async () => {
    const c = (await classes()).find((x) => x.id === CLASS_CUSTOMER_STAGING)!;
    const count = async () => (await t.call({ method: 'GET', url: '/mma/stats', as: 'viewer' })).json().standby as number;
    const before = await count();
    await put(CLASS_CUSTOMER_STAGING, bodyOf(c, { standby: true }));
    expect(await count()).toBe(before + (c.mmaInstance!.standby ? 0 : 1));
    await put(CLASS_CUSTOMER_STAGING, bodyOf(c, { standby: false }));
    expect(await count()).toBe(before - (c.mmaInstance!.standby ? 1 : 0));
  });
});

describe('standby off releases the queued operations of the class (DESIGN §12)', () => {
  let f: AgentFixture;
  let app: FastifyInstance;
  beforeAll(async () => {
    // A pass far apart, so that only the wake-up of the standby switch can start them quickly.
    f = await startAgentFixture({ passMs: 60_000, anomalyFailures: 1_000 });
    app = await buildApp({
      db: f.database.db,
      config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 } },
    });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await f.close();
  });

  it('holds the operations while on, and starts them when an operator switches it off', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'admin', password: 'admin' } });
    const headers = { authorization: `Bearer ${login.json().accessToken.token as string}` };
    const list = (await app.inject({ method: 'GET', url: '/api/v1/mma/classes', headers })).json() as TMmaClass[];
    const staging = list.find((c) => c.id === CLASS_CUSTOMER_STAGING)!;
    const on = await app.inject({ method: 'PUT', url: `/api/v1/mma/classes/${CLASS_CUSTOMER_STAGING}`, headers, payload: bodyOf(staging, { standby: true }) });
    expect(on.statusCode, on.body).toBe(200);

    const machines = [await f.machine({ classId: CLASS_CUSTOMER_STAGING }), await f.machine({ classId: CLASS_CUSTOMER_STAGING })];
    const ids = await Promise.all(machines.map((m) => f.enqueue(m, 'SmokeTest')));
    await sleep(700);
    for (const id of ids) expect((await f.row(id)).status, 'held by standby').toBeNull();

    const off = await app.inject({ method: 'PUT', url: `/api/v1/mma/classes/${CLASS_CUSTOMER_STAGING}`, headers, payload: bodyOf(staging, { standby: false }) });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().mmaInstance.standby).toBe(false);
    const started = Date.now();
    for (const id of ids) expect((await f.settled(id, 10_000)).status).toBe('SUCCESS');
    expect(Date.now() - started, 'started by the wake-up, not by a pass').toBeLessThan(10_000);
    const [instance] = await f.database.db.select().from(mmaInstances).where(eq(mmaInstances.classId, CLASS_CUSTOMER_STAGING));
    expect(instance!.standby).toBe(false);
  }, 60_000);
});
