/**
 * Changes of templates (spec 1 §7 Templates, §8 toasts), one hook per call.
 * Each reloads the kind's list when it settles.
 *
 * - save (create or update): the kind's toast, e.g. 'License template saved' /
 *   'Error occurred saving license settings template';
 * - delete: 'Template deleted' / 'Error occurred deleting template'.
 *
 * Only a template's owner may change or delete it (seeded templates without an
 * owner are anyone's with write permission); the server answers 403 otherwise,
 * which shows the error toast.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSaveTemplateRequest, TTemplate, TTemplateType } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { KIND_SAVE_TOASTS } from '../template-values';
import { templateKeys } from './keys';

/** `POST /template/{type}`: name, isPublic and the flattened settings of the kind. */
export function useCreateTemplate(kind: TTemplateType) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: TSaveTemplateRequest) => api.post<TTemplate>(`template/${kind}`, body),
    onSuccess: () => toast.success(KIND_SAVE_TOASTS[kind].success),
    onError: () => toast.error(KIND_SAVE_TOASTS[kind].error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.list(kind) }),
  });
}

/** `PUT /template/{type}/{id}`: replaces the template's name, isPublic and settings. */
export function useUpdateTemplate(kind: TTemplateType) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TSaveTemplateRequest }) => api.put<TTemplate>(`template/${kind}/${id}`, body),
    onSuccess: () => toast.success(KIND_SAVE_TOASTS[kind].success),
    onError: () => toast.error(KIND_SAVE_TOASTS[kind].error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.list(kind) }),
  });
}

/** `DELETE /template/{type}/{id}`. */
export function useDeleteTemplate(kind: TTemplateType) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`template/${kind}/${id}`),
    onSuccess: () => toast.success('Template deleted'),
    onError: () => toast.error('Error occurred deleting template'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.list(kind) }),
  });
}
