/**
 * Rollback (issue 25 point 3; `rollback.ts`, `README.md` Rollback; fixtures in
 * `rollouts.fixtures.ts`) through the real software update and its restore, on
 * the demo fleet with the simulated agent: Roll back of a Completed rollout (dry
 * run first, a new rollout linked both ways, the machines back on their old
 * versions, once only), the rules that refuse it (409, 404 hidden, bad input),
 * a halt with `onHalt: 'rollback'` starting it by itself, and an account
 * update's machineConfig and cleared overrides put back.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ZRolloutPlan, ZSoftwareUpdateConfig, type TBatchResult, type TRollout } from '@fleet/contracts';
import { rolloutPass } from './engine.js';
import { startRollout } from './start.js';
import type { DbOrTx } from '../../db/client.js';
import { raiseIssue } from '../issues/raise.js';
import { SOFTWARE_UPDATE_APPLIER } from './software-update-applier.js';
import { applySoftwareUpdate } from '../../modules/software-update/software-update.apply.js';
import { applyRestore } from '../../modules/software-update/software-update.restore.js';
import { sleep, useRolloutApp } from './rollouts.fixtures.js';

const f = useRolloutApp();
const { db, events, freshMachines, get, principalOf, launcherVersionForAll } = f;

/** Runs passes of the real update until `done(rollout)`, at most 30 s. */
async function passUntil(id: number, done: (r: TRollout) => boolean): Promise<TRollout> {
  const end = Date.now() + 30_000;
  for (;;) {
    await rolloutPass({ db: db(), updates: SOFTWARE_UPDATE_APPLIER, events });
    const r = await get(id);
    if (done(r)) return r;
    if (Date.now() > end) throw new Error(`rollout ${id}: ${r.status} ${r.reason ?? ''} ${JSON.stringify(r.waves.map((w) => [w.status, w.counts]))}`);
    await sleep(100);
  }
}

const ended = (r: TRollout) => r.status !== 'Running';

async function machinesOf(ids: number[]) {
  const { rows } = await db().execute<{ id: number; launcher: string | null; desired: string | null; overrides: Record<string, unknown> }>(sql`
    select id, current_versions->>'launcher' as launcher, desired_versions->>'launcher' as desired, version_overrides as overrides
    from machines where id = any(${sql.param(ids)}::int[]) order by id`);
  return rows;
}

/** Starts a rollout of a launcher version none of `ids` runs through the route, as operator; answers its id and the version. */
async function startUpdate(ids: number[], rollout: Record<string, unknown>) {
  const version = await launcherVersionForAll(ids);
  const body = { machines: ids, launcherVersionMode: 'Select', launcherVersion: version, rollout };
  const res = await f.t.call({ method: 'POST', url: '/software-update/update-machines', as: 'operator', body });
  expect(res.statusCode, res.body).toBe(200);
  return { id: (res.json() as TBatchResult).rolloutId!, version };
}

const rollback = (id: number, body: unknown = {}, as = 'operator') => f.t.call({ method: 'POST', url: `/rollouts/${id}/rollback`, as, body });

describe('Roll back', () => {
  it('shows the dry run, starts a rollout linked both ways that puts the old versions back, once', async () => {
    const ids = await freshMachines(2);
    const before = await machinesOf(ids);
    const { id, version } = await startUpdate(ids, { waves: [{ kind: 'count', value: 1 }] });
    // Running: not yet.
    expect((await rollback(id)).statusCode).toBe(409);
    const done = await passUntil(id, ended);
    expect(done.status, done.reason ?? '').toBe('Completed');
    expect((await machinesOf(ids)).map((m) => m.launcher)).toEqual(ids.map(() => version));

    const dry = await rollback(id, { dryRun: true });
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json() as TBatchResult;
    expect(plan).toMatchObject({ dryRun: true, rolloutId: null, changed: 2, refused: 0 });
    // The machines had no override: they follow their account's version again.
    expect(plan.targets.map((t) => t.changes.map((c) => [c.field, c.oldValue, c.newValue]))).toEqual(
      ids.map(() => [['launcherVersion', `Select ${version}`, expect.stringMatching(/ \(the account's\)$/)]]),
    );
    expect((await get(id)).rolledBackBy).toBeNull();

    const res = await rollback(id);
    expect(res.statusCode, res.body).toBe(200);
    const rollbackId = (res.json() as TBatchResult).rolloutId!;
    const original = await get(id);
    expect(original).toMatchObject({ status: 'Completed', rolledBackBy: rollbackId, rollbackOf: null });
    const back = await get(rollbackId);
    expect(back).toMatchObject({ rollbackOf: id, rolledBackBy: null, createdBy: 'operator', plan: { waves: original.plan.waves, onHalt: 'stay' } });
    expect(back.waves.map((w) => w.size)).toEqual([1, 1]);
    const { rows: audit } = await db().execute<{ user_name: string; params: Record<string, unknown> }>(
      sql`select user_name, params from audit_activities where id = ${back.activityId}`,
    );
    expect(audit[0]).toMatchObject({ user_name: 'operator', params: { rolloutId: id, rollbackId, targets: 2 } });
    // Once only, and the rolled-back rollout is not resumed.
    expect((await rollback(id)).statusCode).toBe(409);

    const finished = await passUntil(rollbackId, ended);
    expect(finished.status, finished.reason ?? '').toBe('Completed');
    const after = await machinesOf(ids);
    expect(after.map((m) => m.overrides)).toEqual(before.map((m) => m.overrides));
    expect(after.map((m) => m.launcher)).toEqual(after.map((m) => m.desired));
    expect(after.map((m) => m.desired)).toEqual(before.map((m) => m.desired));
  }, 90_000);

  it('refuses bad input (400), a reader (403), a hidden rollout (404) and an unknown one (404)', async () => {
    const ids = await freshMachines(1);
    const { id } = await startUpdate(ids, {});
    expect((await rollback(id, { dryRun: 'yes' })).statusCode).toBe(400);
    expect((await f.t.call({ method: 'POST', url: '/rollouts/2147483648/rollback', as: 'operator', body: {} })).statusCode).toBe(400);
    expect((await rollback(id, {}, 'viewer')).statusCode).toBe(403);
    expect((await rollback(999_999)).statusCode).toBe(404);
    const [cp] = await freshMachines(1, true);
    const principal = await principalOf('admin');
    const plan = ZRolloutPlan.parse({ approval: 'perWave' });
    const hidden = await db().transaction((tx) => startRollout(tx, { principal, kind: 'machines', config: ZSoftwareUpdateConfig.parse({}), targetIds: [cp!], plan, activityId: null }));
    const res = await rollback(hidden, {}, 'operator');
    expect(res.statusCode, res.body).toBe(404);
  }, 60_000);

  it("rolls back by itself when it halts with onHalt 'rollback' (by user Rollout): only the applied wave's targets", async () => {
    const ids = await freshMachines(3);
    const before = await machinesOf(ids);
    const { id } = await startUpdate(ids, { waves: [{ kind: 'count', value: 1 }], bakeMinutes: 5, onHalt: 'rollback' });
    await passUntil(id, (r) => r.waves[0]!.status === 'Baking');
    await raiseIssue(db(), { machineId: ids[0]!, source: 'probe', description: 'Launcher probe of https://x.example failed: HTTP 503', tags: ['probe'], content: '503' });
    const halted = await passUntil(id, ended);
    expect(halted.status).toBe('Halted');
    expect(halted.rolledBackBy).not.toBeNull();
    const back = await get(halted.rolledBackBy!);
    expect(back).toMatchObject({ rollbackOf: id, createdBy: 'Rollout', plan: { onHalt: 'stay', bakeMinutes: 0 } });
    expect(back.counts.Pending).toBe(1);
    const { rows: audit } = await db().execute<{ user_name: string }>(sql`select user_name from audit_activities where id = ${back.activityId}`);
    expect(audit[0]!.user_name).toBe('Rollout');
    // The halted rollout cannot be resumed any more: it is rolled back.
    expect((await f.t.call({ method: 'POST', url: `/rollouts/${id}/resume`, as: 'operator' })).statusCode).toBe(409);

    const finished = await passUntil(back.id, ended);
    expect(finished.status, finished.reason ?? '').toBe('Completed');
    const after = await machinesOf(ids);
    expect(after.map((m) => m.desired)).toEqual(before.map((m) => m.desired));
    expect(after[0]!.launcher).toBe(before[0]!.launcher);
    expect(after.map((m) => m.overrides)).toEqual(before.map((m) => m.overrides));
  }, 90_000);
});

describe('an account update put back', () => {
  it("restores the account's machineConfig versions and the overrides the update cleared on its machines", async () => {
    const [machineId] = await freshMachines(1);
    const { rows } = await db().execute<{ account_id: number }>(sql`select account_id from machines where id = ${machineId}`);
    const accountId = rows[0]!.account_id;
    const version = await launcherVersionForAll([machineId!]);
    const principal = await principalOf('admin');
    const read = async (tx: DbOrTx = db()) => {
      const { rows: r } = await tx.execute<{ config: Record<string, unknown>; overrides: Record<string, unknown> }>(sql`
        select s.machine_config as config, m.version_overrides as overrides from machines m join account_settings s on s.account_id = m.account_id where m.id = ${machineId}`);
      return { mode: r[0]!.config.launcherVersionMode, version: r[0]!.config.launcherVersion, overrides: r[0]!.overrides };
    };
    // The machine overrides its account's launcher: the account update clears that override.
    await db().execute(sql`update machines set version_overrides = jsonb_build_object('launcher', jsonb_build_object('mode', 'Select', 'version', ${version}::text)) where id = ${machineId}`);
    const before = await read();
    const { rows: commits } = await db().execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' and b.name = 'master' and b.name || '|' || c.short_hash not in (${version}, ${String(before.version)})
      order by c.timestamp desc limit 1`);
    const config = ZSoftwareUpdateConfig.parse({ launcherVersionMode: 'Select', launcherVersion: commits[0]!.v });
    await db().transaction(async (tx) => {
      const { previous } = await applySoftwareUpdate(tx, { principal, kind: 'accounts', config, targetIds: [accountId], activityId: await anyActivity() });
      const updated = await read(tx);
      expect(updated).toEqual({ mode: 'Select', version: commits[0]!.v, overrides: {} });
      expect(previous.get(accountId)).toMatchObject({
        machineConfig: { launcherVersionMode: before.mode, launcherVersion: before.version },
        machineOverrides: { [String(machineId)]: { launcher: { mode: 'Select', version } } },
      });
      await applyRestore(tx, { principal, kind: 'accounts', targets: [{ id: accountId, restore: previous.get(accountId)! }], activityId: await anyActivity() });
      expect(await read(tx)).toEqual(before);
      tx.rollback();
    }).catch((err: unknown) => {
      if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
    });
  }, 60_000);
});

async function anyActivity(): Promise<number> {
  const { rows } = await db().execute<{ id: number }>(sql`select max(id)::int as id from audit_activities`);
  return rows[0]!.id;
}
