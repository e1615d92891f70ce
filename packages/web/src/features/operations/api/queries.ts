/**
 * Reads of operations (spec 2 §2.3, §2.6, §7 Machines and Operations, §8), one
 * hook per call:
 *
 * - `GET /operations?machineId&startIndex&limit` → `{items, totalItems}` (viewer, paged on the server)
 * - `GET /machines/{id}/operations?startIndex&limit` → `{items, totalItems}` (Operation Logs, load more)
 * - `GET /operations/pending-count` → `{count}` (the top bar's Pending approvals, every 30 s and after operation events)
 * - `GET /operations/{id}` → one operation with what it waits for (its page)
 * - `GET /operations/{id}/output` and `/deployer-log` → `{operationId, content}`
 * - `GET /machines/{id}/operation-types` → the types that can be manual for its class
 * - `GET /machines/{id}/site-server-status` ('Error occurred getting site server status', 5 s)
 * - `GET /machines/{id}/state-info` → the current version state (failures silent, spec 2 §8)
 * - `GET /accounts/{id}/backups?softwareName&limit=1` per software → the latest backup of each
 * - `GET /sample-data-files` → every sample data file
 * - `GET /user-activities/{id}/trail` → the tasks and operations an activity caused
 *
 * The push channel keeps the viewer's pages and the Operation Logs current (`operation-cache.ts`).
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  BACKUP_SOFTWARE,
  STATS_REFRESH_MS,
  type TPendingApprovals,
  type TActivityTrail,
  type TOperation,
  type TBackupFilesResponse,
  type TOperationListResponse,
  type TOperationsPage,
  type TOperationLog,
  type TOperationType,
  type TSampleDataFile,
  type TSiteServerStatus,
  type TVersionState,
} from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import type { LatestBackups } from '../operation-rules';
import { operationKeys, type OperationLogKind, type OperationsPageQuery } from './keys';

/** Page size of the Operation Logs dialog (spec 2 §9 does not give one: the default list page, 20). */
export const OPERATION_LOGS_PAGE_SIZE = 20;

/** One page of the Operations viewer; the previous page stays shown while the next loads. */
export function useOperationsPage(query: OperationsPageQuery) {
  return useQuery({
    queryKey: operationKeys.page(query),
    queryFn: ({ signal }) => api.get<TOperationsPage>('operations', { searchParams: { ...query }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The machine's operations, newest first, 20 at a time (`fetchNextPage` loads more). */
export function useMachineOperationLogs(machineId: number) {
  return useInfiniteQuery({
    queryKey: operationKeys.machineLogs(machineId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.get<TOperationListResponse>(`machines/${machineId}/operations`, {
        searchParams: { startIndex: pageParam, limit: OPERATION_LOGS_PAGE_SIZE },
        signal,
      }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return last.items.length > 0 && loaded < last.totalItems ? loaded : undefined;
    },
    gcTime: 0,
  });
}

/** How many operations wait for approval that the user can see; only `enabled` (a user with write permission). */
export function usePendingApprovalsCount(enabled: boolean) {
  return useQuery({
    queryKey: operationKeys.pendingCount(),
    queryFn: ({ signal }) => api.get<TPendingApprovals>('operations/pending-count', { signal }),
    enabled,
    refetchInterval: STATS_REFRESH_MS,
  });
}

/** How often an unfinished operation's page reads it and its logs again (ms). */
export const OPERATION_PAGE_REFRESH_MS = 2000;

/** One operation; read again every {@link OPERATION_PAGE_REFRESH_MS} while it is unfinished (`live`). */
export function useOperation(operationId: number) {
  return useQuery({
    queryKey: operationKeys.one(operationId),
    queryFn: ({ signal }) => api.get<TOperation>(`operations/${operationId}`, { signal }),
    staleTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.data && query.state.data.finishTime === null ? OPERATION_PAGE_REFRESH_MS : false),
  });
}

/** An operation's output or deployer log, read each time its dialog opens; with `refreshMs`, read again that often. */
export function useOperationLog(kind: OperationLogKind, operationId: number, refreshMs: number | false = false) {
  return useQuery({
    queryKey: operationKeys.log(kind, operationId),
    queryFn: ({ signal }) => api.get<TOperationLog>(`operations/${operationId}/${kind}`, { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchInterval: refreshMs,
  });
}

/** The operation types that can be queued by hand on the machine (its class's, canBeManual). */
export function useManualOperationTypes(machineId: number) {
  return useQuery({
    queryKey: operationKeys.types(machineId),
    queryFn: async ({ signal }) =>
      (await api.get<TOperationType[]>(`machines/${machineId}/operation-types`, { signal })).filter((t) => t.canBeManual),
    staleTime: 60_000,
  });
}

export const SITE_SERVER_STATUS_ERROR = 'Error occurred getting site server status';

/** The machine's site server status; a failure shows the spec's toast. */
export function useSiteServerStatus(machineId: number) {
  const toast = useToast();
  return useQuery({
    queryKey: operationKeys.siteServerStatus(machineId),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<TSiteServerStatus>(`machines/${machineId}/site-server-status`, { signal });
      } catch (error) {
        if (!(error instanceof DOMException && error.name === 'AbortError')) toast.error(SITE_SERVER_STATUS_ERROR);
        throw error;
      }
    },
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** The machine's current version state (Version Info); a failure is silent (spec 2 §8). */
export function useStateInfo(machineId: number) {
  return useQuery({
    queryKey: operationKeys.stateInfo(machineId),
    queryFn: ({ signal }) => api.get<TVersionState>(`machines/${machineId}/state-info`, { signal }),
    staleTime: 0,
    retry: false,
  });
}

/** The account's latest backup of each software (one call per software, newest first, limit 1). */
export function useLatestBackups(accountId: number) {
  return useQuery({
    queryKey: operationKeys.latestBackups(accountId),
    queryFn: async ({ signal }) => {
      const pages = await Promise.all(
        BACKUP_SOFTWARE.map((softwareName) =>
          api.get<TBackupFilesResponse>(`accounts/${accountId}/backups`, { searchParams: { softwareName, startIndex: 0, limit: 1 }, signal }),
        ),
      );
      const latest: LatestBackups = {};
      BACKUP_SOFTWARE.forEach((software, i) => {
        const file = pages[i]?.items[0];
        if (file) latest[software] = file;
      });
      return latest;
    },
    staleTime: 0,
  });
}

/** Every sample data file (Reinstall Sample Data's Select choice). */
export function useSampleDataFileList(enabled = true) {
  return useQuery({
    queryKey: operationKeys.sampleDataFiles(),
    queryFn: ({ signal }) => api.get<TSampleDataFile[]>('sample-data-files', { signal }),
    staleTime: 60_000,
    enabled,
  });
}

/** The tasks and operations an audit activity caused, with their outcome. */
export function useActivityTrail(activityId: number | undefined) {
  return useQuery({
    queryKey: operationKeys.trail(activityId ?? 0),
    queryFn: ({ signal }) => api.get<TActivityTrail>(`user-activities/${activityId}/trail`, { signal }),
    enabled: activityId !== undefined,
    staleTime: 0,
  });
}
