/**
 * The Issue viewer's state kept in the URL query string (spec 2 §2.1, §2.5;
 * DESIGN §10): `machine` (the selected machine id), `tags` (the tag filter,
 * comma-joined) and `page` (1-based). A new machine or tag filter goes back to
 * page 1; another machine also clears the viewers' cached lists (spec 2 §4).
 */
import { useMemo } from 'react';
import { readList } from '../../lib/url-params';
import { useViewerParams } from '../viewer/use-viewer-params';
import { addTag, joinTags } from './issue-rules';

/** The `tags` parameter under the filter's rules (trimmed, no blanks, no duplicates). */
function readTags(params: URLSearchParams): string[] {
  return readList(params, 'tags', (t) => t).reduce<string[]>((tags, t) => addTag(tags, t), []);
}

/** The viewers' `machine` and `page` (features/viewer) plus the Issue viewer's `tags`. */
export function useIssuesParams() {
  const { machineId, page, params, setMachine, setParam, setPage } = useViewerParams();
  const tags = useMemo(() => readTags(params), [params]);

  /** Sets the filter given (the other stays) and goes back to page 1. */
  const setFilters = (filters: { machineId?: number | undefined; tags?: string[] }) => {
    if ('machineId' in filters) setMachine(filters.machineId);
    else if (filters.tags) setParam('tags', joinTags(filters.tags));
  };

  return { machineId, tags, page, setFilters, setPage };
}
