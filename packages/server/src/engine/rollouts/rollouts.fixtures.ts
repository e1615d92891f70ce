/**
 * Shared fixtures of the rollout tests (`rollouts.*.test.ts`; DESIGN §15,
 * `README.md`): machines ready to deploy, a rollout started as a user, its waves'
 * audit activities and the UpdateSoftware operations they caused, on any
 * database ({@link rolloutData}); and, for the tests that run the engine in this
 * process ({@link useRolloutApp}), the real app on a fresh copy of the demo
 * fleet with the simulated agent (zero delays) running the UpdateSoftware the
 * deploy controller queues; for the tests that kill worker processes
 * ({@link useRolloutWorkers}), a database and the workers' set-up.
 *
 * The stand-in update ({@link RolloutApp.applier}) moves each machine's desired
 * launcher version to another real commit, with the wave's activity as the
 * cause, as `software-update.apply.ts` does for a real update; the tests that
 * need the real rules pass `SOFTWARE_UPDATE_APPLIER` and a real payload instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { ZRolloutPlan, ZSoftwareUpdateConfig, type TRollout, type TRolloutPlanInput, type TRolloutTarget, type TSoftwareUpdateConfig } from '@fleet/contracts';
import { startTestApp, useTestDatabase, type TestApp } from '../../../test/harness.js';
import { workerProcesses } from '../../../test/worker-processes.js';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createOperationEngine, type OperationEngine } from '../operations/agent.js';
import { createSimulatedAgent, type SimulatedAgent } from '../operations/simulated-agent.js';
import { createDeployEffects } from '../desired-state/deploy-effects.js';
import { startDeployController, type DeployController } from '../desired-state/controller.js';
import { createTaskEvents, type FleetEvent, type TaskEvents } from '../push/events.js';
import { rolloutPass, type RolloutEngine, type SoftwareUpdateApplier } from './engine.js';
import { startRollout } from './start.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The set-up of a test that starts and kills rollout worker processes
 * (`test/worker-processes.ts`): a fresh copy of the demo fleet (3 connections),
 * a data folder named `<folderPrefix>…` made before the tests, the workers on
 * them (no agent delay, 100 ms cloud transitions, a rollout pass every 200 ms, no
 * probes) and {@link rolloutData} on the database; after the tests the workers
 * are killed, the folder removed and the database dropped, in that order. Call
 * it first at the file's top level: the file's own `afterAll` hooks run before
 * these.
 */
export function useRolloutWorkers(folderPrefix: string) {
  const database = useTestDatabase({ max: 3 });
  let dataDir = '';
  const workers = workerProcesses(() => ({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    SIM_AGENT_DELAY_MS: '0',
    SIM_CLOUD_DELAY_MS: '100',
    ROLLOUT_PASS_MS: '200',
    PROBE_INTERVAL_S: '0',
  }));
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), folderPrefix));
  });
  afterAll(async () => {
    await workers.killAll();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { database, workers, data: rolloutData(() => database.db) };
}

/** The rollout helpers that need only a database (also the worker-process tests'). */
export function rolloutData(db: () => Db) {
  /** Per machine, the launcher version (`branch|shortHash`) the update moves it to: another commit than it runs. */
  const targetVersion = new Map<number, string>();
  const used = new Set<number>();

  async function principalOf(username: string): Promise<Principal> {
    const { rows } = await db().execute<Omit<Principal, 'jti'>>(
      sql`select id as "userId", username, name, email, permissions, groups from users where username = ${username}`,
    );
    return { ...rows[0]!, jti: 'test' };
  }

  /**
   * `n` machines ready to deploy (managed, running, up to date, no operation
   * unfinished, no approval needed), or `n` live Customer Production machines,
   * each with a launcher commit to move to (one of the two newest it does not run).
   */
  async function freshMachines(n: number, customerProduction = false): Promise<number[]> {
    const { rows } = await db().execute<{ id: number; launcher: string | null }>(sql`
      select m.id, m.current_versions->>'launcher' as launcher from machines m join accounts a on a.id = m.account_id
      join mma_classes c on c.id = m.class_id
      where m.deleted_at is null and not m.terminate and not a.is_template and a.deleted_at is null
        and ${customerProduction ? sql`5 in (m.class_id, a.class_id)` : sql`5 not in (m.class_id, a.class_id)
        and m.managed and not m.manual_maintenance and not m.needs_admin and not m.obsolete and m.operation_mode = 1 and not c.is_production`}
        and not exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.standby)
        and exists (select 1 from cloud_instances ci where ci.machine_id = m.id and ci.active and ci.status = 'running' and ci.next_status is null)
        and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
        and not exists (select 1 from machine_tasks k where k.machine_id = m.id and k.status in ('New', 'Running'))
        and not (m.id = any(${sql.param([...used])}::int[]))
      order by m.id limit ${n}`);
    if (rows.length < n) throw new Error(`only ${rows.length} fresh machines`);
    const { rows: commits } = await db().execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' order by c.timestamp desc, c.id desc limit 2`);
    for (const r of rows) {
      used.add(r.id);
      targetVersion.set(r.id, r.launcher === commits[0]!.v ? commits[1]!.v : commits[0]!.v);
    }
    return rows.map((r) => r.id);
  }

  /** Starts a rollout of `config` (default: the stand-in's empty payload) to machines `ids` as `username`; answers its id. */
  async function start(ids: number[], plan: TRolloutPlanInput = {}, username = 'admin', config: TSoftwareUpdateConfig = ZSoftwareUpdateConfig.parse({})): Promise<number> {
    const principal = await principalOf(username);
    return db().transaction((tx) => startRollout(tx, { principal, kind: 'machines', config, targetIds: ids, plan: ZRolloutPlan.parse(plan), activityId: null }));
  }

  /** A launcher version (`master|shortHash`, the oldest) that none of `ids` runs or is set to: an update to it changes each machine. */
  async function launcherVersionForAll(ids: number[]): Promise<string> {
    const { rows } = await db().execute<{ v: string }>(sql`
      select b.name || '|' || c.short_hash as v from software_commits c join software_branches b on b.id = c.branch_id
      where c.software = 'launcher' and b.name = 'master'
        and not exists (select 1 from machines m where m.id = any(${sql.param(ids)}::int[])
          and b.name || '|' || c.short_hash in (m.current_versions->>'launcher', m.desired_versions->>'launcher'))
      order by c.timestamp asc, c.id asc limit 1`);
    if (!rows[0]) throw new Error(`no launcher version that none of ${ids.join(', ')} runs`);
    return rows[0].v;
  }

  /**
   * The RolloutWave activities of a rollout, in order: `wave` the wave's index
   * (from 0, as `rollout_targets` has it), `number` the wave as the activity's
   * params name it (from 1, as the rollout page shows it).
   */
  async function waveActivities(id: number) {
    const { rows } = await db().execute<{ id: number; wave: number; number: number; time: Date; user_name: string }>(sql`
      select id, (params->>'wave')::int - 1 as wave, (params->>'wave')::int as number, time, user_name from audit_activities
      where action = 'RolloutWave' and (params->>'rolloutId')::int = ${id} order by id`);
    return rows;
  }

  /** Per machine, the UpdateSoftware operations a RolloutWave activity caused: how many, the first queued, the last finished. */
  async function updatesPerMachine(ids: number[]) {
    const { rows } = await db().execute<{ machine_id: number; n: number; first: Date; last: Date }>(sql`
      select o.machine_id, count(*)::int as n, min(o.queued_at) as first, max(o.finished_at) as last from operations o join audit_activities a on a.id = o.activity_id
      where o.machine_id = any(${sql.param(ids)}::int[]) and o.type_name = 'UpdateSoftware' and a.action = 'RolloutWave' group by o.machine_id`);
    return new Map(rows.map((r) => [r.machine_id, r]));
  }

  return { targetVersion, principalOf, freshMachines, start, launcherVersionForAll, waveActivities, updatesPerMachine };
}

export type RolloutApp = ReturnType<typeof rolloutData> & {
  readonly t: TestApp;
  readonly agent: SimulatedAgent;
  readonly operations: OperationEngine;
  /** The deploy controller (every 100 ms; `pass()` runs one now). */
  readonly deploys: DeployController;
  readonly events: TaskEvents;
  /** Every event emitted since the start. */
  readonly seen: FleetEvent[];
  readonly applier: SoftwareUpdateApplier;
  db(): Db;
  /** `GET /rollouts/{id}` as `as` (200 expected). */
  get(id: number, as?: string): Promise<TRollout>;
  targetsOf(id: number): Promise<TRolloutTarget[]>;
  /** Runs passes (of `engine`, else of the stand-in applier, or `updates`) until the rollout's status is one of `until` (at most `ms`). */
  runUntil(id: number, until: string[], o?: { engine?: RolloutEngine; updates?: SoftwareUpdateApplier; ms?: number }): Promise<TRollout>;
};

/**
 * The app on a fresh copy of the demo fleet, the operation engine (simulated
 * agent, zero delays) and the deploy controller, started before the file's
 * tests and stopped after them. Call at the top of a test file.
 */
export function useRolloutApp(): RolloutApp {
  let t: TestApp;
  let agent: SimulatedAgent;
  let operations: OperationEngine;
  let deploys: DeployController;
  const events = createTaskEvents();
  const seen: FleetEvent[] = [];
  const db = () => t.database.db;
  const data = rolloutData(db);

  const applier: SoftwareUpdateApplier = {
    async plan(tx, o) {
      const { rows } = await tx.execute<{ id: number; name: string; launcher: string | null }>(
        sql`select id, name, desired_versions->>'launcher' as launcher from machines where id = any(${sql.param(o.targetIds)}::int[]) order by id`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, refused: null, changes: [{ field: 'launcherVersion', oldValue: r.launcher, newValue: data.targetVersion.get(r.id) }] }));
    },
    async apply(tx, o) {
      const ids = o.targetIds.filter((id) => data.targetVersion.has(id));
      const { rows } = await tx.execute<{ id: number }>(sql`
        update machines m set desired_versions = m.desired_versions || jsonb_build_object('launcher', t.v), desired_activity_id = ${o.activityId}
        from unnest(${sql.param(ids)}::int[], ${sql.param(ids.map((id) => data.targetVersion.get(id)!))}::text[]) as t(id, v)
        where m.id = t.id and m.desired_versions->>'launcher' is distinct from t.v returning m.id`);
      return { machineIds: rows.map((r) => r.id), previous: new Map() };
    },
  };

  beforeAll(async () => {
    t = await startTestApp();
    events.subscribe((e) => seen.push(e));
    agent = createSimulatedAgent({ effects: createDeployEffects() });
    operations = createOperationEngine({
      db: db(),
      cloud: createSimulatedCloud({ db: db(), delayMs: 0 }),
      agent,
      events,
      simDelayMs: 0,
      passMs: 100,
      panicFailures: 1000,
      anomalyFailures: 1000,
    });
    await operations.start();
    deploys = startDeployController({ db: db(), queue: t.app.deps.operations, everyMs: 100, listen: false });
    await deploys.pass();
  }, 60_000);
  afterAll(async () => {
    await deploys?.stop();
    await operations?.stop();
    await t?.close();
  });

  const get = async (id: number, as = 'admin') => {
    const res = await t.call({ method: 'GET', url: `/rollouts/${id}`, as });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TRollout;
  };

  async function runUntil(id: number, until: string[], o: { engine?: RolloutEngine; updates?: SoftwareUpdateApplier; ms?: number } = {}): Promise<TRollout> {
    const end = Date.now() + (o.ms ?? 30_000);
    for (;;) {
      if (o.engine) await o.engine.pass();
      else await rolloutPass({ db: db(), updates: o.updates ?? applier, events });
      const r = await get(id);
      if (until.includes(r.status)) return r;
      if (Date.now() > end) {
        const { rows } = await db().execute(sql`
          select m.id, m.operation_mode, m.obsolete, m.managed, m.class_id, o.status, o.pending, o.type_name, o.activity_id, rt.activity_id as rta
          from rollout_targets rt join machines m on m.id = rt.target_id left join operations o on o.machine_id = m.id and o.id > 0
          where rt.rollout_id = ${id} and rt.state = 'Deploying' order by o.id desc limit 10`);
        throw new Error(`rollout ${id} is still ${r.status}: ${JSON.stringify(r.waves.map((w) => w.counts))} ${JSON.stringify(rows)}`);
      }
      await sleep(100);
    }
  }

  return {
    ...data,
    get t() {
      return t;
    },
    get agent() {
      return agent;
    },
    get operations() {
      return operations;
    },
    get deploys() {
      return deploys;
    },
    events,
    seen,
    applier,
    db,
    get,
    targetsOf: async (id) =>
      ((await t.call({ method: 'GET', url: `/rollouts/${id}/targets`, as: 'admin', query: { limit: '1000' } })).json() as { items: TRolloutTarget[] }).items,
    runUntil,
  };
}
