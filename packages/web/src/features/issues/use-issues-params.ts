/**
 * The Issue viewer's state kept in the URL query string (spec 2 §2.1, §2.5;
 * DESIGN §10): `machine` (the selected machine id), `tags` (the tag filter,
 * comma-joined) and `page` (1-based). A new machine or tag filter goes back to
 * page 1.
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readList, readPage, writeParam } from '../../lib/url-params';
import { readMachineParam } from '../operations/use-operations-params';
import { addTag, joinTags } from './issue-rules';

export interface IssuesViewerParams {
  machineId: number | undefined;
  tags: string[];
  page: number;
}

/** The `tags` parameter under the filter's rules (trimmed, no blanks, no duplicates). */
function readTags(params: URLSearchParams): string[] {
  return readList(params, 'tags', (t) => t).reduce<string[]>((tags, t) => addTag(tags, t), []);
}

export function useIssuesParams() {
  const [params, setParams] = useSearchParams();
  const state = useMemo<IssuesViewerParams>(
    () => ({ machineId: readMachineParam(params), tags: readTags(params), page: readPage(params) }),
    [params],
  );

  /** Sets the filters given (the others stay) and goes back to page 1. */
  const setFilters = (filters: { machineId?: number | undefined; tags?: string[] }) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if ('machineId' in filters) writeParam(next, 'machine', filters.machineId?.toString());
      if (filters.tags) writeParam(next, 'tags', joinTags(filters.tags));
      next.delete('page');
      return next;
    });

  const setPage = (page: number) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      writeParam(next, 'page', page > 1 ? String(page) : undefined);
      return next;
    });

  return { ...state, setFilters, setPage };
}
