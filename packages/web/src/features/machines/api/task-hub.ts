/**
 * The push channel client (spec 2 §4, §9; DESIGN §7): Socket.IO at `/taskHub`,
 * authenticated with the stored token (`auth: {token}`), reconnecting every 2 s
 * (`reconnectionDelay` and `reconnectionDelayMax` 2000, no randomisation).
 *
 * - TaskQueued, TaskStarted, TaskProgress and TaskFinished carry the task; each
 *   goes straight into the query cache (`applyTask`), and the machine's row is
 *   re-read for what the event does not carry (instance state). A task of a
 *   machine no cached list shows (a machine just created) reloads the lists of
 *   its account.
 * - OperationQueued, OperationStarted and OperationFinished carry the
 *   operation; each goes into the cache (`applyOperation`: the machine's row,
 *   the Operations viewer's pages, the Operation Logs). OperationFinished also
 *   re-reads the machine (its fail counter and panic change with the outcome).
 * - RolloutProgress carries a rollout's status and counts; it goes into the
 *   cache too (`applyRolloutProgress` of the updater feature).
 * - After every (re)connection the machine lists and task pages already shown
 *   are reloaded, since events sent while away are not replayed.
 * - One connection is shared by every mounted `useTaskHub` (reference counted)
 *   and closed when the last one unmounts.
 * - While not connected, `useTaskHubConnected()` is false; the machine queries
 *   then poll every 2 s while a task is unfinished.
 *
 * Known limitations: a refused handshake (an expired or revoked token) is
 * retried every 2 s with the token stored at that moment; the API's own 401
 * handling signs the user out.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import {
  OPERATION_EVENTS,
  ROLLOUT_PROGRESS_EVENT,
  TASK_EVENTS,
  TASK_HUB_PATH,
  TASK_HUB_RETRY_MS,
  type TOperation,
  type TOperationEventName,
  type TRolloutProgressEvent,
  type TTask,
  type TTaskEventName,
} from '@fleet/contracts';
import { getToken } from '../../../app/auth/token-store';
import { operationKeys } from '../../operations/api/keys';
import { rolloutKeys } from '../../updater/api/keys';
import { applyRolloutProgress } from '../../updater/api/rollout-cache';
import { machineKeys } from './keys';
import { applyOperation } from './operation-cache';
import { applyTask, invalidateListsOf, refreshMachine } from './task-cache';

let socket: Socket | undefined;
let users = 0;
let connected = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setConnected(value: boolean) {
  if (connected === value) return;
  connected = value;
  for (const listener of listeners) listener();
}

function onTaskEvent(queryClient: QueryClient, name: TTaskEventName, task: TTask) {
  const shown = applyTask(queryClient, task);
  if (shown) {
    // TaskQueued changes nothing else about the machine; the others move its instance.
    if (name !== 'TaskQueued') void refreshMachine(queryClient, task.machineId);
  } else {
    void invalidateListsOf(queryClient, { machineId: task.machineId, accountId: task.accountId });
  }
}

function onOperationEvent(queryClient: QueryClient, name: TOperationEventName, op: TOperation) {
  const shown = applyOperation(queryClient, op);
  if (shown) {
    if (name === 'OperationFinished') void refreshMachine(queryClient, op.machineId);
  } else if (name === 'OperationQueued') {
    void invalidateListsOf(queryClient, { machineId: op.machineId, accountId: op.accountId });
  }
}

/** Reloads the machine lists and task pages already loaded, leaving alone those whose first load is under way. */
function reloadShown(queryClient: QueryClient) {
  const predicate = (query: Query) => query.state.status === 'success' && query.state.fetchStatus === 'idle';
  void queryClient.invalidateQueries({ queryKey: machineKeys.lists(), predicate });
  void queryClient.invalidateQueries({ queryKey: machineKeys.allTasks(), predicate });
  void queryClient.invalidateQueries({ queryKey: operationKeys.pages(), predicate });
  void queryClient.invalidateQueries({ queryKey: operationKeys.allMachineLogs(), predicate });
  void queryClient.invalidateQueries({ queryKey: rolloutKeys.all, predicate });
}

function open(queryClient: QueryClient) {
  const s = io({
    path: TASK_HUB_PATH,
    auth: (cb) => cb({ token: getToken() ?? '' }),
    reconnectionDelay: TASK_HUB_RETRY_MS,
    reconnectionDelayMax: TASK_HUB_RETRY_MS,
    randomizationFactor: 0,
  });
  s.on('connect', () => {
    setConnected(true);
    reloadShown(queryClient);
  });
  s.on('disconnect', () => setConnected(false));
  s.on('connect_error', () => {
    setConnected(false);
    // A refused handshake is not retried by Socket.IO itself: retry it at the same pace.
    if (!s.active && users > 0) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        if (socket === s && users > 0 && getToken()) s.connect();
      }, TASK_HUB_RETRY_MS);
    }
  });
  for (const name of TASK_EVENTS) s.on(name, (task: TTask) => onTaskEvent(queryClient, name, task));
  for (const name of OPERATION_EVENTS) s.on(name, (op: TOperation) => onOperationEvent(queryClient, name, op));
  s.on(ROLLOUT_PROGRESS_EVENT, (event: TRolloutProgressEvent) => applyRolloutProgress(queryClient, event));
  return s;
}

function acquire(queryClient: QueryClient) {
  users += 1;
  socket ??= open(queryClient);
}

function release() {
  users -= 1;
  if (users > 0 || !socket) return;
  clearTimeout(retryTimer);
  socket.removeAllListeners();
  socket.disconnect();
  socket = undefined;
  setConnected(false);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the push channel is connected now. */
export function useTaskHubConnected(): boolean {
  return useSyncExternalStore(subscribe, () => connected);
}

/** Keeps the push channel open while the calling component is mounted; answers whether it is connected. */
export function useTaskHub(): boolean {
  const queryClient = useQueryClient();
  useEffect(() => {
    acquire(queryClient);
    return release;
  }, [queryClient]);
  return useTaskHubConnected();
}
