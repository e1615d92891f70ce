/**
 * Query keys of operations (spec 2 §2.3 Operation Logs, Version Info, Server
 * Status, Restore Backup, Reinstall Sample Data; §2.6 Operations viewer; §7).
 */
/** One page of the Operations viewer (`GET /operations`). */
export interface OperationsPageQuery {
  machineId?: number;
  /** Only those waiting for approval (the approvals inbox). */
  pending?: boolean;
  /** The viewer's filters (issue 24 point 7): a comma list of statuses, a type, a class, the queue time range. */
  status?: string;
  type?: string;
  classId?: number;
  from?: string;
  to?: string;
  /** The order (`queued`, `started`, `finished`) and its direction; the server's default without. */
  sort?: string;
  order?: 'asc' | 'desc';
  startIndex: number;
  limit: number;
}

/** Which log of an operation (`GET /operations/{id}/output` or `/deployer-log`). */
export type OperationLogKind = 'output' | 'deployer-log';

export const operationKeys = {
  all: ['operations'] as const,
  /** Every cached page of the Operations viewer (the prefix the push channel updates). */
  pages: () => [...operationKeys.all, 'page'] as const,
  page: (query: OperationsPageQuery) => [...operationKeys.pages(), query] as const,
  /** Every machine's Operation Logs (infinite lists). */
  allMachineLogs: () => [...operationKeys.all, 'machine'] as const,
  machineLogs: (machineId: number) => [...operationKeys.allMachineLogs(), machineId] as const,
  /** The count of operations waiting for approval (`GET /operations/pending-count`, the top bar's chip). */
  pendingCount: () => [...operationKeys.all, 'pending-count'] as const,
  /** One operation (`GET /operations/{id}`, its page). */
  one: (operationId: number) => [...operationKeys.all, 'one', operationId] as const,
  log: (kind: OperationLogKind, operationId: number) => [...operationKeys.all, 'log', kind, operationId] as const,
  types: (machineId: number) => [...operationKeys.all, 'types', machineId] as const,
  siteServerStatus: (machineId: number) => [...operationKeys.all, 'site-server-status', machineId] as const,
  stateInfo: (machineId: number) => [...operationKeys.all, 'state-info', machineId] as const,
  latestBackups: (accountId: number) => [...operationKeys.all, 'latest-backups', accountId] as const,
  sampleDataFiles: () => [...operationKeys.all, 'sample-data-files'] as const,
  machineLookup: () => [...operationKeys.all, 'machine-lookup'] as const,
  trail: (activityId: number) => [...operationKeys.all, 'trail', activityId] as const,
};
