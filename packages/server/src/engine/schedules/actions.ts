/**
 * What a due row does when its time has come (DESIGN §13; `README.md` beside
 * this file). Each action runs inside the transaction that claimed the row, so
 * its operations, tasks, machine flags, file rows, audit activity and the row's
 * next time commit together or not at all. Every action that changes something
 * is one audit activity of user {@link SCHEDULER_USER} naming the account; the
 * operations and tasks it queued carry that activity (DESIGN §12 one trail).
 *
 * - `backup`: a Backup operation (params `category`) for each machine of the
 *   account that runs a launcher or a site master, whose class has Backup, and
 *   that has no Backup of the Scheduler still waiting to start (a stopped
 *   machine gets one, not one per time); action `ScheduledBackup`. The category
 *   is the highest of the times the run stands for (`times.ts`).
 * - `retention`: for each category, the files older than its days get its
 *   end-of-life action: Delete removes the object then the row; MoveToGlacier
 *   moves the object then marks the row Glacier. At most {@link RETENTION_BATCH}
 *   files a run; with more, the row stays due and the next pass goes on.
 *   Action `BackupRetention` (nothing aged: no activity).
 * - `idle-stop`: the machines not stopped get stop and idle true and a
 *   StopMachine task (the path of `POST /machines/{id}/stop`); a resume row is
 *   planned at stopAt + resumeAfter. If that time has passed already (missed
 *   while down for longer than the window), nothing is stopped. `IdleStop`.
 * - `idle-resume`: the machines with idle true get stop and idle false and a
 *   StartMachine task, unless another idle window of the account is still open
 *   (its own resume will start them). `IdleResume`.
 * - `auto-stop`: the machines not stopped get stop true and a StopMachine task. `AutoStop`.
 */
import { BACKUP_CATEGORIES, type TAuditChange } from '@fleet/contracts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountSettings, scheduleDue } from '../../db/schema.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import { updateMachineFields } from '../../modules/machines/machines.repository.js';
import { ObjectNotFoundError, type ObjectStore } from '../../storage/object-store.js';
import type { OperationQueue, QueuedOperation } from '../operations/queue.js';
import type { QueuedTask, TaskQueue } from '../tasks/queue.js';
import { linkTasksToActivity } from '../tasks/tasks.repository.js';
import {
  deleteBackupFileRows,
  selectAgedBackupFiles,
  selectAuditAccount,
  selectMachinesWithQueuedBackup,
  selectScheduleMachines,
  setBackupFilesStorageClass,
  upsertDue,
  type DueRow,
  type ScheduleMachine,
} from './schedules.repository.js';
import { catchUpCategory, nextOccurrence, nextRetention, readBackupConfig, resumeAtOf, type BackupPlan } from './times.js';

/** The user every scheduled action is recorded as (DESIGN §13). */
export const SCHEDULER_USER = 'Scheduler';
/** Most backup files one retention run handles. */
export const RETENTION_BATCH = 200;
const DAY_MS = 86_400_000;

export interface ActionDeps {
  operations: OperationQueue;
  tasks: TaskQueue;
  store: ObjectStore;
}

/** What a run did, and what becomes of its row. */
export interface ActionOutcome {
  /** One line for the log and the pass result. */
  summary: string;
  activityId: number | null;
  operations: QueuedOperation[];
  tasks: QueuedTask[];
  /** The row's next time (recurring), or done (one-shot), or removed. */
  next: { dueAt: Date } | { done: true; note?: string } | { remove: true };
}

const nothing = (summary: string, next: ActionOutcome['next']): ActionOutcome => ({ summary, activityId: null, operations: [], tasks: [], next });

/** Reads a backup row's plan back from its params; throws when they are not one. */
export function backupPlanOf(row: DueRow): BackupPlan {
  const p = row.params as Partial<BackupPlan>;
  if (!Array.isArray(p.times) || !p.times.every((t) => typeof t === 'string') || typeof p.weeklyBackupDay !== 'number' || typeof p.monthlyBackupDay !== 'number') {
    throw new Error('The backup schedule row has no valid plan');
  }
  return { times: p.times, weeklyBackupDay: p.weeklyBackupDay, monthlyBackupDay: p.monthlyBackupDay };
}

/** The next time of a recurring row after a failed run (so a failing row does not hold the pass). */
export function nextAfterFailure(row: DueRow, now: Date): ActionOutcome['next'] {
  if (row.kind === 'retention') return { dueAt: nextRetention(now) };
  if (row.kind === 'backup') {
    try {
      const next = nextOccurrence(backupPlanOf(row).times, now);
      if (next) return { dueAt: next };
    } catch {
      // no plan: try again in an hour (a push re-plans it sooner)
    }
    return { dueAt: new Date(now.getTime() + 3_600_000) };
  }
  return { done: true };
}

async function accountOf(tx: DbOrTx, accountId: number) {
  const account = await selectAuditAccount(tx, accountId);
  if (!account) throw new Error(`Account ${accountId} does not exist`);
  return account;
}

const taskMachine = (m: ScheduleMachine) => ({ id: m.id, name: m.name, accountId: m.accountId, classId: m.classId, accountClassId: m.accountClassId });

/** Sets the flags on each machine and queues its task; one activity for them all. */
async function machineAction(
  tx: DbOrTx,
  deps: ActionDeps,
  o: { row: DueRow; machines: ScheduleMachine[]; flags: Partial<Record<'stop' | 'idle', boolean>>; type: 'StopMachine' | 'StartMachine'; action: string; params: Record<string, unknown> },
): Promise<{ activityId: number | null; tasks: QueuedTask[] }> {
  if (o.machines.length === 0) return { activityId: null, tasks: [] };
  const account = await accountOf(tx, o.row.accountId);
  const changes: TAuditChange[] = [];
  for (const m of o.machines) {
    await updateMachineFields(tx, m.id, o.flags);
    for (const [propertyName, newValue] of Object.entries(o.flags)) {
      const oldValue = m[propertyName as 'stop' | 'idle'];
      if (oldValue !== newValue) changes.push({ entityName: `Machine ${m.name}`, propertyName, oldValue, newValue });
    }
  }
  const tasks = await deps.tasks.enqueue(tx, o.machines.map((m) => ({ machine: taskMachine(m), type: o.type })));
  const activityId = await insertActivity(tx, {
    action: o.action,
    user: SCHEDULER_USER,
    accounts: [account],
    params: { ...o.params, machines: o.machines.map((m, i) => ({ machineId: m.id, machineName: m.name, taskId: tasks[i]!.task.id })) },
    changes,
  });
  await linkTasksToActivity(tx, tasks.map((q) => q.task.id), activityId);
  return { activityId, tasks };
}

async function backup(tx: DbOrTx, deps: ActionDeps, row: DueRow, now: Date): Promise<ActionOutcome> {
  const plan = backupPlanOf(row);
  const next = { dueAt: nextOccurrence(plan.times, now) ?? new Date(now.getTime() + DAY_MS) };
  const category = catchUpCategory(plan, row.dueAt, now);
  const machines = await selectScheduleMachines(tx, row.accountId, 'backup');
  const waiting = await selectMachinesWithQueuedBackup(tx, row.accountId);
  if (machines.length === 0 && waiting.length === 0) return nothing(`no machine to back up (${category})`, next);
  const account = await accountOf(tx, row.accountId);
  const activityId = await insertActivity(tx, {
    action: 'ScheduledBackup',
    user: SCHEDULER_USER,
    accounts: [account],
    params: {
      category,
      dueAt: row.dueAt.toISOString(),
      machines: machines.map((m) => ({ machineId: m.id, machineName: m.name })),
      // A machine whose previous scheduled Backup has not started yet (stopped, Panic, standby) gets no second one.
      alreadyQueued: waiting.map((m) => ({ machineId: m.id, machineName: m.name })),
    },
  });
  const operations = await deps.operations.enqueue(
    tx,
    machines.map((m) => ({ machine: m, typeName: 'Backup' as const, user: SCHEDULER_USER, activityId, params: { category } })),
  );
  return { summary: `${category} Backup queued for ${machines.length} machine(s)`, activityId, operations, tasks: [], next };
}

async function retention(tx: DbOrTx, deps: ActionDeps, row: DueRow, now: Date): Promise<ActionOutcome> {
  const [settings] = await tx.select({ backupConfig: accountSettings.backupConfig }).from(accountSettings).where(eq(accountSettings.accountId, row.accountId));
  const read = readBackupConfig(settings?.backupConfig ?? {});
  if ('error' in read) throw new Error(read.error);
  const { config } = read;
  let budget = RETENTION_BATCH;
  const deleted: Record<string, string[]> = {};
  const moved: Record<string, string[]> = {};
  const missing: string[] = [];
  for (const category of BACKUP_CATEGORIES) {
    const days = config[`${category}DaysToRetain`];
    const action = config[`${category}EolAction`];
    const files = await selectAgedBackupFiles(tx, {
      accountId: row.accountId,
      category,
      before: new Date(now.getTime() - days * DAY_MS),
      onlyStandard: action === 'MoveToGlacier',
      limit: budget,
    });
    if (files.length === 0) continue;
    budget -= files.length;
    if (action === 'Delete') {
      // The object first: if the transaction then fails, the row is still there and the next run deletes again (delete is idempotent).
      for (const f of files) await deps.store.delete(f.objectKey);
      await deleteBackupFileRows(tx, files.map((f) => f.id));
      deleted[category] = files.map((f) => f.name);
    } else {
      for (const f of files) {
        try {
          await deps.store.setStorageClass(f.objectKey, 'Glacier');
        } catch (err) {
          if (!(err instanceof ObjectNotFoundError)) throw err;
          missing.push(f.name);
        }
      }
      await setBackupFilesStorageClass(tx, files.map((f) => f.id), 'Glacier');
      moved[category] = files.map((f) => f.name);
    }
  }
  const next = budget === 0 ? { dueAt: now } : { dueAt: nextRetention(now) };
  const deletedCount = Object.values(deleted).reduce((n, l) => n + l.length, 0);
  const movedCount = Object.values(moved).reduce((n, l) => n + l.length, 0);
  if (deletedCount + movedCount === 0) return nothing('no backup file past its retention', next);
  const account = await accountOf(tx, row.accountId);
  const activityId = await insertActivity(tx, {
    action: 'BackupRetention',
    user: SCHEDULER_USER,
    accounts: [account],
    params: { dueAt: row.dueAt.toISOString(), deleted, movedToGlacier: moved, ...(missing.length > 0 ? { missingObjects: missing } : {}) },
  });
  return { summary: `retention: ${deletedCount} deleted, ${movedCount} moved to Glacier`, activityId, operations: [], tasks: [], next };
}

async function idleStop(tx: DbOrTx, deps: ActionDeps, row: DueRow, now: Date): Promise<ActionOutcome> {
  const resumeAfter = Number(row.params.resumeAfter);
  if (!Number.isFinite(resumeAfter) || resumeAfter < 0) throw new Error('The idle schedule row has no valid resumeAfter');
  const resumeAt = resumeAtOf(row.dueAt, resumeAfter);
  if (resumeAt.getTime() <= now.getTime()) {
    return nothing('idle window over before it could run', { done: true, note: 'Not run: its resume time had passed (the server was down)' });
  }
  const machines = await selectScheduleMachines(tx, row.accountId, 'running');
  const done = await machineAction(tx, deps, {
    row,
    machines,
    flags: { stop: true, idle: true },
    type: 'StopMachine',
    action: 'IdleStop',
    params: { stopAt: row.dueAt.toISOString(), resumeAfter, resumeAt: resumeAt.toISOString() },
  });
  // Planned even when nothing was running: an open window keeps an earlier window's resume from starting the machines.
  await upsertDue(tx, { accountId: row.accountId, kind: 'idle-resume', slot: row.slot, dueAt: resumeAt, params: { resumeAfter } });
  return { summary: `idle stop of ${machines.length} machine(s) until ${resumeAt.toISOString()}`, operations: [], ...done, next: { done: true } };
}

async function idleResume(tx: DbOrTx, deps: ActionDeps, row: DueRow, now: Date): Promise<ActionOutcome> {
  const [open] = await tx
    .select({ id: scheduleDue.id, dueAt: scheduleDue.dueAt })
    .from(scheduleDue)
    .where(and(eq(scheduleDue.accountId, row.accountId), eq(scheduleDue.kind, 'idle-resume'), gt(scheduleDue.dueAt, sql`${now.toISOString()}::timestamptz`)))
    .limit(1);
  if (open) return nothing(`resume left to the idle window ending ${open.dueAt.toISOString()}`, { remove: true });
  const machines = await selectScheduleMachines(tx, row.accountId, 'idle');
  const done = await machineAction(tx, deps, {
    row,
    machines,
    flags: { stop: false, idle: false },
    type: 'StartMachine',
    action: 'IdleResume',
    params: { stopAt: row.slot, resumeAt: row.dueAt.toISOString() },
  });
  return { summary: `idle resume of ${machines.length} machine(s)`, operations: [], ...done, next: { remove: true } };
}

async function autoStop(tx: DbOrTx, deps: ActionDeps, row: DueRow): Promise<ActionOutcome> {
  const machines = await selectScheduleMachines(tx, row.accountId, 'running');
  const done = await machineAction(tx, deps, {
    row,
    machines,
    flags: { stop: true },
    type: 'StopMachine',
    action: 'AutoStop',
    params: { autoStopTime: row.dueAt.toISOString() },
  });
  return { summary: `auto-stop of ${machines.length} machine(s)`, operations: [], ...done, next: { done: true } };
}

/** Runs the claimed row's action inside `tx` (module docstring); throws when it cannot. */
export async function runAction(tx: DbOrTx, deps: ActionDeps, row: DueRow, now: Date): Promise<ActionOutcome> {
  switch (row.kind) {
    case 'backup':
      return backup(tx, deps, row, now);
    case 'retention':
      return retention(tx, deps, row, now);
    case 'idle-stop':
      return idleStop(tx, deps, row, now);
    case 'idle-resume':
      return idleResume(tx, deps, row, now);
    case 'auto-stop':
      return autoStop(tx, deps, row);
    default:
      throw new Error(`Unknown schedule kind '${row.kind}'`);
  }
}
