/**
 * Rules of the machine table that need no React (spec 2 §2.2, §4; DESIGN §6, §12):
 * which tasks are unfinished, the status column's precedence, the row colour,
 * and what keeps the start, stop and terminate buttons busy.
 */
import { MACHINE_UNFINISHED_OPERATIONS, UNFINISHED_TASK_STATUSES, type TMachine, type TOperation, type TTask, type TTaskStatus, type TTaskType } from '@fleet/contracts';

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

/** The states of an operation the status column shows (spec 2 §2.2 third step; OPS-SEMANTICS). */
export type OperationState = 'pending' | 'cancelling' | 'running';

/** What the status column shows, in the specification's order of precedence (spec 2 §2.2). */
export type MachineStatus =
  | { kind: 'panic'; text: string }
  | { kind: 'task'; text: string; task: TTask }
  | { kind: 'operation'; state: OperationState; text: string; operation: TOperation }
  | { kind: 'mode'; text: string };

/** Whether the operation has ended (SUCCESS or FAILURE, or a finish time). */
export const isOperationFinished = (op: Pick<TOperation, 'status' | 'finishTime'>) =>
  op.finishTime !== null || op.status === 'SUCCESS' || op.status === 'FAILURE';

/** Waiting for approval: pending and not yet cancelled (PROCEED clears `pending`). */
export const isPendingOperation = (op: TOperation) => op.pending && op.status === null && op.decision !== 'CANCEL';

/** "Being cancelled" (spec 2 §2.2): the operator chose CANCEL and the agent has not ended it yet. */
export const isBeingCancelled = (op: TOperation) => op.decision === 'CANCEL' && !isOperationFinished(op);

/** What the status column says of an operation in each state. */
export const OPERATION_STATE_TEXT: Record<OperationState, (typeName: string) => string> = {
  pending: (t) => `Pending ${t}`,
  cancelling: (t) => `Cancelling ${t}`,
  running: (t) => `Running ${t}`,
};

const newestFirst = (a: TOperation, b: TOperation) => b.id - a.id;

/**
 * The machine's operations queued behind the status column (issue 24 point 1):
 * not started, not waiting for approval and not being cancelled (those the
 * column shows itself), oldest first, the order the agent takes them in.
 */
export const queuedOperations = (machine: TMachine): TOperation[] =>
  machine.operations
    .filter((op) => op.status === null && !isOperationFinished(op) && !isPendingOperation(op) && !isBeingCancelled(op))
    .sort((a, b) => a.id - b.id);

/**
 * The operation the status column's third step shows, if any: the newest one
 * waiting for approval (it needs the operator: Proceed or Cancel), else the
 * newest being cancelled, else the running one. Queued operations that merely
 * wait for their turn, and finished ones, leave the column to the operation mode.
 */
export function operationStatus(operations: readonly TOperation[]): Extract<MachineStatus, { kind: 'operation' }> | undefined {
  const sorted = [...operations].sort(newestFirst);
  const pick = (state: OperationState, test: (op: TOperation) => boolean) => {
    const operation = sorted.find(test);
    return operation ? { kind: 'operation' as const, state, text: OPERATION_STATE_TEXT[state](operation.typeName), operation } : undefined;
  };
  return (
    pick('pending', isPendingOperation) ??
    pick('cancelling', isBeingCancelled) ??
    pick('running', (op) => op.status === 'RUNNING' && !isOperationFinished(op))
  );
}

/**
 * Panic when the machine needs admin attention; else the running task's
 * description; else the latest operation pending, being cancelled or running
 * (`operationStatus`); else the operation mode text (spec 2 §2.2).
 */
export function machineStatus(machine: TMachine): MachineStatus {
  if (machine.needsAdmin) return { kind: 'panic', text: PANIC_TEXT };
  const running = machine.tasks.find((t) => t.status === 'Running');
  if (running) return { kind: 'task', text: running.description, task: running };
  const operation = operationStatus(machine.operations);
  if (operation) return operation;
  return { kind: 'mode', text: OPERATION_MODE_TEXT[machine.operationMode] ?? OPERATION_PENDING_TEXT };
}

/** Row colour of the machine table (spec 2 §2.2): error when it needs admin attention, warning when an operation is pending. */
export function machineRowClass(machine: Pick<TMachine, 'needsAdmin' | 'operations'>): string {
  if (machine.needsAdmin) return 'machine-row-error';
  return machine.operations.some(isPendingOperation) ? 'machine-row-warning' : '';
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

/** Rank of an operation in its life: queued or pending 0, running 1, finished 2. */
function operationRank(op: TOperation): number {
  if (isOperationFinished(op)) return 2;
  return op.status === 'RUNNING' ? 1 : 0;
}

/**
 * Whether `incoming` is at least as new as `current` (same operation): a later
 * rank, or the same rank without losing a decision already taken (a late
 * OperationQueued of a pending operation must not undo its PROCEED or CANCEL).
 */
export function isNewerOrSameOperation(incoming: TOperation, current: TOperation): boolean {
  const a = operationRank(incoming);
  const b = operationRank(current);
  if (a !== b) return a > b;
  return !(current.decision !== null && incoming.decision === null);
}

/** The machine's operations as the list carries them, with `op` replaced or added. */
export function mergeMachineOperations(operations: readonly TOperation[], op: TOperation): TOperation[] {
  const current = operations.find((o) => o.id === op.id);
  if (current && !isNewerOrSameOperation(op, current)) return [...operations];
  const all = [...operations.filter((o) => o.id !== op.id), op].sort(
    (a, b) => Number(isOperationFinished(a)) - Number(isOperationFinished(b)) || b.id - a.id,
  );
  return all.slice(0, MACHINE_UNFINISHED_OPERATIONS);
}
