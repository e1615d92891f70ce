/**
 * The engine parts `main.ts` runs when `ROLE` is `all` or `worker` (DESIGN §6–§9,
 * §12–§15; `engine/README.md`), as one list of the same shape: a part makes its
 * {@link EngineRun} from the {@link EngineContext} (nothing when the configuration
 * leaves it off), which may then `start()` and must `stop()`.
 *
 * {@link ENGINE_PARTS} is in start order and the parts are stopped in the reverse
 * order (issue 9 "Crash and restart"), so that what makes work stops before what
 * does it: the scheduler (the pass in flight finishes its row), the history
 * retention (its batch in flight commits), the probes (the
 * tick in flight commits), the rollout engine (the pass in flight commits), the
 * deploy controller, the server status check, the MMAs in process (their
 * runs ended or abandoned), the operation agent (running operations handed over), the task engine (running tasks handed over, pg-boss
 * quiet), the notification delivery (its sends in flight settled), then the
 * account count compaction; the pool and the database after them
 * (`main.ts`).
 *
 * The parts are not the modules' (`modules/module.ts`): their order crosses
 * modules, and most serve several (the task engine runs the machines' and the
 * drafts' tasks, the operation agent the operations of machines, backups and
 * deploys).
 */
import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { startAccountCountCompaction } from '../db/account-counts.js';
import { createSecretBox } from '../lib/secret-box.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createStorageEffects } from '../storage/effects.js';
import { prepareDemoSchedules } from '../seed/demo-schedules.js';
import type { CloudProvider } from './cloud/index.js';
import type { TaskEvents } from './push/events.js';
import type { TaskQueue } from './tasks/queue.js';
import type { OperationQueue } from './operations/queue.js';
import { createTaskEngine } from './tasks/engine.js';
import { leaseSettings } from './tasks/settings.js';
import { createOperationEngine, operationLeaseSettings } from './operations/agent.js';
import { createSimulatedAgent } from './operations/simulated-agent.js';
import { AGENT_EFFECTS } from './operations/agent-effects.js';
import { startServerStatusWatch } from './issues/server-status-check.js';
import { startDeployController } from './desired-state/controller.js';
import { createDeployEffects } from './desired-state/deploy-effects.js';
import { startRolloutEngine } from './rollouts/engine.js';
import { SOFTWARE_UPDATE_APPLIER } from './rollouts/software-update-applier.js';
import { createProbeEngine } from './probes/prober.js';
import { createSimulatedEndpoint } from './probes/endpoint.js';
import { startScheduler, type RunningScheduler } from './schedules/scheduler.js';
import { startHistoryRetention } from './history/history.js';
import type { FleetMetrics } from '../metrics/fleet-metrics.js';
import { mailerFromEnvironment } from '../lib/mailer.js';
import { DEVOPS_EMAIL } from '@fleet/contracts';
import { startNotificationDelivery } from './notification-delivery/delivery.js';
import { createMmaProtocolService } from '../modules/mma-protocol/mma-protocol.service.js';
import { startInProcessMmas } from '../modules/mma-protocol/in-process-mmas.js';

/** What the parts run on: the process's configuration and database, and what the API shares with them. */
export interface EngineContext {
  config: Config;
  db: Db;
  log: Logger;
  /** The task events of the API and the push channel. */
  events: TaskEvents;
  /** The one cloud provider of the process (the API's image catalogues use it too). */
  cloud: CloudProvider;
  /** The object store of backups and library files (DESIGN §13). */
  store: ObjectStore;
  /** The API's queues (`app.deps`), through which the deploy controller and the scheduler queue work. */
  operations: OperationQueue;
  tasks: TaskQueue;
  /** The process's metrics (`METRICS_TOKEN`; `metrics/fleet-metrics.ts`): the probes report their lag and count to them. */
  metrics?: FleetMetrics;
}

/** One part made from the context: started (when it has a `start`) after it was made, stopped at the end. */
export interface EngineRun {
  start?(): Promise<void>;
  stop(): Promise<unknown>;
  /** Lines for the start-up banner, once started (the demo schedules). */
  banner?(): string[];
}

export interface EnginePart {
  /** Its name in the logs (`stop step failed`, step). */
  name: string;
  /** Makes the part; undefined when the configuration leaves it off (probes with `PROBE_INTERVAL_S=0`). */
  make(context: EngineContext): EngineRun | undefined;
}

/** The scheduler, after the demo schedules when `SEED=demo` asks for them (DESIGN §13). */
function makeScheduler({ config, db, operations, tasks, store, log }: EngineContext): EngineRun {
  let scheduler: RunningScheduler | undefined;
  let banner: string[] = [];
  return {
    async start() {
      if (config.seed === 'demo' && config.demoSchedules) {
        const demo = await prepareDemoSchedules(db, { log });
        banner = [
          demo.backup ? `  Scheduled backup: ${demo.backup.name} at ${demo.backup.time} UTC (runs now, as a time missed while down)` : '',
          demo.idle ? `  Idle schedule: ${demo.idle.name} stops at ${demo.idle.stopAt} for 1 hour` : '',
        ].filter((line) => line !== '');
      }
      scheduler = startScheduler({ db, operations, tasks, store, log, everyMs: config.schedulerPassMs });
    },
    stop: async () => scheduler?.stop(),
    banner: () => banner,
  };
}

/** The engine parts in start order; stopped in the reverse order (see the module docstring). */
export const ENGINE_PARTS: readonly EnginePart[] = [
  {
    name: 'account count compaction',
    make: ({ db, log }) => ({ stop: startAccountCountCompaction(db, { log }) }),
  },
  {
    // Notifications through the durable outbox (issue 28 point 3; notification-delivery/README.md); stopped after every part that raises events, its sends settled.
    name: 'notification delivery',
    make: ({ config, db, log }) =>
      startNotificationDelivery({ db, secrets: createSecretBox(config.dataKey), mailer: mailerFromEnvironment(`Fleet Console <${DEVOPS_EMAIL}>`), publicUrl: config.publicUrl, log }),
  },
  {
    name: 'task engine',
    make: ({ config, db, cloud, events, log }) =>
      createTaskEngine({ db, cloud, events, secrets: createSecretBox(config.dataKey), log, ...leaseSettings(config.taskLeaseSeconds) }),
  },
  {
    name: 'operation agent',
    make: ({ config, db, cloud, events, store, log }) =>
      createOperationEngine({
        db,
        cloud,
        agent: createSimulatedAgent({
          effects: { ...AGENT_EFFECTS, ...createStorageEffects({ store }), ...createDeployEffects() },
          faults: config.simAgentFailMachines.map((machineName) => ({ machineName, times: Infinity, message: 'Simulated failure (SIM_AGENT_FAIL_MACHINES)' })),
        }),
        events,
        log,
        ...config.agent,
        ...operationLeaseSettings(config.agent.operationLeaseSeconds),
        // SIM_MMA=protocol: the MMAs in process (the next part) start the operations of the classes that are not remote.
        scope: config.agent.simMma === 'protocol' ? sql`false` : undefined,
      }),
  },
  {
    // Issue 27: the reference MMA's simulated executor in process, through the MMA protocol (SIM_MMA=protocol).
    name: 'MMAs in process',
    make: ({ config, db, cloud, events, store, log }) =>
      config.agent.simMma === 'protocol'
        ? startInProcessMmas({
            db,
            service: createMmaProtocolService({ db, events, store, cloud, settings: config.agent, log }),
            log,
            concurrency: config.agent.simMmaConcurrency,
            delayMs: config.agent.simDelayMs,
            failMachines: config.simAgentFailMachines,
          })
        : undefined,
  },
  {
    name: 'server status check',
    make: ({ config, db, log }) => startServerStatusWatch({ db, intervalMs: config.serverStatusIntervalS * 1000, log }),
  },
  {
    name: 'deploy controller',
    make: ({ db, operations, log }) => startDeployController({ db, queue: operations, log }),
  },
  {
    // Rollouts in waves (DESIGN §15): each wave through the same software update code as an update at once.
    name: 'rollout engine',
    make: ({ config, db, events, log }) => startRolloutEngine({ db, updates: SOFTWARE_UPDATE_APPLIER, events, log, everyMs: config.rolloutPassMs }),
  },
  {
    name: 'probes',
    make: ({ config, db, log, metrics }) => {
      if (config.probes.intervalS === 0) return undefined;
      const probes = createProbeEngine({ db, endpoint: createSimulatedEndpoint({ failMachines: config.probes.failMachines }), intervalS: config.probes.intervalS, log });
      metrics?.watchProbes(probes.stats);
      return probes;
    },
  },
  {
    // Finished rollouts and operations' outputs deleted after HISTORY_RETENTION_DAYS (issue 25 point 6).
    name: 'history retention',
    make: ({ config, db, log }) => startHistoryRetention({ db, days: config.historyRetentionDays, log }),
  },
  {
    // Backups, retention, idle stops and resumes, auto-stops at their times (DESIGN §13).
    name: 'scheduler',
    make: makeScheduler,
  },
];

/** A part that was made: its name and its run. */
export interface MadeEnginePart {
  name: string;
  run: EngineRun;
}

/**
 * Makes and starts each part of `parts` in order. Each is added to `made` before
 * its `start()` runs, so that the caller stops it (and every part before it) when
 * a start fails; rejects with that start's error.
 */
export async function startEngineParts(parts: readonly EnginePart[], context: EngineContext, made: MadeEnginePart[]): Promise<void> {
  for (const part of parts) {
    const run = part.make(context);
    if (!run) continue;
    made.push({ name: part.name, run });
    await run.start?.();
  }
}
