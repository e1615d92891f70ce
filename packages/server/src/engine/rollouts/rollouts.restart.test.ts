/**
 * A worker killed in the middle of a rollout pass (DESIGN §15; `README.md` "A
 * wave is applied once"): the real server process (`main.ts`, `ROLE=worker`,
 * `test/worker-processes.ts`) on a fresh copy of the demo fleet runs a rollout
 * of a real software update (launcher Select) to 12 machines in the default
 * waves (1, 2, 9), with its deploy controller and simulated agent (no delay)
 * deploying each wave.
 *
 * The test holds a lock on a machine of wave 2, so that the worker's pass that
 * applies wave 2 waits inside its transaction (its RolloutWave activity written,
 * the machines' lock asked for), sees it waiting there, and kills the worker with
 * SIGKILL; then it releases the lock, so the dead worker's backend ends and its
 * transaction rolls back, and starts a second worker. It expects nothing of
 * wave 2 committed by the killed pass, the rollout Completed by the second
 * worker, one RolloutWave activity per wave and one UpdateSoftware (caused by a
 * wave) per machine, every target Succeeded.
 *
 * Duration: two worker starts (about 5–15 s each) and three waves of simulated
 * deploys: well under a minute.
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ZSoftwareUpdateConfig } from '@fleet/contracts';
import { useRolloutWorkers } from './rollouts.fixtures.js';

/** Longest wait for the rollout to end after the second worker started, ms. */
const COMPLETE_TIMEOUT_MS = 90_000;

// First: its afterAll hooks (the workers killed, the database dropped) run after the file's own.
const { database, workers, data } = useRolloutWorkers('fleet-crash-rollout-');
/** The test's own connection holding the lock on a machine of wave 2. */
let locker: pg.Client | undefined;
afterAll(async () => {
  await locker?.end().catch(() => undefined);
});

const rolloutOf = async (id: number) =>
  (await database.db.execute<{ status: string; reason: string | null }>(sql`select status, reason from rollouts where id = ${id}`)).rows[0]!;
const statesOf = async (id: number) =>
  (await database.db.execute<{ state: string }>(sql`select state from rollout_targets where rollout_id = ${id} order by position`)).rows.map((r) => r.state);

describe('a worker killed with SIGKILL in the middle of a rollout pass', () => {
  it('applies no wave twice: a second worker completes the rollout with one RolloutWave per wave and one UpdateSoftware per machine', async () => {
    const db = database.db;
    const ids = await data.freshMachines(12);
    // Only these machines deploy: the fleet's other obsolete machines would keep the agent busy.
    await db.execute(sql`update machines set managed = false where not (id = any(${sql.param(ids)}::int[]))`);
    const config = ZSoftwareUpdateConfig.parse({ launcherVersionMode: 'Select', launcherVersion: await data.launcherVersionForAll(ids) });

    locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await locker.query('begin');
    await locker.query('select 1 from machines where id = $1 for update', [ids[1]]);

    const first = await workers.start();
    const id = await data.start(ids, {}, 'operator', config);

    // The pass of wave 2 waits for the machine inside its transaction, holding the rollout's row.
    const waiting = await workers.until('the pass of wave 2 waiting for the locked machine', 60_000, async () => {
      const { rows } = await db.execute<{ pid: number; query: string }>(
        sql`select pid, query from pg_stat_activity where ${lockerPid} = any(pg_blocking_pids(pid))`,
      );
      return rows[0];
    });
    expect(waiting.query).toMatch(/from machines m\s+join accounts a[\s\S]*for update of m/);
    const held = await db.transaction(async (tx) => (await tx.execute(sql`select 1 from rollouts where id = ${id} for update skip locked`)).rows);
    expect(held).toEqual([]);
    expect((await data.waveActivities(id)).map((a) => a.wave)).toEqual([0]);

    await workers.kill(first, 'SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');
    await locker.query('rollback');
    // The killed worker's backend ends at its next write to the gone client; its transaction rolls back.
    await workers.until('the killed pass to end', 30_000, async () => {
      const { rows } = await db.execute(sql`select 1 from pg_stat_activity where pid = ${waiting.pid}`);
      return rows.length === 0 ? true : undefined;
    });
    expect((await data.waveActivities(id)).map((a) => a.wave)).toEqual([0]);
    expect((await statesOf(id)).slice(1, 3)).toEqual(['Pending', 'Pending']);

    const second = await workers.start();
    const startedAt = Date.now();
    const done = await workers.until('the rollout ended', COMPLETE_TIMEOUT_MS, async () => {
      const r = await rolloutOf(id);
      return ['Completed', 'Halted'].includes(r.status) ? r : undefined;
    });
    console.info(`rollout crash: the second worker completed the rollout in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    expect(done, done.reason ?? '').toEqual({ status: 'Completed', reason: null });
    expect(await statesOf(id)).toEqual(ids.map(() => 'Succeeded'));
    expect((await data.waveActivities(id)).map((a) => a.wave)).toEqual([0, 1, 2]);
    const updates = await data.updatesPerMachine(ids);
    expect(ids.map((m) => updates.get(m)?.n)).toEqual(ids.map(() => 1));
    const { rows: versions } = await db.execute<{ launcher: string }>(
      sql`select current_versions->>'launcher' as launcher from machines where id = any(${sql.param(ids)}::int[])`,
    );
    expect(versions.map((v) => v.launcher)).toEqual(ids.map(() => config.launcherVersion));
    await workers.kill(second, 'SIGTERM');
    expect(await second.exited).toBe(0);
  }, 240_000);
});
