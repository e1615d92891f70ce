/**
 * In-process fleet events (DESIGN §7, §12): TaskQueued, TaskStarted, TaskProgress
 * and TaskFinished, each carrying the task, and OperationQueued, OperationStarted
 * and OperationFinished, each carrying the operation. The engines and the
 * services emit them; the `/taskHub` bridge (and tests) subscribe.
 *
 * Each event also carries the class ids that decide who may see it (the
 * machine's and its account's): a user without group CustomerProductionAccess
 * must not receive events of Customer Production machines (DESIGN §5).
 *
 * Known limitations: events live in one process. Across processes they travel
 * through the push channel's adapter, not through this emitter.
 */
import type { TOperation, TOperationEventName, TTask, TTaskEventName } from '@fleet/contracts';

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

/** Any event of the push channel. */
export type FleetEvent = TaskEvent | OperationEvent;

/** The payload a client receives: the task or the operation. */
export const payloadOf = (event: FleetEvent): TTask | TOperation => ('task' in event ? event.task : event.operation);

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
