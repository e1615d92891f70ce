/**
 * Folding operations into the TanStack Query cache (STYLE "Live events straight
 * into the query cache"; spec 2 §2.2, §4; OPS-SEMANTICS events), as
 * `task-cache.ts` does for tasks.
 *
 * An operation (from an OperationQueued / OperationStarted / OperationFinished
 * event, or from a mutation's answer):
 * - replaces its copy, or is added, in the `operations` of the machine's row in
 *   every cached machine list (`mergeMachineOperations`: unfinished first, then
 *   finished, newest first within each, at most `MACHINE_UNFINISHED_OPERATIONS`;
 *   the server's list carries unfinished ones only, the cache keeps one that
 *   finished since so that a late event cannot revive it);
 * - replaces its copy in every cached page of the Operations viewer and in the
 *   machine's Operation Logs;
 * - when new (OperationQueued), reloads the viewer's first pages (the
 *   approvals inbox's too) and the machine's Operation Logs, at most once per
 *   {@link NEW_OPERATION_RELOAD_MS}; when pending or decided, the count of
 *   pending approvals likewise
 *   (a thousand operations queued at once must not cost a thousand reloads).
 *
 * An operation never goes back to an earlier state (`isNewerOrSameOperation`).
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { TOperation, TOperationListResponse } from '@fleet/contracts';
import { isNewerOrSameOperation, isOperationFinished, mergeMachineOperations } from '../machine-status';
import { operationKeys, type OperationsPageQuery } from '../../operations/api/keys';
import { updateMachineRows } from './task-cache';

/** Longest wait before new operations show in the viewer's first page and the Operation Logs, milliseconds. */
export const NEW_OPERATION_RELOAD_MS = 2000;

/** One page with `op` replaced where it is shown (never added: pages are cut on the server). */
function replaceIn(page: TOperationListResponse, op: TOperation): TOperationListResponse {
  const index = page.items.findIndex((o) => o.id === op.id);
  if (index < 0 || !isNewerOrSameOperation(op, page.items[index]!)) return page;
  return { ...page, items: page.items.map((o) => (o.id === op.id ? op : o)) };
}

/** Whether any cached page already shows the operation. */
function shownInPages(queryClient: QueryClient, op: TOperation): boolean {
  const viewer = queryClient.getQueriesData<TOperationListResponse>({ queryKey: operationKeys.pages() });
  if (viewer.some(([, data]) => data?.items.some((o) => o.id === op.id))) return true;
  const logs = queryClient.getQueriesData<InfiniteData<TOperationListResponse>>({ queryKey: operationKeys.machineLogs(op.machineId) });
  return logs.some(([, data]) => data?.pages.some((p) => p.items.some((o) => o.id === op.id)));
}

const pendingReloads = new Map<QueryClient, { machineIds: Set<number>; timer: ReturnType<typeof setTimeout> }>();

/** Reloads, soon and once for many calls, the viewer's first pages and the Operation Logs of the machines named. */
function reloadForNew(queryClient: QueryClient, machineId: number) {
  const pending = pendingReloads.get(queryClient);
  if (pending) {
    pending.machineIds.add(machineId);
    return;
  }
  const machineIds = new Set([machineId]);
  const timer = setTimeout(() => {
    pendingReloads.delete(queryClient);
    void queryClient.invalidateQueries({
      queryKey: operationKeys.pages(),
      predicate: (q) => {
        const query = q.queryKey[q.queryKey.length - 1] as OperationsPageQuery;
        return query.startIndex === 0 && (query.machineId === undefined || machineIds.has(query.machineId));
      },
    });
    for (const id of machineIds) void queryClient.invalidateQueries({ queryKey: operationKeys.machineLogs(id) });
  }, NEW_OPERATION_RELOAD_MS);
  pendingReloads.set(queryClient, { machineIds, timer });
}

const pendingRecounts = new Set<QueryClient>();

/**
 * Reads the count of pending approvals again, soon and once for many calls:
 * an operation waiting for approval was queued, or one was decided.
 */
function recountPending(queryClient: QueryClient) {
  if (pendingRecounts.has(queryClient)) return;
  pendingRecounts.add(queryClient);
  setTimeout(() => {
    pendingRecounts.delete(queryClient);
    void queryClient.invalidateQueries({ queryKey: operationKeys.pendingCount() });
  }, NEW_OPERATION_RELOAD_MS);
}

/**
 * Puts an operation into the cache (machine rows, viewer pages, Operation Logs, its own page).
 * Answers whether a cached machine list shows its machine.
 */
export function applyOperation(queryClient: QueryClient, op: TOperation): boolean {
  const isNew = !shownInPages(queryClient, op);
  for (const [key, data] of queryClient.getQueriesData<TOperationListResponse>({ queryKey: operationKeys.pages() })) {
    if (data) queryClient.setQueryData(key, replaceIn(data, op));
  }
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<TOperationListResponse>>({ queryKey: operationKeys.machineLogs(op.machineId) })) {
    if (data) queryClient.setQueryData(key, { ...data, pages: data.pages.map((p) => replaceIn(p, op)) });
  }
  // The operation's own page (#/operations/{id}), when open.
  if (queryClient.getQueryData(operationKeys.one(op.id))) queryClient.setQueryData(operationKeys.one(op.id), op);
  if (isNew && !isOperationFinished(op)) reloadForNew(queryClient, op.machineId);
  if (op.pending || op.decision !== null) recountPending(queryClient);
  return updateMachineRows(queryClient, op.machineId, (m) => ({ ...m, operations: mergeMachineOperations(m.operations, op) }));
}
