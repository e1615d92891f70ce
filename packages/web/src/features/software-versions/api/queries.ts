/**
 * Reads of the version picker, the Select Version modal and the Select Library
 * File dialog (spec 3 §2.1, §7 Software and Library; spec 1 §2 Instance
 * Settings card):
 *
 * - `GET /software/branches` → `TBranch[]`
 * - `GET /software/{software}/commits?branch&search&tagsOnly&buildsOnly&startIndex&limit`
 *   → `{items, totalItems, page, limit}` (10 per page)
 * - `GET /software/{software}/builds?type=Daily|Release` → `TBuild[]`
 * - `GET /library/files?…` → `{items, totalItems}`; `GET /library/packages` → `string[]`
 *
 * The library dialog's IRMN versions are the catalogue's `useIrmnVersions`; the
 * Compare Versions templates are `useTemplates('instance-settings')`.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  TBranch,
  TBuild,
  TConfigComponent,
  TLibraryFile,
  TListCommitsQuery,
  TListCommitsResponse,
  TListLibraryFilesQuery,
  TListLibraryFilesResponse,
} from '@fleet/contracts';
import { api, type QueryParams } from '../../../app/api-client';
import { libraryKeys, softwareKeys } from './keys';

/** Catalogues change rarely; a minute keeps the options fresh enough. */
const LOOKUP_STALE_MS = 60_000;

export function useBranches() {
  return useQuery({
    queryKey: softwareKeys.branches(),
    queryFn: ({ signal }) => api.get<TBranch[]>('software/branches', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

/** One page of commits of `software`; the previous page stays shown while the next loads. */
export function useCommits(software: TConfigComponent, query: TListCommitsQuery, enabled = true) {
  return useQuery({
    queryKey: softwareKeys.commits(software, query),
    queryFn: ({ signal }) =>
      api.get<TListCommitsResponse>(`software/${software}/commits`, { signal, searchParams: query as QueryParams }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useBuilds(software: TConfigComponent, type: TBuild['type'], enabled = true) {
  return useQuery({
    queryKey: softwareKeys.builds(software, type),
    queryFn: ({ signal }) => api.get<TBuild[]>(`software/${software}/builds`, { signal, searchParams: { type } }),
    enabled,
  });
}

/** A page of library files; `ids` (an array here) is sent as a comma list. */
export function useLibraryFiles(query: Omit<TListLibraryFilesQuery, 'ids'> & { ids?: number[] }, enabled = true) {
  const { ids, ...rest } = query;
  const params: TListLibraryFilesQuery = { ...rest, ids: ids?.join(',') };
  return useQuery({
    queryKey: libraryKeys.files(params),
    queryFn: ({ signal }) => api.get<TListLibraryFilesResponse>('library/files', { signal, searchParams: params as QueryParams }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The library files with these ids (at most 200), e.g. an account's current files; none asked, none fetched. */
export function useLibraryFilesByIds(ids: readonly number[]) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const result = useLibraryFiles({ ids: sorted, limit: 200 }, sorted.length > 0);
  const files: TLibraryFile[] = sorted.length > 0 ? (result.data?.items ?? []) : [];
  return { ...result, files };
}

export function useLibraryPackages() {
  return useQuery({
    queryKey: libraryKeys.packages(),
    queryFn: ({ signal }) => api.get<string[]>('library/packages', { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}
