/**
 * Changes of the image catalogues (spec 3 §2.2–§2.4, §7; toasts of §8), one hook
 * per call. Each shows the specification's toast (success 2 s, error 5 s; an
 * error toast also lists the server's reason, e.g. who still uses a record) and
 * invalidates the catalogue's keys, which the pickers of other screens share.
 *
 * Deleting an IRMN version and a cloud image has no toast in the specification:
 * they read as the image toasts do ('IRMN version deleted', 'Image deleted').
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TIrmnVersion, TSaasImage, TSaveIrmnVersionRequest, TSaveSaasImageRequest } from '@fleet/contracts';
import { ApiError, api } from '../../../app/api-client';
import { useToast, type Toast } from '../../../app/toast';
import { imageKeys } from './keys';

export const IRMN_SAVED = 'IRMN version saved';
export const IRMN_SAVE_ERROR = 'Error occurred saving IRMN version';
export const IRMN_DELETED = 'IRMN version deleted';
export const IRMN_DELETE_ERROR = 'Error occurred deleting IRMN version';
export const IMAGE_SAVED = 'Image saved';
export const IMAGE_SAVE_ERROR = 'Error occurred saving image';
export const IMAGE_DELETED = 'Image deleted';
export const IMAGE_DELETE_ERROR = 'Error occurred deleting image';

/** The error toast: the specification's text, with the server's reason (409 in use, 400 field errors) listed under it. */
function showError(toast: Toast, text: string, error: unknown) {
  if (!(error instanceof ApiError)) return toast.error(text);
  const lines = error.errors.length > 0 ? error.errors.map((e) => e.errorMessage) : error.detail ? [error.detail] : [];
  if (lines.length > 0) toast.errorList(text, lines);
  else toast.error(text);
}

/** A mutation with the catalogue's toasts, invalidating `keys` when it settles. */
function useCatalogueMutation<V, R>(opts: { call: (vars: V) => Promise<R>; success: string; error: string; keys: QueryKey[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: opts.call,
    onSuccess: () => toast.success(opts.success),
    onError: (error) => showError(toast, opts.error, error),
    onSettled: () => Promise.all(opts.keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** `POST /irmn-versions` without an id, else `PUT /irmn-versions/{id}`. Saved images show version names, so their lists reload too. */
export function useSaveIrmnVersion() {
  return useCatalogueMutation({
    call: ({ id, body }: { id?: number; body: TSaveIrmnVersionRequest }) =>
      id === undefined ? api.post<TIrmnVersion>('irmn-versions', body) : api.put<TIrmnVersion>(`irmn-versions/${id}`, body),
    success: IRMN_SAVED,
    error: IRMN_SAVE_ERROR,
    keys: [imageKeys.irmnVersions(), imageKeys.saasImages()],
  });
}

/** `DELETE /irmn-versions/{id}` (409 while an image or a config uses it). */
export function useDeleteIrmnVersion() {
  return useCatalogueMutation({
    call: (id: number) => api.delete<{ ok: true }>(`irmn-versions/${id}`),
    success: IRMN_DELETED,
    error: IRMN_DELETE_ERROR,
    keys: [imageKeys.irmnVersions()],
  });
}

/** `POST /cloud/images` without an id (create and duplicate), else `PUT /cloud/images/{id}`. */
export function useSaveSaasImage() {
  return useCatalogueMutation({
    call: ({ id, body }: { id?: number; body: TSaveSaasImageRequest }) =>
      id === undefined ? api.post<TSaasImage>('cloud/images', body) : api.put<TSaasImage>(`cloud/images/${id}`, body),
    success: IMAGE_SAVED,
    error: IMAGE_SAVE_ERROR,
    keys: [imageKeys.saasImages()],
  });
}

/** `DELETE /cloud/images/{id}` (409 while accounts or MMA classes use it). */
export function useDeleteSaasImage() {
  return useCatalogueMutation({
    call: (id: number) => api.delete<{ ok: true }>(`cloud/images/${id}`),
    success: IMAGE_DELETED,
    error: IMAGE_DELETE_ERROR,
    keys: [imageKeys.saasImages()],
  });
}

/** `DELETE /cloud/caa-images?name=&region=&id=` (409 while a SaaS image points at it). */
export function useDeleteCloudImage() {
  return useCatalogueMutation({
    call: (image: { id: string; name: string; region: string }) => api.delete<{ ok: true }>('cloud/caa-images', { searchParams: image }),
    success: IMAGE_DELETED,
    error: IMAGE_DELETE_ERROR,
    keys: [imageKeys.cloudImages()],
  });
}
