/**
 * The agent's effects and its class-wide rules against a real PostgreSQL
 * (DESIGN §12): standby stops new starts while running operations finish, the
 * anomaly switches a class's standby on with an audit activity by MMA,
 * CreateJumpStartAmi makes one cloud image and one jump-start SaaS image even
 * when resumed, ReinstallSampleData and Populate write what they did.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditActivities, cloudImages, irmnVersions, mmaInstances, operations, saasImages } from '../../db/schema.js';
import { createAuditService } from '../../modules/audit/audit.service.js';
import { createImageService } from '../../modules/images/images.service.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { linesOf, sleep, startAgentFixture, type AgentFixture } from '../../../test/operation-fixtures.js';

let f: AgentFixture;

beforeAll(async () => {
  f = await startAgentFixture({ anomalyFailures: 5, anomalyWindowMinutes: 10 });
});
afterEach(() => f.agent.clearFaults());
afterAll(async () => {
  await f.close();
});

const setStandby = (classId: number, standby: boolean) => f.database.db.update(mmaInstances).set({ standby }).where(eq(mmaInstances.classId, classId));
const standbyOf = async (classId: number) => (await f.database.db.select().from(mmaInstances).where(eq(mmaInstances.classId, classId)))[0]!.standby;

describe('standby and the anomaly', () => {
  it('standby stops new starts while a running operation finishes; switched off, the queued one runs', async () => {
    const a = await f.machine({ classId: 4 });
    const b = await f.machine({ classId: 4 });
    const running = await f.enqueue(a, 'RestoreBackup');
    await f.until('running', async () => (await f.row(running)).output.includes('Gate reached'));
    await setStandby(4, true);
    const queued = await f.enqueue(b, 'SmokeTest');
    f.open(running);
    expect((await f.settled(running)).status).toBe('SUCCESS');
    await sleep(700);
    expect((await f.row(queued)).status).toBeNull();
    await setStandby(4, false);
    expect((await f.settled(queued)).status).toBe('SUCCESS');
  });

  it('5 failures of a class within the window switch its standby on, audited by MMA; later operations of the class wait; switched off, the window starts afresh', async () => {
    expect(await standbyOf(3)).toBe(false);
    const survivor = await f.machine({ classId: 3 });
    const running = await f.enqueue(survivor, 'RestoreBackup');
    await f.until('running', async () => (await f.row(running)).output.includes('Gate reached'));

    f.agent.failNext({ typeName: 'SmokeTest', times: 6, message: 'Smoke test failed: launcher sign-in' });
    const failing = await Promise.all([1, 2, 3, 4, 5].map(() => f.machine({ classId: 3 })));
    const ids = [];
    for (const m of failing) ids.push(await f.enqueue(m, 'SmokeTest'));
    for (const id of ids) expect((await f.settled(id)).status).toBe('FAILURE');
    await f.until('standby on', () => standbyOf(3));

    const activities = await f.database.db.select().from(auditActivities).where(eq(auditActivities.action, 'MmaStandby'));
    expect(activities).toHaveLength(1);
    expect(activities[0]).toMatchObject({ userName: 'MMA', params: { classId: 3, className: 'Internal Production', failures: 5, windowMinutes: 10 } });
    expect(activities[0]!.changes).toEqual([{ entityName: 'MmaInstance', propertyName: 'standby', oldValue: false, newValue: true }]);
    const { rows: named } = await f.database.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_activity_accounts where activity_id = ${activities[0]!.id}`);
    expect(named[0]!.n).toBe(5);

    const waiting = await f.enqueue(await f.machine({ classId: 3 }), 'ApplyConfig');
    // The running one finishes; nothing new starts.
    f.open(running);
    expect((await f.settled(running)).status).toBe('SUCCESS');
    await sleep(700);
    expect((await f.row(waiting)).status).toBeNull();

    // Switched off by an operator: the class gets a fresh window.
    await setStandby(3, false);
    expect((await f.settled(waiting)).status).toBe('SUCCESS');
    const again = await f.enqueue(failing[0]!, 'SmokeTest');
    expect((await f.settled(again)).status).toBe('FAILURE');
    await sleep(300);
    // A fresh window after the automatic standby: one failure since is below the threshold.
    expect(await standbyOf(3)).toBe(false);
    expect(await f.database.db.select().from(auditActivities).where(eq(auditActivities.action, 'MmaStandby'))).toHaveLength(1);
  });
});

describe('CreateJumpStartAmi', () => {
  const irmnName = async () => (await f.database.db.select({ name: irmnVersions.name }).from(irmnVersions).limit(1))[0]!.name;

  it('makes one cloud image under the operation client token and a jump-start image the image picker lists', async () => {
    const machine = await f.machine();
    const irmnVersion = await irmnName();
    const id = await f.enqueue(machine, 'CreateJumpStartAmi', { params: { name: 'js-agent-test', description: 'From the agent test', irmnVersion } });
    const done = await f.settled(id);
    expect(done.status, done.output).toBe('SUCCESS');
    const images = await f.database.db.select().from(cloudImages).where(eq(cloudImages.clientToken, `operation-${id}`));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ status: 'available', sourceCloudId: machine.cloudId, name: 'js-agent-test' });
    expect(done.params).toMatchObject({ imageId: images[0]!.imageId });
    expect(linesOf(done.output)).toContain(`Registered jump-start image js-agent-test (${images[0]!.imageId}, us-east-1, IRMN ${irmnVersion})`);

    const db = f.database.db;
    const catalogue = createImageService({ db, audit: createAuditService({ db }), cloud: createSimulatedCloud({ db }) });
    const viewer = { userId: 0, username: 'viewer', name: 'Viewer', email: '', permissions: [], groups: [], jti: '' };
    const listed = (await catalogue.saasImages({ principal: viewer, query: {} })).filter((i) => i.cloudImage === images[0]!.imageId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: 'js-agent-test', description: 'From the agent test', region: 'us-east-1', irmnVersion, jumpStart: true, active: true, official: false });
  });

  it('a resumed attempt finds the first attempt image and row instead of making others', async () => {
    const machine = await f.machine();
    const irmnVersion = await irmnName();
    const [type] = (await f.database.db.execute<{ id: number }>(sql`select id from operation_types where machine_class_id = 1 and name = 'CreateJumpStartAmi'`)).rows;
    const stale = new Date(Date.now() - 60_000);
    // The first attempt made the image and registered it, then its worker died.
    const [row] = await f.database.db
      .insert(operations)
      .values({ machineId: machine.id, accountId: machine.accountId, classId: 1, typeId: type!.id, typeName: 'CreateJumpStartAmi', userName: 'admin', timeoutSeconds: 3600, operationMode: 1, status: 'RUNNING', startedAt: stale, heartbeatAt: stale, attempts: 1, worker: 'dead:1:x', params: { name: 'js-resumed', description: '', irmnVersion } })
      .returning();
    const first = await f.cloud.createImage({ cloudId: machine.cloudId!, name: 'js-resumed', description: '', clientToken: `operation-${row!.id}` });
    await f.database.db.insert(saasImages).values({ name: 'js-resumed', region: 'us-east-1', jumpStart: true, cloudImage: first.imageId });

    const done = await f.settled(row!.id);
    expect(done).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    expect(await f.database.db.select().from(cloudImages).where(eq(cloudImages.name, 'js-resumed'))).toHaveLength(1);
    expect(await f.database.db.select().from(saasImages).where(and(eq(saasImages.name, 'js-resumed'), eq(saasImages.cloudImage, first.imageId)))).toHaveLength(1);
    expect(linesOf(done.output)).toContain(`Found jump-start image js-resumed (${first.imageId}, us-east-1, IRMN ${irmnVersion})`);
  });

  it('fails with the reason for an unknown IRMN version, making no image', async () => {
    const machine = await f.machine();
    const id = await f.enqueue(machine, 'CreateJumpStartAmi', { params: { name: 'js-bad', description: '', irmnVersion: '0.0-none' } });
    const done = await f.settled(id);
    expect(done.status).toBe('FAILURE');
    expect(linesOf(done.output).at(-1)).toBe("Unknown IRMN version '0.0-none'");
    expect(await f.database.db.select().from(cloudImages).where(eq(cloudImages.clientToken, `operation-${id}`))).toHaveLength(0);
  });
});

describe('sample data and populate', () => {
  it('ReinstallSampleData reloads the site master from the machine sample data', async () => {
    const machine = await f.machine({ sampleData: 'Select', sampleDataFile: 'campus-demo-2024.zip' });
    const done = await f.settled(await f.enqueue(machine, 'ReinstallSampleData'));
    expect(done.status).toBe('SUCCESS');
    expect(linesOf(done.output)).toEqual(expect.arrayContaining(['Stopping services', 'Reinstalling sample data', 'The site master now holds sample data campus-demo-2024.zip']));
    expect(linesOf(done.deployerLog)).toContain('sample data: Select (campus-demo-2024.zip)');
  });

  it('Populate populates each ticked database with the alt string, and fails when none is ticked', async () => {
    const machine = await f.machine();
    const done = await f.settled(await f.enqueue(machine, 'Populate', { params: { populateLauncher: true, populateSiteMaster: true, altString: 'Q3' } }));
    expect(done.status).toBe('SUCCESS');
    expect(linesOf(done.output)).toEqual(expect.arrayContaining(['Populating the launcher with alt string Q3', 'Populating the site master with alt string Q3']));
    const none = await f.settled(await f.enqueue(machine, 'Populate', { params: { populateLauncher: false, populateSiteMaster: false } }));
    expect(none.status).toBe('FAILURE');
    expect(linesOf(none.output).at(-1)).toBe('Nothing to populate: neither Launcher nor SiteMaster was ticked');
  });
});
