/**
 * History retention (issue 25 point 6; `README.md`) against a real PostgreSQL
 * with the demo fleet: rollouts Completed or Aborted past the retention are
 * deleted with their targets (Running ones and recent ones kept), operations
 * finished past it keep their row with one line as output, audit activities
 * stay; batches of a given size, the cursor moving forward only, and a second
 * pass changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ZRolloutPlan, ZSoftwareUpdateConfig } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { startRollout } from '../rollouts/start.js';
import { prunedOutputLine, pruneHistory } from './history.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.close());

const db = () => t.database.db;

async function rollout(status: string, daysAgo: number): Promise<number> {
  const { rows: users } = await db().execute<{ userId: number; username: string; name: string; email: string; permissions: string[]; groups: string[] }>(
    sql`select id as "userId", username, name, email, permissions, groups from users where username = 'admin'`,
  );
  const { rows: machines } = await db().execute<{ id: number }>(sql`select id from machines where deleted_at is null order by id limit 2`);
  return db().transaction(async (tx) => {
    const id = await startRollout(tx, {
      principal: { ...users[0]!, jti: 'history' },
      kind: 'machines',
      config: ZSoftwareUpdateConfig.parse({}),
      targetIds: machines.map((m) => m.id),
      plan: ZRolloutPlan.parse({}),
      activityId: null,
    });
    await tx.execute(sql`update rollouts set status = ${status}, updated_at = now() - ${daysAgo} * interval '1 day' where id = ${id}`);
    return id;
  });
}

describe('history retention', () => {
  it('deletes finished rollouts past the retention with their targets, and keeps the others', async () => {
    const old = [await rollout('Completed', 200), await rollout('Aborted', 181)];
    const kept = [await rollout('Completed', 10), await rollout('Running', 400), await rollout('Halted', 400)];
    const activities = (await db().execute<{ n: number }>(sql`select count(*)::int as n from audit_activities`)).rows[0]!.n;
    const report = await pruneHistory(db(), { days: 180 });
    expect(report.rollouts).toBeGreaterThanOrEqual(2);
    const { rows } = await db().execute<{ id: number }>(sql`select id from rollouts where id = any(${sql.param([...old, ...kept])}::int[]) order by id`);
    expect(rows.map((r) => r.id)).toEqual(kept);
    const { rows: targets } = await db().execute<{ n: number }>(sql`select count(*)::int as n from rollout_targets where rollout_id = any(${sql.param(old)}::int[])`);
    expect(targets[0]!.n).toBe(0);
    const { rows: waves } = await db().execute<{ n: number }>(sql`select count(*)::int as n from rollout_waves where rollout_id = any(${sql.param(old)}::int[])`);
    expect(waves[0]!.n).toBe(0);
    expect((await db().execute<{ n: number }>(sql`select count(*)::int as n from audit_activities`)).rows[0]!.n).toBe(activities);
  });

  it("replaces the outputs of operations finished past the retention, in batches, once, and keeps their rows", async () => {
    const { rows: ops } = await db().execute<{ id: number }>(sql`
      insert into operations (machine_id, account_id, class_id, type_id, type_name, user_name, timeout_seconds, operation_mode, status)
      select m.id, m.account_id, m.class_id, ot.id, ot.name, 'history', 60, 1, 'SUCCESS'
      from machines m join operation_types ot on ot.machine_class_id = m.class_id and ot.name = 'SmokeTest'
      where m.deleted_at is null order by m.id limit 5 returning id`);
    expect(ops.length).toBe(5);
    const ids = ops.map((o) => o.id);
    // Three finished long ago, two recently.
    await db().execute(sql`update operations set finished_at = now() - (200 + id % 7) * interval '1 day',
      output = 'kept ' || id, deployer_log = 'log ' || id where id = any(${sql.param(ids.slice(0, 3))}::int[])`);
    await db().execute(sql`update operations set finished_at = now() - interval '1 day', output = 'recent'
      where id = any(${sql.param(ids.slice(3))}::int[])`);
    const total = (await db().execute<{ n: number }>(sql`select count(*)::int as n from operations`)).rows[0]!.n;
    // Batches of 1: every old operation is reached by the walk, batch after batch.
    let report = await pruneHistory(db(), { days: 180, batch: 1, maxBatches: 1000 });
    expect(report.more).toBe(false);
    expect(report.outputs).toBeGreaterThanOrEqual(3);
    const { rows } = await db().execute<{ id: number; output: string; deployer_log: string }>(
      sql`select id, output, deployer_log from operations where id = any(${sql.param(ids)}::int[]) order by id`,
    );
    expect(rows.slice(0, 3).map((r) => [r.output, r.deployer_log])).toEqual(Array(3).fill([prunedOutputLine(180), '']));
    expect(rows.slice(3).map((r) => r.output)).toEqual(['recent', 'recent']);
    expect((await db().execute<{ n: number }>(sql`select count(*)::int as n from operations`)).rows[0]!.n).toBe(total);
    // The cursor stands after the last one: a second pass finds nothing.
    report = await pruneHistory(db(), { days: 180 });
    expect(report).toEqual({ rollouts: 0, outputs: 0, more: false });
  });
});
