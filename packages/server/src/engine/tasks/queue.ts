/**
 * Queueing machine tasks from a service (DESIGN §6): how the API hands work to
 * the task engine.
 *
 * Use, in a mutation:
 * ```ts
 * const queued = await db.transaction(async (tx) => {
 *   // ... change the machine, audit it ...
 *   return tasks.enqueue(tx, [{ machine, type: 'StartMachine' }]);
 * });
 * tasks.announce(queued); // TaskQueued events, after the commit
 * ```
 * `enqueue` inserts the rows as New and sends a NOTIFY that the engines receive
 * only if the transaction commits; a lost notification is made up by the
 * engine's sweep. `announce` emits the TaskQueued events once the rows are
 * committed (emitting inside the transaction could announce a task that a
 * rollback then removes).
 */
import type { TTask, TTaskType } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { TaskEvents } from '../push/events.js';
import type { AuditEntry } from '../../modules/audit/audit.repository.js';
import { insertTasks, insertTaskWithActivity, toTask, type NewTask, type TaskRow } from './tasks.repository.js';

/** The machine a task is for, as queueing needs it. */
export interface TaskMachine {
  id: number;
  name: string;
  accountId: number;
  classId: number;
  accountClassId: number;
}

export interface TaskRequest {
  machine: TaskMachine;
  type: TTaskType;
  /** Defaults to {@link describeTask}. */
  description?: string;
  /** The task's input, e.g. `{ instanceTypeId }` for ChangeInstanceType. */
  params?: Record<string, unknown>;
}

export interface QueuedTask {
  task: TTask;
  classIds: number[];
}

export interface TaskQueue {
  /** Inserts New tasks inside `tx`; engines hear of them when it commits. */
  enqueue(tx: DbOrTx, requests: TaskRequest[]): Promise<QueuedTask[]>;
  /**
   * Queues one task with the audit activity that caused it, in one statement
   * (the activity's params get the task's `taskId`). Undefined, nothing
   * written, when the machine is being terminated (an unfinished
   * TerminateMachine task). Lock the machine row first.
   */
  enqueueWithActivity(tx: DbOrTx, request: TaskRequest, entry: AuditEntry): Promise<{ queued: QueuedTask; activityId: number } | undefined>;
  /** Emits TaskQueued for each task; call after the commit. */
  announce(queued: QueuedTask[]): void;
}

const VERBS: Record<TTaskType, string> = {
  CreateMachine: 'Create machine',
  StartMachine: 'Start machine',
  StopMachine: 'Stop machine',
  TerminateMachine: 'Terminate machine',
  RecreateMachine: 'Recreate machine',
  ChangeInstanceType: 'Change instance type of',
};

/** The description a task shows in the status column and the tasks drawer, e.g. `Start machine acme-launcher`. */
export function describeTask(type: TTaskType, machineName: string, detail?: string): string {
  return `${VERBS[type]} ${machineName}${detail ? ` ${detail}` : ''}`;
}

const newTask = (r: TaskRequest): NewTask => ({
  machineId: r.machine.id,
  accountId: r.machine.accountId,
  type: r.type,
  description: r.description ?? describeTask(r.type, r.machine.name),
  params: r.params,
});

const queuedTask = (row: TaskRow, r: TaskRequest): QueuedTask => ({ task: toTask(row), classIds: [r.machine.classId, r.machine.accountClassId] });

export function createTaskQueue({ events }: { events: TaskEvents }): TaskQueue {
  return {
    async enqueue(tx, requests) {
      const rows = await insertTasks(tx, requests.map(newTask));
      return rows.map((row, i) => queuedTask(row, requests[i]!));
    },
    async enqueueWithActivity(tx, request, entry) {
      const inserted = await insertTaskWithActivity(tx, newTask(request), entry);
      return inserted && { queued: queuedTask(inserted.row, request), activityId: inserted.activityId };
    },
    announce(queued) {
      for (const q of queued) events.emit({ name: 'TaskQueued', task: q.task, classIds: q.classIds });
    },
  };
}
