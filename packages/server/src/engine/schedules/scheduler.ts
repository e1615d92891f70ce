/**
 * The scheduler (DESIGN §13; invariants in `README.md` beside this file): the
 * worker part that runs backups, retention, idle stops and resumes and
 * auto-stops at their times (UTC), exactly once however many workers run.
 *
 * A pass:
 * 1. plans the accounts whose settings changed since they were planned
 *    (`planner.ts`), in batches of {@link PLAN_BATCH};
 * 2. claims due rows one at a time (`FOR UPDATE SKIP LOCKED`), runs each
 *    (`actions.ts`) and moves it on in the same transaction, then announces the
 *    operations and tasks it queued. A row whose action throws is moved on in a
 *    transaction of its own with the error in `lastError`, so a bad row never
 *    stops the pass or comes back at every pass.
 *
 * {@link startScheduler} runs a pass at once and every `everyMs`; `stop()`
 * waits for the pass in flight (it stops between two rows).
 */
import type { Logger } from 'pino';
import { and, eq, isNull } from 'drizzle-orm';
import { isDatabaseGone, type Db } from '../../db/client.js';
import { scheduleDue } from '../../db/schema.js';
import { nextAfterFailure, runAction, type ActionDeps, type ActionOutcome } from './actions.js';
import { planAccount } from './planner.js';
import { claimDue, deleteDueRow, selectAccountsToPlan, updateDue, type DueRow } from './schedules.repository.js';

/** Accounts planned per query of a pass. */
export const PLAN_BATCH = 500;
/** Most due rows one pass runs (the next pass goes on). */
export const RUN_BATCH = 1_000;

export interface SchedulerOptions extends ActionDeps {
  db: Db;
  log?: Logger;
  /** The clock (tests control it); default the system clock. */
  now?: () => Date;
}

/** What one run of a due row did (tests, logs). */
export interface RunReport {
  kind: string;
  accountId: number;
  dueAt: string;
  summary: string;
  activityId: number | null;
  error?: string;
}

export interface PassReport {
  planned: number;
  problems: { accountId: number; problems: string[] }[];
  runs: RunReport[];
}

export interface Scheduler {
  /** One pass (module docstring) at the clock's time. */
  pass(): Promise<PassReport>;
  /** Asks a pass in flight to stop after its current row. */
  halt(): void;
}

/** The scheduler's pass without a timer: tests call `pass()` with their clock. */
export function createScheduler(opts: SchedulerOptions): Scheduler {
  const { db, log } = opts;
  const clock = opts.now ?? (() => new Date());
  let halted = false;

  async function plan(now: Date, report: PassReport): Promise<void> {
    for (;;) {
      const ids = await selectAccountsToPlan(db, PLAN_BATCH);
      if (ids.length === 0 || halted) return;
      for (const accountId of ids) {
        if (halted) return;
        const problems = await db.transaction((tx) => planAccount(tx, accountId, now, log));
        report.planned += 1;
        if (problems.length > 0) report.problems.push({ accountId, problems });
      }
      if (ids.length < PLAN_BATCH) return;
    }
  }

  const finish = async (tx: Parameters<Parameters<Db['transaction']>[0]>[0], row: DueRow, next: ActionOutcome['next'], now: Date, error: string | null) => {
    if ('remove' in next) return deleteDueRow(tx, row.id);
    if ('done' in next) return updateDue(tx, row.id, { doneAt: now, lastRunAt: now, lastError: error ?? next.note ?? null });
    return updateDue(tx, row.id, { dueAt: next.dueAt, lastRunAt: now, lastError: error });
  };

  async function runOne(now: Date): Promise<RunReport | null> {
    let claimed: DueRow | undefined;
    try {
      const out = await db.transaction(async (tx) => {
        const row = await claimDue(tx, now);
        if (!row) return null;
        claimed = row;
        const outcome = await runAction(tx, opts, row, now);
        await finish(tx, row, outcome.next, now, null);
        return { row, outcome };
      });
      if (!out) return null;
      opts.operations.announce(out.outcome.operations);
      opts.tasks.announce(out.outcome.tasks);
      const report = { kind: out.row.kind, accountId: out.row.accountId, dueAt: out.row.dueAt.toISOString(), summary: out.outcome.summary, activityId: out.outcome.activityId };
      log?.info(report, 'scheduled action');
      return report;
    } catch (err) {
      const row = claimed;
      if (!row || isDatabaseGone(err)) throw err;
      const message = err instanceof Error ? err.message : String(err);
      log?.warn({ kind: row.kind, accountId: row.accountId, dueAt: row.dueAt.toISOString(), err: message }, 'scheduled action failed; moved on');
      // Moved on unless it is done or another worker holds it now (that worker moves it on).
      await db.transaction(async (tx) => {
        const [still] = await tx
          .select({ id: scheduleDue.id })
          .from(scheduleDue)
          .where(and(eq(scheduleDue.id, row.id), isNull(scheduleDue.doneAt)))
          .for('update', { skipLocked: true });
        if (still) await finish(tx, row, nextAfterFailure(row, now), now, message.slice(0, 2000));
      });
      return { kind: row.kind, accountId: row.accountId, dueAt: row.dueAt.toISOString(), summary: 'failed', activityId: null, error: message };
    }
  }

  return {
    async pass() {
      halted = false;
      const now = clock();
      const report: PassReport = { planned: 0, problems: [], runs: [] };
      await plan(now, report);
      while (!halted && report.runs.length < RUN_BATCH) {
        const run = await runOne(now);
        if (!run) break;
        report.runs.push(run);
      }
      return report;
    },
    halt() {
      halted = true;
    },
  };
}

export interface RunningScheduler {
  /** Runs a pass now (after the one in flight) and answers its report. */
  pass(): Promise<PassReport>;
  /** Stops the timer and waits for the pass in flight (which stops after its current row). */
  stop(): Promise<void>;
}

/**
 * Starts the scheduler in this process: a pass at once, then every `everyMs`
 * (`SCHEDULER_PASS_MS`, `config.ts`). Failures are logged and retried at the next pass. Call
 * `stop()` before closing the pool.
 */
export function startScheduler(opts: SchedulerOptions & { everyMs: number }): RunningScheduler {
  const scheduler = createScheduler(opts);
  let inFlight: Promise<unknown> | undefined;
  let stopping = false;

  function run(): void {
    if (stopping || inFlight) return;
    inFlight = scheduler
      .pass()
      .catch((err: Error) => {
        if (stopping && isDatabaseGone(err)) return;
        opts.log?.warn({ err: err.message }, 'scheduler pass failed');
      })
      .finally(() => {
        inFlight = undefined;
      });
  }

  run();
  const timer = setInterval(run, opts.everyMs);
  timer.unref();
  return {
    async pass() {
      while (inFlight) await inFlight;
      return scheduler.pass();
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      scheduler.halt();
      while (inFlight) await inFlight;
    },
  };
}
