/**
 * Calls of the Account Properties card besides its push (spec 1 §2, §7, §8):
 * `POST /accounts/{id}/send-creation-mail` with the toasts 'Creation email sent'
 * and 'Error occurred sending creation email'. The push itself is the shared
 * `usePushSection` (path '').
 */
import { useMutation } from '@tanstack/react-query';
import type { TSendCreationMailResponse } from '@fleet/contracts';
import { api } from '../../../../app/api-client';
import { useToast } from '../../../../app/toast';

const CREATION_MAIL_SENT = 'Creation email sent';
const CREATION_MAIL_ERROR = 'Error occurred sending creation email';

/** Send Creation Email of the account, with the toasts of spec 1 §8. */
export function useSendCreationMail(accountId: number) {
  const toast = useToast();
  return useMutation({
    mutationFn: () => api.post<TSendCreationMailResponse>(`accounts/${accountId}/send-creation-mail`),
    onSuccess: () => toast.success(CREATION_MAIL_SENT),
    onError: () => toast.error(CREATION_MAIL_ERROR),
  });
}
