/**
 * Reads of issues (spec 2 §2.5, §7 Issues), one hook per call:
 *
 * - `GET /issues?machineId&tags&status&startIndex&limit` → `{items, totalItems, totalCapped}` (the viewer, paged on the server; a capped total is a lower bound)
 * - `GET /issues/tags?machineId&tags&status&search` → `{items: [{tag, issueCount}]}` (the tag filter's suggestions)
 * - `GET /issues/{id}/logs?startIndex&limit` → `{items, totalItems}` (the logs drawer)
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TIssueLogsPage, TIssuesPage, TIssueTagSuggestions } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { issueKeys, type IssuesPageQuery, type IssueTagsQuery } from './keys';

/** The filter's query parameters: machineId and tags when set, status always. */
function filterParams(query: { machineId?: number; tags?: string; status: string }): Record<string, string | number> {
  const params: Record<string, string | number> = { status: query.status };
  if (query.machineId !== undefined) params.machineId = query.machineId;
  if (query.tags !== undefined) params.tags = query.tags;
  return params;
}

/** One page of the viewer; the previous page stays shown while the next loads. */
export function useIssuesPage(query: IssuesPageQuery) {
  return useQuery({
    queryKey: issueKeys.page(query),
    queryFn: ({ signal }) => {
      const searchParams = { ...filterParams(query), startIndex: query.startIndex, limit: query.limit };
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

/**
 * The tags in use on the issues the viewer's filter matches, for the tag
 * filter's suggestions (most used first; the server leaves out the chosen
 * ones). Read only while the filter's popover is open (`enabled`).
 */
export function useIssueTags(query: IssueTagsQuery, enabled: boolean) {
  return useQuery({
    queryKey: issueKeys.tags(query),
    queryFn: ({ signal }) => {
      const searchParams = { ...filterParams(query), ...(query.search ? { search: query.search } : {}) };
      return api.get<TIssueTagSuggestions>('issues/tags', { searchParams, signal });
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
