/**
 * The Issue viewer's state kept in the URL query string (spec 2 §2.1, §2.5;
 * DESIGN §10): `machine` (the selected machine id), `tags` (the tag filter,
 * comma-joined), `status` (`resolved` or `all`; absent: open issues only, as
 * Sentry lists them) and `page` (1-based). A new machine, tag or status filter
 * goes back to page 1; another machine also clears the viewers' cached lists
 * (spec 2 §4).
 */
import { useMemo } from 'react';
import { DEFAULT_ISSUE_STATUS, ISSUE_STATUSES, type TIssueStatus } from '@fleet/contracts';
import { oneOf, readList } from '../../lib/url-params';
import { useViewerParams } from '../viewer/use-viewer-params';
import { addTag, joinTags } from './issue-rules';

/** The `tags` parameter under the filter's rules (trimmed, no blanks, no duplicates). */
function readTags(params: URLSearchParams): string[] {
  return readList(params, 'tags', (t) => t).reduce<string[]>((tags, t) => addTag(tags, t), []);
}

/** The `status` parameter: a known status, else the default (open issues only). */
const readStatus = (params: URLSearchParams): TIssueStatus => oneOf(ISSUE_STATUSES)(params.get('status')) ?? DEFAULT_ISSUE_STATUS;

/** The viewers' `machine` and `page` (features/viewer) plus the Issue viewer's `tags` and `status`. */
export function useIssuesParams() {
  const { machineId, page, params, setMachine, setParam, setPage } = useViewerParams();
  const tags = useMemo(() => readTags(params), [params]);
  const status = readStatus(params);

  /** Sets the filter given (the others stay) and goes back to page 1. */
  const setFilters = (filters: { machineId?: number | undefined; tags?: string[]; status?: TIssueStatus }) => {
    if ('machineId' in filters) setMachine(filters.machineId);
    else if (filters.tags) setParam('tags', joinTags(filters.tags));
    else if (filters.status) setParam('status', filters.status === DEFAULT_ISSUE_STATUS ? undefined : filters.status);
  };

  return { machineId, tags, status, page, setFilters, setPage };
}
