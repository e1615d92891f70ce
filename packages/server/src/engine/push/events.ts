/**
 * In-process task events (DESIGN §7): TaskQueued, TaskStarted, TaskProgress and
 * TaskFinished, each carrying the task. The task engine and the machines service
 * emit them; the `/taskHub` bridge (and tests) subscribe.
 *
 * Each event also carries the class ids that decide who may see it (the
 * machine's and its account's): a user without group CustomerProductionAccess
 * must not receive events of Customer Production machines (DESIGN §5).
 *
 * Known limitations: events live in one process. Across processes they travel
 * through the push channel's adapter, not through this emitter.
 */
import type { TTask, TTaskEventName } from '@fleet/contracts';

export interface TaskEvent {
  name: TTaskEventName;
  task: TTask;
  /** The machine's class id and its account's class id. */
  classIds: number[];
}

export type TaskEventListener = (event: TaskEvent) => void;

export interface TaskEvents {
  emit(event: TaskEvent): void;
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
