/**
 * Reads of issues (spec 2 §2.5, §7 Issues), one hook per call:
 *
 * - `GET /issues?machineId&tags&startIndex&limit` → `{items, totalItems, totalCapped}` (the viewer, paged on the server; a capped total is a lower bound)
 * - `GET /issues/{id}/logs?startIndex&limit` → `{items, totalItems}` (the logs drawer)
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TIssueLogsPage, TIssuesPage } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { issueKeys, type IssuesPageQuery } from './keys';

/** One page of the viewer; the previous page stays shown while the next loads. */
export function useIssuesPage(query: IssuesPageQuery) {
  return useQuery({
    queryKey: issueKeys.page(query),
    queryFn: ({ signal }) => {
      const searchParams: Record<string, string | number> = { startIndex: query.startIndex, limit: query.limit };
      if (query.machineId !== undefined) searchParams.machineId = query.machineId;
      if (query.tags !== undefined) searchParams.tags = query.tags;
      return api.get<TIssuesPage>('issues', { searchParams, signal });
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** A page of an issue's logs, newest first; nothing is read without an issue. */
export function useIssueLogs(issueId: number | undefined, startIndex: number, limit: number) {
  return useQuery({
    queryKey: issueKeys.logs(issueId ?? 0, startIndex),
    queryFn: ({ signal }) => api.get<TIssueLogsPage>(`issues/${issueId}/logs`, { searchParams: { startIndex, limit }, signal }),
    enabled: issueId !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
