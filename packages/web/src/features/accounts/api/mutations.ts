/**
 * Changes made from the accounts list (spec 1 §2, §7, §8), one hook per call.
 * Each shows the specification's toast and invalidates what it changed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorText } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { accountKeys } from './keys';

/**
 * `DELETE /accounts/{id}`: deletes the account and terminates its machines.
 * Success toast 'Account deleted' (2 s); error toast with the server's detail (5 s).
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id }: { id: number; name: string }) => api.delete<{ terminatedMachines: number }>(`accounts/${id}`),
    onSuccess: () => toast.success('Account deleted'),
    onError: (error) => toast.error(errorText(error, 'Error occurred deleting account')),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: accountKeys.infos() }),
        queryClient.invalidateQueries({ queryKey: accountKeys.lookup() }),
      ]),
  });
}
