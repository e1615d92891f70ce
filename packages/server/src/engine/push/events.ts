/**
 * In-process fleet events (DESIGN §7, §12): TaskQueued, TaskStarted, TaskProgress
 * and TaskFinished, each carrying the task, and OperationQueued, OperationStarted
 * and OperationFinished, each carrying the operation, and RolloutProgress
 * carrying a rollout's progress (DESIGN §15). The engines and the services emit
 * them; the `/taskHub` bridge (and tests) subscribe.
 *
 * Each event also carries the class ids that decide who may see it (the
 * machine's and its account's): a user without group CustomerProductionAccess
 * must not receive events of Customer Production machines (DESIGN §5).
 *
 * Known limitations: events live in one process. Across processes they travel
 * through the push channel's adapter, not through this emitter.
 */
import type { TOperation, TOperationEventName, TRolloutProgressEvent, TTask, TTaskEventName } from '@fleet/contracts';

export interface TaskEvent {
  name: TTaskEventName;
  task: TTask;
  /** The machine's class id and its account's class id. */
  classIds: number[];
}

export interface OperationEvent {
  name: TOperationEventName;
  operation: TOperation;
  /** The machine's class id and its account's class id. */
  classIds: number[];
}

/** A rollout's counts or status changed (the rollout engine, an operator's pause, resume or abort). */
export interface RolloutEvent {
  name: 'RolloutProgress';
  rollout: TRolloutProgressEvent;
  /** A target is Customer Production: only members of CustomerProductionAccess may see it. */
  customerProduction: boolean;
}

/** Any event of the push channel. */
export type FleetEvent = TaskEvent | OperationEvent | RolloutEvent;

/** The payload a client receives: the task, the operation or the rollout's progress. */
export const payloadOf = (event: FleetEvent): TTask | TOperation | TRolloutProgressEvent =>
  'task' in event ? event.task : 'operation' in event ? event.operation : event.rollout;

export type TaskEventListener = (event: FleetEvent) => void;

export interface TaskEvents {
  emit(event: FleetEvent): void;
  /** Adds a listener; answers the function that removes it. A listener that throws does not stop the others. */
  subscribe(listener: TaskEventListener): () => void;
}

export function createTaskEvents({ onListenerError }: { onListenerError?: (err: unknown) => void } = {}): TaskEvents {
  const listeners = new Set<TaskEventListener>();
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (err) {
          onListenerError?.(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
