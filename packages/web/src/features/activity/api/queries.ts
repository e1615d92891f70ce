/**
 * The activity log's calls (spec 2 §2.11, §7 Audit, §9; issue 24 point 6):
 *
 * - `GET /user-activities` with accountId, action, user, from, to, signIns,
 *   sortDirection, startIndex and limit; it answers an array. The first page is
 *   10 activities from index 0, each further page the next 10; paging ends only
 *   when a page comes back empty. Opened at an activity (`anchorId`, a link to
 *   `/activity?activityId=N`), the first page starts at it (`fromId`) and the
 *   newer ones load on request, 10 at a time (`beforeId` the first one shown),
 *   until a page comes back short.
 * - `GET /user-activities/{id}`: the chosen activity with the machines and
 *   accounts it names.
 * - `GET /user-activities/users`: the user filter's options.
 *
 * A list failure shows 'Error occurred loading audit activities' (5 s, spec 2 §8).
 */
import { useCallback } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AUDIT_PAGE_SIZE,
  type TAuditAction,
  type TSortDirection,
  type TUserActivitiesQuery,
  type TUserActivity,
  type TUserActivityDetail,
} from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { activityKeys } from './keys';

export const LOAD_ERROR = 'Error occurred loading audit activities';
export const LOADED = 'Audit activities loaded';

export interface ActivityFilter {
  accountId?: number;
  action?: TAuditAction;
  user?: string;
  /** ISO 8601 times, both ends inclusive. */
  from?: string;
  to?: string;
  /** Sign-ins and sign-outs shown (hidden by default). */
  signIns: boolean;
  sortDirection: TSortDirection;
}

type ActivityParams = { [K in keyof Required<TUserActivitiesQuery>]?: string | number | boolean };

/** A page of the timeline: from the anchor (or the top) at an offset, or the ones just before an activity. */
export type ActivityPageParam = { startIndex: number } | { beforeId: number };

function isAbort(error: unknown) {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The loaded pages of activities matching `filter`, opened at activity
 * `anchorId` when given, with `fetchNextPage` (older, for Newest) for infinite
 * scroll and `fetchPreviousPage` (newer) when opened at an activity.
 */
export function useUserActivities(filter: ActivityFilter, anchorId: number | undefined) {
  const toast = useToast();
  return useInfiniteQuery({
    queryKey: activityKeys.list(filter, anchorId),
    initialPageParam: { startIndex: 0 } as ActivityPageParam,
    queryFn: async ({ pageParam, signal }) => {
      const searchParams: ActivityParams = {
        accountId: filter.accountId,
        action: filter.action,
        user: filter.user,
        from: filter.from,
        to: filter.to,
        signIns: filter.signIns ? true : undefined,
        sortDirection: filter.sortDirection,
        limit: AUDIT_PAGE_SIZE,
        ...('beforeId' in pageParam ? { beforeId: pageParam.beforeId } : { fromId: anchorId, startIndex: pageParam.startIndex }),
      };
      try {
        return await api.get<TUserActivity[]>('user-activities', { searchParams, signal });
      } catch (error) {
        if (!isAbort(error)) toast.error(LOAD_ERROR);
        throw error;
      }
    },
    getNextPageParam: (lastPage, pages, _last, params): ActivityPageParam | undefined =>
      lastPage.length === 0 ? undefined : { startIndex: pages.reduce((count, page, i) => count + ('startIndex' in params[i]! ? page.length : 0), 0) },
    getPreviousPageParam: (firstPage, _pages, firstParam): ActivityPageParam | undefined => {
      if (anchorId === undefined) return undefined;
      if ('beforeId' in firstParam && firstPage.length < AUDIT_PAGE_SIZE) return undefined;
      return { beforeId: firstPage[0]?.id ?? anchorId };
    },
    // Each visit starts again from the first page instead of refetching every page seen before.
    gcTime: 0,
  });
}

/**
 * Reloads the activities of `filter` (opened at `anchorId`) from their first
 * page; resolves true when the reload succeeded (the caller then shows 'Audit
 * activities loaded').
 */
export function useReloadUserActivities() {
  const queryClient = useQueryClient();
  return useCallback(
    async (filter: ActivityFilter, anchorId: number | undefined) => {
      const queryKey = activityKeys.list(filter, anchorId);
      await queryClient.resetQueries({ queryKey, exact: true });
      return queryClient.getQueryState(queryKey)?.status === 'success';
    },
    [queryClient],
  );
}

/** Activity `id` with the machines and accounts it names (404 when unknown or hidden). */
export function useUserActivity(id: number | undefined) {
  return useQuery({
    queryKey: activityKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TUserActivityDetail>(`user-activities/${id}`, { signal }),
    enabled: id !== undefined,
    retry: false,
  });
}

/** The users of the activities the user may see (the user filter's options). */
export function useActivityUsers() {
  return useQuery({
    queryKey: activityKeys.users(),
    queryFn: ({ signal }) => api.get<string[]>('user-activities/users', { signal }),
    staleTime: 60_000,
  });
}
