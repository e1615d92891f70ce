/**
 * Query keys of the viewers (spec 2 §2.1, §2.7–2.9): the machine lookup of the
 * machine selector and the paged lists of the Machines, States and Cloud
 * Instances viewers. Every viewer list lives under `viewerKeys.lists()`, so that
 * selecting a machine clears them all at once (spec 2 §4).
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { TVersionStateKind } from '@fleet/contracts';
import { operationKeys } from '../../operations/api/keys';
import { issueKeys } from '../../issues/api/keys';
import { requestStatisticsKeys } from '../../request-statistics/api/keys';

/** One page of a viewer list, of every machine or of one. */
export interface ViewerPageQuery {
  machineId?: number;
  startIndex: number;
  limit: number;
}

/** A page of the Cloud Instances viewer: its filters and the launch order's direction (issue 24 point 7). */
export interface CloudInstancesPageQuery extends ViewerPageQuery {
  classId?: number;
  status?: string;
  active?: boolean;
  sort?: 'timestamp';
  order?: 'asc' | 'desc';
}

/** A page of the States viewer: the kind, its filters and the time order's direction (issue 24 point 7). */
export interface StatesPageQuery extends ViewerPageQuery {
  state: TVersionStateKind;
  classId?: number;
  component?: string;
  branch?: string;
  from?: string;
  to?: string;
  sort?: 'timestamp';
  order?: 'asc' | 'desc';
}

export const viewerKeys = {
  all: ['viewer'] as const,
  /** Every cached answer of the machine lookup. */
  machineLookups: () => [...viewerKeys.all, 'machine-lookup'] as const,
  /** The machines whose name contains `search` (the selector's options; '' = the first page). */
  machineSearch: (search: string) => [...viewerKeys.machineLookups(), 'search', search] as const,
  /** One machine's lookup entry (the selected machine's label). */
  machineById: (id: number) => [...viewerKeys.machineLookups(), 'id', id] as const,
  /** Every cached page of every viewer list (the prefix a machine selection clears). */
  lists: () => [...viewerKeys.all, 'list'] as const,
  machines: (query: ViewerPageQuery) => [...viewerKeys.lists(), 'machines', query] as const,
  states: (query: StatesPageQuery) => [...viewerKeys.lists(), 'states', query] as const,
  cloudInstances: (query: CloudInstancesPageQuery) => [...viewerKeys.lists(), 'cloud-instances', query] as const,
};

/**
 * The cached paged lists a machine selection clears (spec 2 §4 "Selecting a
 * machine clears its cached paged lists"): the viewers' own and the Operations
 * viewer's pages. A viewer whose keys are not under `viewerKeys.lists()` adds
 * its prefix here.
 */
export const VIEWER_LIST_KEYS: readonly QueryKey[] = [
  viewerKeys.lists(),
  operationKeys.pages(),
  issueKeys.pages(),
  requestStatisticsKeys.pages(),
];

/**
 * Clears every cached viewer list (`VIEWER_LIST_KEYS`), as selecting a machine
 * does (spec 2 §4): no list of the former selection is shown again from the
 * cache. The machine lookup stays cached.
 */
export function clearViewerLists(queryClient: QueryClient): void {
  for (const queryKey of VIEWER_LIST_KEYS) queryClient.removeQueries({ queryKey });
}
