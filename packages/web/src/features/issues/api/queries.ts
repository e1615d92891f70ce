/**
 * Reads of issues (spec 2 §2.5, §7 Issues), one hook per call:
 *
 * - `GET /issues?machineId&tags&status&classId&from&to&sort&order&startIndex&limit` → `{items, totalItems, totalCapped}` (the viewer, paged, filtered and sorted on the server; a capped total is a lower bound)
 * - `GET /issues/tags?machineId&tags&status&classId&from&to&search` → `{items: [{tag, issueCount}]}` (the tag filter's suggestions)
 * - `GET /issues/{id}/logs?startIndex&limit` → `{items, totalItems}` (the logs drawer)
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TIssueLogsPage, TIssuesPage, TIssueTagSuggestions } from '@fleet/contracts';
import { api, type QueryParams } from '../../../app/api-client';
import { issueKeys, type IssuesFilterQuery, type IssuesPageQuery, type IssueTagsQuery } from './keys';

/** The filter's query parameters: status always, the others when set (the client leaves out undefined ones). */
function filterParams(query: IssuesFilterQuery): QueryParams {
  return { status: query.status, machineId: query.machineId, tags: query.tags, classId: query.classId, from: query.from, to: query.to };
}

/** One page of the viewer; the previous page stays shown while the next loads. */
export function useIssuesPage(query: IssuesPageQuery) {
  return useQuery({
    queryKey: issueKeys.page(query),
    queryFn: ({ signal }) => {
      const searchParams = { ...filterParams(query), sort: query.sort, order: query.order, startIndex: query.startIndex, limit: query.limit };
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
