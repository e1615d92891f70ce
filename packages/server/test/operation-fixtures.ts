/**
 * The operation agent on a fresh test database (real PostgreSQL, simulated
 * cloud and agent with zero delays), with machines, queueing and waiting
 * helpers for the agent's tests (`src/engine/operations/*.test.ts`).
 *
 * Test effects: RestoreBackup is replaced by a **gate**: it writes a line to
 * the output and the deployer log, checkpoints (so the lines are written), then
 * waits until the test opens the gate of that operation (or the operation is
 * aborted), then writes a second line.
 *
 * `engineUrl` puts the engine on a connection of its own (through a proxy the
 * test cuts, `database-proxy.ts`), while the helpers keep theirs.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { TOperationTypeName } from '@fleet/contracts';
import { connectDatabase, type Database } from '../src/db/client.js';
import { machines, operations } from '../src/db/schema.js';
import { createSimulatedCloud, type SimulatedCloud } from '../src/engine/cloud/simulated.js';
import { createTaskEvents, type OperationEvent, type TaskEvents } from '../src/engine/push/events.js';
import { createOperationEngine, type OperationEngine, type OperationEngineSettings } from '../src/engine/operations/agent.js';
import { AGENT_EFFECTS } from '../src/engine/operations/agent-effects.js';
import { createSimulatedAgent, type SimulatedAgent } from '../src/engine/operations/simulated-agent.js';
import { createOperationQueue, type OperationMachine } from '../src/engine/operations/queue.js';
import type { OperationEffect } from '../src/engine/operations/effects.js';
import { openTestDatabase } from './harness.js';
import { insertAccount, insertMachine } from './fixtures.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface AgentFixture {
  database: Database;
  cloud: SimulatedCloud;
  agent: SimulatedAgent;
  engine: OperationEngine;
  seen: OperationEvent[];
  /** The events the engine emits (and `seen` records). */
  events: TaskEvents;
  /** Opens the gate of a RestoreBackup operation. */
  open(operationId: number): void;
  /** A machine (class 1 unless given) with a running instance unless `instance` says otherwise. */
  machine(values?: Partial<typeof machines.$inferInsert>, instance?: 'running' | 'stopped' | 'none'): Promise<OperationMachine & { cloudId?: string }>;
  enqueue(machine: OperationMachine, typeName: TOperationTypeName, extra?: { params?: Record<string, unknown>; notBefore?: Date; timeoutSeconds?: number }): Promise<number>;
  row(id: number): Promise<typeof operations.$inferSelect>;
  machineRow(id: number): Promise<typeof machines.$inferSelect>;
  /** Waits until the operation finished; fails after `timeoutMs`. */
  settled(id: number, timeoutMs?: number): Promise<typeof operations.$inferSelect>;
  /** Waits until `check` answers true. */
  until(what: string, check: () => Promise<boolean>, timeoutMs?: number): Promise<void>;
  notify(machineId: number): Promise<void>;
  close(): Promise<void>;
}

export interface AgentFixtureOptions {
  /**
   * The URL the engine and its cloud connect with, given the test database's
   * (default: the fixture's own connection). The fixture's helpers and `cloud`
   * keep the test database's, so they work while the engine's is cut; faults
   * injected into `cloud` do not reach the engine's then.
   */
  engineUrl?: (url: string) => string;
  log?: Logger;
  /** The engine's `scope` (`sql\`false\``: it starts nothing, as with SIM_MMA=protocol). */
  scope?: SQL;
}

export async function startAgentFixture(settings: Partial<OperationEngineSettings> = {}, options: AgentFixtureOptions = {}): Promise<AgentFixture> {
  const database = await openTestDatabase({ max: 10 });
  const db = database.db;
  const cloud = createSimulatedCloud({ db, delayMs: 0 });
  const engineDatabase = options.engineUrl ? connectDatabase(options.engineUrl(database.url), { max: 10 }) : database;
  const engineCloud = engineDatabase === database ? cloud : createSimulatedCloud({ db: engineDatabase.db, delayMs: 0 });
  const gates = new Map<number, () => void>();
  const opened = new Set<number>();
  const gate: OperationEffect = async (ctx) => {
    await ctx.output('Gate reached');
    await ctx.deployerLog('gate: waiting');
    await ctx.checkpoint({ gate: 'reached' });
    await new Promise<void>((resolve, reject) => {
      if (opened.has(ctx.operation.id)) return resolve();
      gates.set(ctx.operation.id, resolve);
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
    });
    await ctx.output('Gate passed');
    await ctx.deployerLog('gate: passed');
  };
  const agent = createSimulatedAgent({ effects: { ...AGENT_EFFECTS, RestoreBackup: gate } });
  const events = createTaskEvents();
  const seen: OperationEvent[] = [];
  events.subscribe((e) => {
    if ('operation' in e) seen.push(e);
  });
  const queue = createOperationQueue({ announce: (queued) => queued.forEach((q) => events.emit({ name: 'OperationQueued', ...q })) });
  const engine = createOperationEngine({
    db: engineDatabase.db,
    cloud: engineCloud,
    agent,
    events,
    log: options.log,
    simDelayMs: 0,
    heartbeatMs: 100,
    staleMs: 1_000,
    passMs: 200,
    ...settings,
    scope: options.scope,
  });
  await engine.start();

  const row = async (id: number) => (await db.select().from(operations).where(eq(operations.id, id)))[0]!;
  const until: AgentFixture['until'] = async (what, check, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await sleep(25);
    }
  };

  return {
    database,
    cloud,
    agent,
    engine,
    seen,
    events,
    open(operationId) {
      opened.add(operationId);
      gates.get(operationId)?.();
    },
    async machine(values = {}, instance = 'running') {
      const account = await insertAccount(db, { name: `Agent ${Math.random().toString(36).slice(2, 8)}`, classId: values.classId ?? 1 });
      const m = await insertMachine(db, { accountId: account.id, instanceTypeId: 2, isSiteMaster: true, isLauncher: true, ...values });
      let cloudId: string | undefined;
      if (instance !== 'none') {
        cloudId = (await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `fixture-${m.id}` })).cloudId;
        await cloud.describe(cloudId);
        if (instance === 'stopped') {
          await cloud.stop(cloudId);
          await cloud.describe(cloudId);
        }
      }
      return { id: m.id, accountId: account.id, classId: m.classId, accountClassId: account.classId, operationMode: m.operationMode, failCounter: m.failCounter, cloudId };
    },
    async enqueue(machine, typeName, extra = {}) {
      const [queued] = await db.transaction(async (tx) => {
        const q = await queue.enqueue(tx, [{ machine, typeName, user: 'admin', activityId: null, params: extra.params, notBefore: extra.notBefore }]);
        if (extra.timeoutSeconds !== undefined) await tx.update(operations).set({ timeoutSeconds: extra.timeoutSeconds }).where(eq(operations.id, q[0]!.operation.id));
        return q;
      });
      queue.announce([queued!]);
      return queued!.operation.id;
    },
    row,
    machineRow: async (id) => (await db.select().from(machines).where(eq(machines.id, id)))[0]!,
    async settled(id, timeoutMs = 15_000) {
      let last: typeof operations.$inferSelect | undefined;
      await until(
        `operation ${id} finished`,
        async () => {
          last = await row(id);
          return last.finishedAt !== null;
        },
        timeoutMs,
      );
      return last!;
    },
    until,
    async notify(machineId) {
      await db.execute(sql`select pg_notify('fleet_operation_queued', ${String(machineId)})`);
    },
    async close() {
      await engine.stop();
      if (engineDatabase !== database) await engineDatabase.close();
      await database.dispose();
    },
  };
}

/** The text of each line of a log without its timestamp; fails the test on a line without one. */
export function linesOf(log: string): string[] {
  return log
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const m = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (.*)$/.exec(l);
      if (!m) throw new Error(`log line without a timestamp: ${l}`);
      return m[1]!;
    });
}
