/**
 * The Issue viewer's state kept in the URL query string (spec 2 §2.1, §2.5;
 * DESIGN §10): `machine` (the selected machine id), `tags` (the tag filter,
 * comma-joined) and `page` (1-based). A new machine or tag filter goes back to
 * page 1; another machine also clears the viewers' cached lists (spec 2 §4).
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { readList, readPage, writeParam } from '../../lib/url-params';
import { readMachineParam } from '../viewer/use-viewer-params';
import { VIEWER_LIST_KEYS } from '../viewer/api/keys';
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
  const queryClient = useQueryClient();
  const state = useMemo<IssuesViewerParams>(
    () => ({ machineId: readMachineParam(params), tags: readTags(params), page: readPage(params) }),
    [params],
  );

  /** Sets the filters given (the others stay) and goes back to page 1. */
  const setFilters = (filters: { machineId?: number | undefined; tags?: string[] }) => {
    if ('machineId' in filters && filters.machineId !== state.machineId) {
      for (const queryKey of VIEWER_LIST_KEYS) queryClient.removeQueries({ queryKey });
    }
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if ('machineId' in filters) writeParam(next, 'machine', filters.machineId?.toString());
      if (filters.tags) writeParam(next, 'tags', joinTags(filters.tags));
      next.delete('page');
      return next;
    });
  };

  const setPage = (page: number) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      writeParam(next, 'page', page > 1 ? String(page) : undefined);
      return next;
    });

  return { ...state, setFilters, setPage };
}
