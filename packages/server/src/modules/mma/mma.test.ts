/**
 * API tests of the MMA screen (spec 3 §2.7, §6, §7 MMA; DESIGN §5, §12): the
 * instances list, editing a class (merged answer, jump-start images only,
 * deployer version stamp, audit with field-level changes), the Customer
 * Production group rule, viewer refusal, standby off releasing the class's
 * queued operations through the real operation agent, and the change windows
 * of a class (issue 25 point 5: written, read back, audited, refused when bad,
 * and read by the rollout engine's `selectClosedClasses`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  CLASS_CUSTOMER_PRODUCTION,
  CLASS_CUSTOMER_STAGING,
  CLASS_EXPERIMENTAL,
  MAX_CHANGE_WINDOWS,
  type TChangeWindow,
  type TMmaClass,
  type TMmaInstance,
} from '@fleet/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { mmaInstances, saasImages } from '../../db/schema.js';
import { selectClosedClasses } from '../../engine/rollouts/windows.js';
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

describe('change windows (issue 25 point 5)', () => {
  const NIGHTS: TChangeWindow = { days: [1, 2, 3, 4, 5], start: '02:00', end: '05:00', timeZone: 'Europe/Berlin' };
  const SATURDAY: TChangeWindow = { days: [6], start: '10:00', end: '24:00', timeZone: 'UTC' };
  const staging = async () => (await classes()).find((c) => c.id === CLASS_CUSTOMER_STAGING)!;

  it('sets the windows of a class, reads them back, keeps them when left out, clears them with [], audited as a class change', async () => {
    const before = await staging();
    expect(before.changeWindows, 'seeded without windows').toEqual([]);
    const res = await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { changeWindows: [NIGHTS, SATURDAY] }), 'operator');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TMmaClass).changeWindows).toEqual([NIGHTS, SATURDAY]);
    expect((await classes('viewer')).find((c) => c.id === CLASS_CUSTOMER_STAGING)!.changeWindows).toEqual([NIGHTS, SATURDAY]);
    const [activity] = await activities(t, undefined, 'UpdateMmaClass');
    expect(activity).toMatchObject({ user: 'operator' });
    expect(activity!.metadata.changes).toEqual([{ entityName: 'MmaClass', propertyName: 'changeWindows', oldValue: [], newValue: [NIGHTS, SATURDAY] }]);

    const kept = await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { priorityGroup: before.mmaInstance!.priorityGroup + 1 }));
    expect((kept.json() as TMmaClass).changeWindows, 'left out: kept').toEqual([NIGHTS, SATURDAY]);
    const cleared = await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { changeWindows: [] }));
    expect((cleared.json() as TMmaClass).changeWindows).toEqual([]);
    expect((await staging()).changeWindows).toEqual([]);
  });

  it('the rollout engine reads the classes closed now, with their next opening', async () => {
    const before = await staging();
    await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { changeWindows: [NIGHTS, SATURDAY] }));
    try {
      // Tuesday 2026-06-16 06:00 in Berlin: closed until Wednesday 02:00 (00:00Z).
      const closed = await selectClosedClasses(t.database.db, new Date('2026-06-16T04:00:00Z'));
      expect([...closed.keys()], 'only the class with windows').toEqual([CLASS_CUSTOMER_STAGING]);
      expect(closed.get(CLASS_CUSTOMER_STAGING)).toEqual({ opensAt: new Date('2026-06-17T00:00:00Z'), text: 'Wed 02:00 Europe/Berlin' });
      // Friday 2026-06-19 06:00 in Berlin: the Saturday window in UTC opens first.
      expect((await selectClosedClasses(t.database.db, new Date('2026-06-19T04:00:00Z'))).get(CLASS_CUSTOMER_STAGING)?.text).toBe('Sat 10:00 UTC');
      // Inside a window: not listed.
      expect((await selectClosedClasses(t.database.db, new Date('2026-06-16T01:00:00Z'))).size).toBe(0);
    } finally {
      await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { changeWindows: [] }));
    }
    expect((await selectClosedClasses(t.database.db, new Date('2026-06-16T04:00:00Z'))).size, 'no windows: always open').toBe(0);
  });

  it('refuses bad windows (400 naming the field) and keeps the class unchanged', async () => {
    const before = await staging();
    const cases: [unknown, string, RegExp][] = [
      [[{ ...NIGHTS, timeZone: 'Mars/Olympus_Mons' }], 'changeWindows.0.timeZone', /IANA time zone/],
      [[{ ...NIGHTS, timeZone: 'Europe/Berlin; drop table' }], 'changeWindows.0.timeZone', /IANA time zone/],
      [[{ ...NIGHTS, timeZone: 'x'.repeat(65) }], 'changeWindows.0.timeZone', /.+/],
      [[NIGHTS, { ...NIGHTS, start: '05:00', end: '02:00' }], 'changeWindows.1.end', /never crosses midnight/],
      [[{ ...NIGHTS, start: '02:00', end: '02:00' }], 'changeWindows.0.end', /after start/],
      [[{ ...NIGHTS, days: [1, 8] }], 'changeWindows.0.days.1', /1 \(Monday\) to 7 \(Sunday\)/],
      [[{ ...NIGHTS, days: [] }], 'changeWindows.0.days', /At least one day/],
      [[{ ...NIGHTS, days: [2, 2] }], 'changeWindows.0.days', /at most once/],
      [[{ ...NIGHTS, start: '24:00' }], 'changeWindows.0.start', /HH:mm/],
      [[{ ...NIGHTS, end: '5:00' }], 'changeWindows.0.end', /HH:mm/],
      [[{ ...NIGHTS, end: '24:01' }], 'changeWindows.0.end', /HH:mm/],
      [Array.from({ length: MAX_CHANGE_WINDOWS + 1 }, () => NIGHTS), 'changeWindows', /At most 20/],
      ['always', 'changeWindows', /.+/],
    ];
    for (const [changeWindows, field, message] of cases) {
      const res = await put(CLASS_CUSTOMER_STAGING, bodyOf(before, { changeWindows }));
      expect(res.statusCode, `${JSON.stringify(changeWindows).slice(0, 120)}: ${res.body}`).toBe(400);
      const errors = res.json().errors as { propertyName: string; errorMessage: string }[];
      expect(errors.map((e) => e.propertyName), res.body).toContain(field);
      expect(errors.find((e) => e.propertyName === field)!.errorMessage).toMatch(message);
    }
    expect(await staging()).toEqual(before);
  });

  it('needs group CustomerProductionAccess for the windows of Customer Production, as any edit of it', async () => {
    const cp = (await classes()).find((c) => c.id === CLASS_CUSTOMER_PRODUCTION)!;
    expect((await put(CLASS_CUSTOMER_PRODUCTION, bodyOf(cp, { changeWindows: [NIGHTS] }), 'operator')).statusCode).toBe(403);
    expect((await put(CLASS_CUSTOMER_PRODUCTION, bodyOf(cp, { changeWindows: [NIGHTS] }), 'viewer')).statusCode).toBe(403);
    expect((await classes()).find((c) => c.id === CLASS_CUSTOMER_PRODUCTION)!.changeWindows).toEqual(cp.changeWindows);
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
