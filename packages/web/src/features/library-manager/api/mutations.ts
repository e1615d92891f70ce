/**
 * Changes of the Library Manager (spec 3 §2.6, §7 Library, §8 toasts):
 *
 * - sync (`POST /library/files/sync`): 'Library file(s) synced' /
 *   'Error occurred syncing library file(s)' (the spec has no sync call, so
 *   no toast text: these follow its wording);
 * - delete (`DELETE /library/files/batch?ids=`): 'Library file(s) deleted' /
 *   'Error occurred deleting library file(s)'.
 *
 * Both refresh every library list (this table, the library file dialog, the
 * packages) and the cloud files.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TDeleteLibraryFilesResponse, TLibraryFile } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { libraryKeys } from './keys';

export function useSyncLibraryFiles() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (urls: string[]) => api.post<TLibraryFile[]>('library/files/sync', { urls }),
    onSuccess: () => toast.success('Library file(s) synced'),
    onError: () => toast.error('Error occurred syncing library file(s)'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
  });
}

export function useDeleteLibraryFiles() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (ids: number[]) => api.delete<TDeleteLibraryFilesResponse>('library/files/batch', { searchParams: { ids: ids.join(',') } }),
    onSuccess: () => toast.success('Library file(s) deleted'),
    onError: () => toast.error('Error occurred deleting library file(s)'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
  });
}
