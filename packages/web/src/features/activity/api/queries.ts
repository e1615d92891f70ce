/**
 * The activity log's call (spec 2 §2.11, §7 Audit, §9): `GET /user-activities`
 * with accountId, action, sortDirection, startIndex and limit; it answers an
 * array. The first page is 10 activities from index 0, each further page the
 * next 10; paging ends only when a page comes back empty.
 *
 * A load failure shows 'Error occurred loading audit activities' (5 s,
 * spec 2 §8).
 */
import { useCallback } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIT_PAGE_SIZE, type TAuditAction, type TSortDirection, type TUserActivitiesQuery, type TUserActivity } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { activityKeys } from './keys';

export const LOAD_ERROR = 'Error occurred loading audit activities';
export const LOADED = 'Audit activities loaded';

export interface ActivityFilter {
  accountId?: number;
  action?: TAuditAction;
  sortDirection: TSortDirection;
}

type ActivityParams = { [K in keyof Required<TUserActivitiesQuery>]?: string | number };

function isAbort(error: unknown) {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The loaded pages of activities matching `filter`, with `fetchNextPage` for infinite scroll. */
export function useUserActivities(filter: ActivityFilter) {
  const toast = useToast();
  return useInfiniteQuery({
    queryKey: activityKeys.list(filter),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) => {
      const searchParams: ActivityParams = {
        accountId: filter.accountId,
        action: filter.action,
        sortDirection: filter.sortDirection,
        startIndex: pageParam,
        limit: AUDIT_PAGE_SIZE,
      };
      try {
        return await api.get<TUserActivity[]>('user-activities', { searchParams, signal });
      } catch (error) {
        if (!isAbort(error)) toast.error(LOAD_ERROR);
        throw error;
      }
    },
    getNextPageParam: (lastPage, pages) =>
      lastPage.length === 0 ? undefined : pages.reduce((count, page) => count + page.length, 0),
    // Each visit starts again from the first page instead of refetching every page seen before.
    gcTime: 0,
  });
}

/**
 * Reloads the activities of `filter` from the first page; resolves true when
 * the reload succeeded (the caller then shows 'Audit activities loaded').
 */
export function useReloadUserActivities() {
  const queryClient = useQueryClient();
  return useCallback(
    async (filter: ActivityFilter) => {
      const queryKey = activityKeys.list(filter);
      await queryClient.resetQueries({ queryKey, exact: true });
      return queryClient.getQueryState(queryKey)?.status === 'success';
    },
    [queryClient],
  );
}
