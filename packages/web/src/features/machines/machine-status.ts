/**
 * Rules of the machine table that need no React (spec 2 §2.2, §4; DESIGN §6):
 * which tasks are unfinished, the status column's precedence, and what keeps
 * the start, stop and terminate buttons busy.
 */
import { UNFINISHED_TASK_STATUSES, type TMachine, type TTask, type TTaskStatus, type TTaskType } from '@fleet/contracts';

/** Operation mode texts of the status column (spec 2 §2.2): 1 Stable, 2 Anomaly, anything else Operation Pending. */
export const OPERATION_MODE_TEXT: Record<number, string> = { 1: 'Stable', 2: 'Anomaly' };
export const OPERATION_PENDING_TEXT = 'Operation Pending';
export const PANIC_TEXT = 'Panic';

export const isUnfinished = (task: Pick<TTask, 'status'>) => UNFINISHED_TASK_STATUSES.includes(task.status);

export const unfinishedTasks = (machine: TMachine): TTask[] => machine.tasks.filter(isUnfinished);

/** True while any task of the machine is New or Running: start, stop and terminate wait (spec 2 §2.2). */
export const isBusy = (machine: TMachine) => machine.tasks.some(isUnfinished);

/** True while an unfinished task of one of `types` exists: it drives that button's loading indicator. */
export const hasUnfinished = (machine: TMachine, types: readonly TTaskType[]) =>
  machine.tasks.some((t) => isUnfinished(t) && types.includes(t.type));

/** What the status column shows, in the specification's order of precedence (spec 2 §2.2). */
export type MachineStatus =
  | { kind: 'panic'; text: string }
  | { kind: 'task'; text: string; task: TTask }
  | { kind: 'mode'; text: string };

/**
 * Panic when the machine needs admin attention; else the running task's
 * description; else the operation mode text.
 *
 * Known limitations: the spec's third step (the latest pending operation with
 * Cancel and Proceed) is not shown, because the machine list carries no operations yet.
 */
export function machineStatus(machine: TMachine): MachineStatus {
  if (machine.needsAdmin) return { kind: 'panic', text: PANIC_TEXT };
  const running = machine.tasks.find((t) => t.status === 'Running');
  if (running) return { kind: 'task', text: running.description, task: running };
  return { kind: 'mode', text: OPERATION_MODE_TEXT[machine.operationMode] ?? OPERATION_PENDING_TEXT };
}

/** Rank of a status in a task's life: a later event never goes back to an earlier rank. */
const STATUS_RANK: Record<TTaskStatus, number> = { New: 0, Running: 1, Completed: 2, Failed: 2, Cancelled: 2 };

/**
 * Whether `incoming` is at least as new as `current` (same task): a later
 * status, or the same status with at least the same progress. Keeps a late
 * answer or an out-of-order event from undoing a newer state.
 */
export function isNewerOrSame(incoming: TTask, current: TTask): boolean {
  const a = STATUS_RANK[incoming.status];
  const b = STATUS_RANK[current.status];
  if (a !== b) return a > b;
  return incoming.progress >= current.progress;
}
