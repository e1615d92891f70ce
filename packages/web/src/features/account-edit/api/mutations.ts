/**
 * Changes made on the edit-account screen (spec 1 §2 Edit account, §7, §8), one
 * hook per call. Deleting the account is the accounts list's `useDeleteAccount`
 * (same confirmation and toasts).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSite, TUpdateSiteRequest } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { accountEditKeys } from './keys';

/**
 * `PUT /accounts/{id}/sites/{siteId}`: success toast 'Site updated', error toast
 * 'Error occurred updating site' (spec 1 §8). The caller shows the server's
 * field errors on the form. Reloads the sites and the account.
 */
export function useUpdateSite(accountId: number) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ siteId, body }: { siteId: number; body: TUpdateSiteRequest }) =>
      api.put<TSite>(`accounts/${accountId}/sites/${siteId}`, body),
    onSuccess: () => toast.success('Site updated'),
    onError: () => toast.error('Error occurred updating site'),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountEditKeys.sites(accountId) }),
        queryClient.invalidateQueries({ queryKey: accountEditKeys.detail(accountId) }),
      ]),
  });
}
