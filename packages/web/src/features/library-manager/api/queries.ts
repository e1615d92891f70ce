/**
 * Reads of the Library Manager (spec 3 §2.6, §7 Library):
 *
 * - the table: `GET /library/files` (every file, newest first; the library holds
 *   tens to hundreds of files, at most 1000 shown);
 * - the Sync dialog: `GET /library/cloud-files`, the cloud files not yet known.
 */
import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_LIMIT, type TCloudLibraryFile, type TListLibraryFilesResponse } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { libraryKeys, libraryManagerKeys } from './keys';

const TABLE_QUERY = { limit: MAX_PAGE_LIMIT, sortBy: 'date', sortDirection: 'Descending' } as const;

export function useLibraryTable() {
  return useQuery({
    queryKey: libraryKeys.files(TABLE_QUERY),
    queryFn: ({ signal }) => api.get<TListLibraryFilesResponse>('library/files', { signal, searchParams: TABLE_QUERY }),
  });
}

/** Fetched while the Sync dialog is open; refetched each time it opens. */
export function useCloudLibraryFiles(enabled: boolean) {
  return useQuery({
    queryKey: libraryManagerKeys.cloudFiles(),
    queryFn: ({ signal }) => api.get<TCloudLibraryFile[]>('library/cloud-files', { signal }),
    enabled,
    staleTime: 0,
  });
}
