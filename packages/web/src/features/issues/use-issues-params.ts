/**
 * The Issue viewer's state kept in the URL query string (spec 2 §2.1, §2.5;
 * DESIGN §10; issue 24 point 7): `machine` (the selected machine id), `tags`
 * (the tag filter, comma-joined), `status` (`resolved` or `all`; absent: open
 * issues only, as Sentry lists them), `class` (a class id), `from`/`to` (the
 * last occurrence, ISO 8601), `sort` (`last`, `first` or `count`) with
 * `order`, `page` (1-based) and `size`. A new filter goes back to page 1;
 * another machine also clears the viewers' cached lists (spec 2 §4).
 */
import { useMemo } from 'react';
import { DEFAULT_ISSUE_STATUS, ISSUE_SORTS, ISSUE_STATUSES, type TIssueSort, type TIssueStatus, type TSortOrder } from '@fleet/contracts';
import { oneOf, readList } from '../../lib/url-params';
import { readClassParam, readSort, readTimeParam, useViewerParams } from '../viewer/use-viewer-params';
import { addTag, joinTags } from './issue-rules';

/** The `tags` parameter under the filter's rules (trimmed, no blanks, no duplicates). */
function readTags(params: URLSearchParams): string[] {
  return readList(params, 'tags', (t) => t).reduce<string[]>((tags, t) => addTag(tags, t), []);
}

/** The `status` parameter: a known status, else the default (open issues only). */
const readStatus = (params: URLSearchParams): TIssueStatus => oneOf(ISSUE_STATUSES)(params.get('status')) ?? DEFAULT_ISSUE_STATUS;

/** The Issue viewer's filters beyond machine, tags and status: the machine's class, the last occurrence's range, the order. */
export interface IssuesFilter {
  classId?: number;
  from?: string;
  to?: string;
  sort?: { sort: TIssueSort; order: TSortOrder };
}

/** The class, time range and order of a query string (unknown values left out). */
export function readIssuesFilter(params: URLSearchParams): IssuesFilter {
  return {
    classId: readClassParam(params),
    from: readTimeParam(params, 'from'),
    to: readTimeParam(params, 'to'),
    sort: readSort(params, ISSUE_SORTS),
  };
}

/**
 * The viewers' `machine`, `page` and `size` (features/viewer) plus the Issue
 * viewer's `tags`, `status`, `class`, `from`, `to`, `sort` and `order`.
 */
export function useIssuesParams() {
  const { machineId, page, pageSize, params, setMachine, setParam, setParams, setPage, setSort } = useViewerParams();
  const tags = useMemo(() => readTags(params), [params]);
  const filter = useMemo(() => readIssuesFilter(params), [params]);
  const status = readStatus(params);

  /** Sets the filter given (the others stay) and goes back to page 1. */
  const setFilters = (filters: { machineId?: number | undefined; tags?: string[]; status?: TIssueStatus }) => {
    if ('machineId' in filters) setMachine(filters.machineId);
    else if (filters.tags) setParam('tags', joinTags(filters.tags));
    else if (filters.status) setParam('status', filters.status === DEFAULT_ISSUE_STATUS ? undefined : filters.status);
  };

  return { machineId, tags, status, filter, page, pageSize, setFilters, setParam, setParams, setPage, setSort };
}
