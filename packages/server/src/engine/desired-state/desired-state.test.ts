/**
 * Desired state and deploys (DESIGN §12) against a real PostgreSQL with the demo
 * fleet: an instance settings push moves the machines' desired versions in its
 * transaction; the deploy pass queues exactly one UpdateSoftware per obsolete
 * managed machine, also with passes running concurrently; a cancel stands until
 * the desired versions change; the UpdateSoftware effect writes the current
 * version state, moves the previous one to history, and `obsolete` goes false,
 * once per operation; a new commit on a followed branch makes the Latest
 * machines obsolete; TestLatestCode deploys a branch's heads and smoke-tests.
 * The effects are called directly with a context built here (the agent that
 * calls them is tested on its own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TInstanceSettings, TOperationTypeName } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createAccount, creationPayload } from '../../../test/account-fixtures.js';
import { commitsOf, freshAccounts } from '../../../test/deploy-fixtures.js';
import { machines, operations, versionStates } from '../../db/schema.js';
import { createCloudProvider } from '../cloud/index.js';
import { createOperationQueue, type OperationQueue } from '../operations/queue.js';
import { OperationFailure, type OperationEffectContext } from '../operations/effects.js';
import type { OperationRow } from '../operations/operations.repository.js';
import { queueDeploys, startDeployController } from './controller.js';
import { createDeployEffects } from './deploy-effects.js';
import { recordCommit, resolveAllDesiredStates } from './desired-state.js';

let t: TestApp;
const announced: number[] = [];
let queue: OperationQueue;
const effects = createDeployEffects();

beforeAll(async () => {
  t = await startTestApp();
  queue = createOperationQueue({ announce: (queued) => announced.push(...queued.map((q) => q.operation.id)) });
});
afterAll(() => t.close());

const db = () => t.database.db;

/** A seeded account of `classId` (default: any but Customer Production and add-ons) whose machines are up to date; each call another one. */
const freshAccount = freshAccounts(db);

async function pushInstance(accountId: number, change: Partial<TInstanceSettings>) {
  const got = await t.call({ method: 'GET', url: `/accounts/${accountId}/instance-settings`, as: 'admin' });
  expect(got.statusCode, got.body).toBe(200);
  const res = await t.call({ method: 'PUT', url: `/accounts/${accountId}/instance-settings`, as: 'admin', body: { ...(got.json() as TInstanceSettings), ...change } });
  expect(res.statusCode, res.body).toBe(200);
}

const machineRows = (ids: number[]) => db().select().from(machines).where(inArray(machines.id, ids)).orderBy(machines.id);

async function unfinishedUpdates(ids: number[]) {
  return db()
    .select()
    .from(operations)
    .where(and(inArray(operations.machineId, ids), eq(operations.typeName, 'UpdateSoftware'), sql`${operations.finishedAt} is null`))
    .orderBy(operations.id);
}

/** Marks the operation RUNNING (as the agent's claim does) and answers its row. */
async function running(operationId: number): Promise<OperationRow> {
  const [row] = await db()
    .update(operations)
    .set({ status: 'RUNNING', startedAt: new Date(), attempts: sql`${operations.attempts} + 1`, worker: 'test' })
    .where(eq(operations.id, operationId))
    .returning();
  return row!;
}

/** The context the agent would give an effect, with the lines it writes collected. */
async function contextFor(operation: OperationRow) {
  const [m] = await machineRows([operation.machineId]);
  const lines = { output: [] as string[], deployer: [] as string[] };
  const ctx: OperationEffectContext = {
    db: db(),
    operation,
    machine: {
      id: m!.id,
      name: m!.name,
      accountId: m!.accountId,
      classId: m!.classId,
      isLauncher: m!.isLauncher,
      isSiteMaster: m!.isSiteMaster,
      sampleData: m!.sampleData,
      sampleDataFile: m!.sampleDataFile,
      cloudId: null,
    },
    output: async (line) => void lines.output.push(line),
    fenced: (work) => db().transaction(work),
    deployerLog: async (line) => void lines.deployer.push(line),
    checkpoint: async (patch) => {
      await db().update(operations).set({ params: sql`${operations.params} || ${JSON.stringify(patch)}::jsonb` }).where(eq(operations.id, operation.id));
    },
    work: async () => undefined,
    signal: new AbortController().signal,
    cloud: createCloudProvider({ name: 'simulated', db: db(), simDelayMs: 0 }),
  };
  return { ctx, lines };
}

async function runEffect(type: TOperationTypeName, operationId: number) {
  const { ctx, lines } = await contextFor(await running(operationId));
  await effects[type]!(ctx);
  return lines;
}

describe('the demo fleet', () => {
  it('is resolved: resolving every account again changes nothing', async () => {
    expect(await resolveAllDesiredStates(db())).toBe(0);
  });
});

describe('new machines', () => {
  /** The newest activity of `action` whose params have `key` = `id`. */
  async function activityOf(action: string, key: string, id: number): Promise<number> {
    const { rows } = await db().execute<{ id: number }>(sql`
      select a.id from audit_activities a where a.action = ${action} and a.params->>${key} = ${String(id)} order by a.id desc limit 1`);
    return rows[0]!.id;
  }

  it('desire their account\'s versions from creation, caused by its activity, and a pass queues their first deploy', async () => {
    const accountId = await createAccount(t, creationPayload());
    const created = await db().select().from(machines).where(eq(machines.accountId, accountId)).orderBy(machines.id);
    expect(created.length).toBeGreaterThan(0);
    const createActivity = await activityOf('CreateAccount', 'accountId', accountId);
    for (const m of created) {
      // What the level-driven resolution would write: resolving again changes nothing.
      expect(Object.keys(m.desiredVersions)).toContain('launcher');
      expect(m.currentVersions).toEqual({});
      expect(m).toMatchObject({ obsolete: true, desiredActivityId: createActivity });
    }
    expect(await resolveAllDesiredStates(db())).toBe(0);
    await queueDeploys(db(), { queue });
    const ids = created.map((m) => m.id);
    expect((await unfinishedUpdates(ids)).map((o) => [o.machineId, o.activityId])).toEqual(ids.map((id) => [id, createActivity]));

    // A machine added later desires the same versions, caused by its CreateMachine.
    await db().update(machines).set({ deletedAt: new Date() }).where(eq(machines.id, ids[0]!));
    const creatable = await t.call({ method: 'GET', url: `/accounts/${accountId}/creatable-machines`, as: 'admin' });
    const choice = (creatable.json() as { isLauncher: boolean; siteId: number | null }[])[0]!;
    const added = await t.call({ method: 'POST', url: `/accounts/${accountId}/machines`, as: 'admin', body: { ...choice, accountId } });
    expect(added.statusCode, added.body).toBe(200);
    const addedId = added.json().machine.id as number;
    const [row] = await machineRows([addedId]);
    expect(row!.desiredVersions).toEqual(created[0]!.desiredVersions);
    expect(row).toMatchObject({ obsolete: true, desiredActivityId: await activityOf('CreateMachine', 'machineId', addedId) });
    expect(await resolveAllDesiredStates(db())).toBe(0);
  });
});

describe('instance settings push and the deploy pass', () => {
  it('moves desired versions in the push, and a pass queues one UpdateSoftware per machine, caused by the push', async () => {
    const account = await freshAccount();
    const [, older] = await commitsOf(db(), 'launcher', 'master');
    await pushInstance(account.id, { launcherVersionMode: 'Select', launcherVersion: `master|${older}` });

    const after = await machineRows(account.machineIds);
    const { rows: [push] } = await db().execute<{ id: number }>(sql`select id from audit_activities where action = 'PushInstanceSettings' order by id desc limit 1`);
    for (const m of after) {
      expect(m.desiredVersions.launcher).toBe(`master|${older}`);
      expect(m.obsolete).toBe(true);
      expect(m.desiredActivityId).toBe(push!.id);
    }

    await queueDeploys(db(), { queue });
    const ops = await unfinishedUpdates(account.machineIds);
    expect(ops.map((o) => o.machineId)).toEqual(account.machineIds);
    for (const [i, o] of ops.entries()) {
      expect(o).toMatchObject({ userName: 'MMA', activityId: push!.id, pending: false, status: null });
      expect(o.params).toMatchObject({ versions: after[i]!.desiredVersions });
    }
    expect(announced).toEqual(expect.arrayContaining(ops.map((o) => o.id)));

    expect(await queueDeploys(db(), { queue })).toEqual([]);
    expect(await unfinishedUpdates(account.machineIds)).toHaveLength(account.machineIds.length);
  });

  it('queues one UpdateSoftware per machine when four passes run at once', async () => {
    const accounts = [await freshAccount(), await freshAccount(), await freshAccount()];
    const ids = accounts.flatMap((a) => a.machineIds);
    // Desired versions move outside a push (a followed commit would do the same).
    await db().execute(sql`update machines set desired_versions = desired_versions || '{"launcher": "master|0000000"}'::jsonb where ${inArray(machines.id, ids)}`);
    const passes = await Promise.all([1, 2, 3, 4].map(() => queueDeploys(db(), { queue })));
    const queued = passes.flat().filter((q) => ids.includes(q.operation.machineId));
    expect(queued).toHaveLength(ids.length);
    const { rows } = await db().execute<{ machine_id: number; n: number }>(sql`
      select machine_id, count(*)::int as n from operations
      where type_name = 'UpdateSoftware' and finished_at is null and ${inArray(operations.machineId, ids)} group by machine_id`);
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });

  it('waits for approval on a production class (the queue decides)', async () => {
    const account = await freshAccount(5);
    await db().execute(sql`update machines set desired_versions = desired_versions || '{"client": "master|0000000"}'::jsonb where ${inArray(machines.id, account.machineIds)}`);
    await queueDeploys(db(), { queue });
    const ops = await unfinishedUpdates(account.machineIds);
    expect(ops.map((o) => o.pending)).toEqual(account.machineIds.map(() => true));
  });

  it('leaves unmanaged and terminating machines alone, and respects a cancel until the desired versions change', async () => {
    const account = await freshAccount();
    const [a, b] = account.machineIds as [number, number];
    await db().update(machines).set({ managed: false }).where(eq(machines.id, a));
    const [, older] = await commitsOf(db(), 'siteMaster', 'master');
    await pushInstance(account.id, { siteMasterVersionMode: 'Select', siteMasterVersion: `master|${older}` });
    await queueDeploys(db(), { queue });
    const [op] = await unfinishedUpdates([a, b]);
    expect(op?.machineId).toBe(b);

    // The operator cancels it; the agent ends it.
    await db().update(operations).set({ decision: 'CANCEL', decidedBy: 'admin', status: 'FAILURE', finishedAt: new Date() }).where(eq(operations.id, op!.id));
    await queueDeploys(db(), { queue });
    expect(await unfinishedUpdates([a, b])).toEqual([]);

    const [, , oldest] = await commitsOf(db(), 'siteMaster', 'master');
    await pushInstance(account.id, { siteMasterVersionMode: 'Select', siteMasterVersion: `master|${oldest}` });
    await queueDeploys(db(), { queue });
    expect((await unfinishedUpdates([a, b])).map((o) => o.machineId)).toEqual([b]);
  });
});

describe('the UpdateSoftware effect', () => {
  it('writes the current version state, moves the previous one to history, and obsolete goes false, once', async () => {
    const account = await freshAccount();
    const [, older] = await commitsOf(db(), 'reporting', 'master');
    await pushInstance(account.id, { reportingVersionMode: 'Select', reportingVersion: `master|${older}`, bundleVersion: '8.1.4.1520' });
    await queueDeploys(db(), { queue });
    const [op] = await unfinishedUpdates(account.machineIds);
    const machineId = op!.machineId;
    const [previous] = await db().select().from(versionStates).where(and(eq(versionStates.machineId, machineId), eq(versionStates.current, true)));

    const lines = await runEffect('UpdateSoftware', op!.id);
    const [m] = await machineRows([machineId]);
    expect(m!.currentVersions).toEqual(m!.desiredVersions);
    expect(m!.obsolete).toBe(false);
    expect(m!.bundleVersion).toBe('8.1.4.1520');
    const states = await db().select().from(versionStates).where(eq(versionStates.machineId, machineId)).orderBy(versionStates.id);
    expect(states.filter((s) => s.current).map((s) => s.operationId)).toEqual([op!.id]);
    expect(states.find((s) => s.id === previous!.id)?.current).toBe(false);
    const current = states.find((s) => s.current)!;
    expect(current.components.reporting).toMatchObject({ branchName: 'master', shortHash: older });
    expect(Object.keys(current.components)).toHaveLength(19);
    expect(lines.deployer).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^reporting: installed master\\|${older} \\(was `))]));
    // The output is for people: the component's label and versions as 'branch / hash' (issue 24 point 8).
    expect(lines.output).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^Reporting updated: .+ / \\w+ → master / ${older}$`))]));
    expect(lines.output.join('\n')).not.toContain('|');
    expect(lines.output.at(-1)).toMatch(/^Version state recorded: 1 changed, \d+ unchanged$/);

    // A retry of the same operation (a worker died after the write) does nothing twice.
    const { ctx, lines: again } = await contextFor((await db().select().from(operations).where(eq(operations.id, op!.id)))[0]!);
    await effects.UpdateSoftware!(ctx);
    expect(again.output).toEqual(['The versions were installed by an earlier attempt; nothing to deploy']);
    expect(await db().select().from(versionStates).where(eq(versionStates.machineId, machineId))).toHaveLength(states.length);
  });

  it('writes nothing for an operation reset while it deployed, and fails on a commit not in the catalogue', async () => {
    const account = await freshAccount();
    await db().execute(sql`update machines set desired_versions = desired_versions || '{"launcher": "master|0000000"}'::jsonb where ${inArray(machines.id, account.machineIds)}`);
    await queueDeploys(db(), { queue });
    const [unknown, reset] = await unfinishedUpdates(account.machineIds);
    await expect(runEffect('UpdateSoftware', unknown!.id)).rejects.toThrow(/Unknown commit for Launcher \(master\|0000000\)/);

    const [, older] = await commitsOf(db(), 'launcher', 'master');
    await db().update(operations).set({ params: { versions: { launcher: `master|${older}` } } }).where(eq(operations.id, reset!.id));
    const { ctx } = await contextFor(await running(reset!.id));
    await db().update(operations).set({ status: 'FAILURE', finishedAt: new Date() }).where(eq(operations.id, reset!.id));
    await expect(effects.UpdateSoftware!(ctx)).rejects.toBeInstanceOf(OperationFailure);
    expect(await db().select().from(versionStates).where(eq(versionStates.operationId, reset!.id))).toEqual([]);
  });

  it('deploys the desired versions when queued by hand without versions', async () => {
    const account = await freshAccount();
    const machineId = account.machineIds[0]!;
    const [, older] = await commitsOf(db(), 'client', 'master');
    await db().update(machines).set({ desiredVersions: sql`desired_versions || ${JSON.stringify({ client: `master|${older}` })}::jsonb` }).where(eq(machines.id, machineId));
    const [m] = await machineRows([machineId]);
    const [queued] = await db().transaction((tx) =>
      queue.enqueue(tx, [{ machine: { ...m!, accountClassId: 1 }, typeName: 'UpdateSoftware', user: 'operator', activityId: null, manualOnly: true }]),
    );
    await runEffect('UpdateSoftware', queued!.operation.id);
    const [after] = await machineRows([machineId]);
    expect(after!.currentVersions.client).toBe(`master|${older}`);
    expect(after!.obsolete).toBe(false);
    const [op] = await db().select().from(operations).where(eq(operations.id, queued!.operation.id));
    expect(op!.params.versions).toEqual(after!.desiredVersions);
  });
});

describe('a new commit on a followed branch', () => {
  it('makes the machines that follow the branch with Latest obsolete, caused by an MMA activity; others stay', async () => {
    const follower = await freshAccount();
    const other = await freshAccount();
    const [head] = await commitsOf(db(), 'launcher', 'master');
    await pushInstance(follower.id, { launcherVersionMode: 'Latest', launcherVersion: 'master' });
    const [, older] = await commitsOf(db(), 'launcher', 'master');
    await pushInstance(other.id, { launcherVersionMode: 'Select', launcherVersion: `master|${older}` });
    const ids = [...follower.machineIds, ...other.machineIds];
    // As if deployed: current = desired.
    await db().execute(sql`update machines set current_versions = desired_versions where ${inArray(machines.id, ids)}`);
    expect((await machineRows(follower.machineIds)).map((m) => m.desiredVersions.launcher)).toEqual(follower.machineIds.map(() => `master|${head}`));

    const { changed } = await db().transaction((tx) =>
      recordCommit(tx, { software: 'launcher', branch: 'master', shortHash: 'fee1bad', fullHash: 'fee1bad'.padEnd(40, '0'), author: 'Test', message: 'Fix tests', timestamp: new Date() }),
    );
    expect(changed.map((c) => c.id)).toEqual(expect.arrayContaining(follower.machineIds));
    expect(changed.some((c) => other.machineIds.includes(c.id))).toBe(false);
    const { rows: [activity] } = await db().execute<{ id: number; user_name: string }>(sql`select id, user_name from audit_activities where action = 'FollowLatestCommit' order by id desc limit 1`);
    for (const m of await machineRows(follower.machineIds)) {
      expect(m).toMatchObject({ obsolete: true, desiredActivityId: activity!.id });
      expect(m.desiredVersions.launcher).toBe('master|fee1bad');
    }
    expect((await machineRows(other.machineIds)).every((m) => !m.obsolete)).toBe(true);
    expect(activity!.user_name).toBe('MMA');
  });
});

describe('the TestLatestCode effect', () => {
  it("deploys the branch's newest commits, writes the version state and runs the smoke test", async () => {
    const account = await freshAccount();
    const machineId = account.machineIds[0]!;
    const [m] = await machineRows([machineId]);
    const [queued] = await db().transaction((tx) =>
      queue.enqueue(tx, [{ machine: { ...m!, accountClassId: 1 }, typeName: 'TestLatestCode', user: 'operator', activityId: null, params: { branch: 'develop' } }]),
    );
    const lines = await runEffect('TestLatestCode', queued!.operation.id);
    const [developHead] = await commitsOf(db(), 'launcher', 'develop');
    const [after] = await machineRows([machineId]);
    expect(after!.currentVersions.launcher).toBe(`develop|${developHead}`);
    const [state] = await db().select().from(versionStates).where(eq(versionStates.operationId, queued!.operation.id));
    expect(state).toMatchObject({ current: true, components: { launcher: { branchName: 'develop', shortHash: developHead } } });
    expect(lines.output.at(-1)).toBe('Smoke test passed: 5 of 5 checks');
    const [op] = await db().select().from(operations).where(eq(operations.id, queued!.operation.id));
    expect(op!.params).toMatchObject({ branch: 'develop', versions: after!.currentVersions });
  });
});

describe('level-driven', () => {
  it('runs the next pass at once after a full batch, not a timer period later', async () => {
    const account = await freshAccount();
    const [, older] = await commitsOf(db(), 'reporting', 'master');
    await pushInstance(account.id, { reportingVersionMode: 'Select', reportingVersion: `master|${older}` });
    // One machine per pass and a timer of an hour: only passes run back to back queue them all.
    const controller = startDeployController({ db: db(), queue, everyMs: 3_600_000, batch: 1, listen: false });
    try {
      const deadline = Date.now() + 10_000;
      while ((await unfinishedUpdates(account.machineIds)).length < account.machineIds.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(account.machineIds.length).toBeGreaterThanOrEqual(2);
      expect(await unfinishedUpdates(account.machineIds)).toHaveLength(account.machineIds.length);
    } finally {
      await controller.stop();
    }
  });

  it('the controller runs a pass when a push commits (NOTIFY), without waiting for its timer', async () => {
    const controller = startDeployController({ db: db(), queue, everyMs: 3_600_000 });
    try {
      await controller.pass();
      // The listener connects beside the first pass.
      await new Promise((r) => setTimeout(r, 1_000));
      const account = await freshAccount();
      const [, older] = await commitsOf(db(), 'populate', 'master');
      await pushInstance(account.id, { populateVersionMode: 'Select', populateVersion: `master|${older}` });
      const deadline = Date.now() + 10_000;
      while ((await unfinishedUpdates(account.machineIds)).length < account.machineIds.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await unfinishedUpdates(account.machineIds)).toHaveLength(account.machineIds.length);
    } finally {
      await controller.stop();
    }
  });
});
