/**
 * The approvals inbox's call (issue 24 point 2): `POST /operations/decisions`
 * `{decision, operationIds}` → `{decided, refused}`. Each decided operation
 * goes into the cache (`applyOperation`), then the inbox's pages and the
 * count are read again; a toast says how many were decided, an error toast
 * lists the refused ones with their reasons.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TOperationDecision, TOperationDecisionsResponse } from '@fleet/contracts';
import { api, errorText } from '../../app/api-client';
import { useToast } from '../../app/toast';
import { applyOperation } from '../machines/api/operation-cache';
import { operationKeys } from '../operations/api/keys';

const DONE: Record<TOperationDecision, string> = { PROCEED: 'proceeded', CANCEL: 'cancelled' };

export function useDecideOperations() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: { decision: TOperationDecision; operationIds: number[] }) => api.post<TOperationDecisionsResponse>('operations/decisions', body),
    onSuccess: ({ decided, refused }, { decision }) => {
      for (const op of decided) applyOperation(queryClient, op);
      if (decided.length > 0) toast.success(`${decided.length} operation${decided.length === 1 ? '' : 's'} ${DONE[decision]}`);
      if (refused.length > 0) toast.errorList(`${refused.length} not ${DONE[decision]}`, refused.map((r) => r.message));
      void queryClient.invalidateQueries({ queryKey: operationKeys.pendingCount() });
      return queryClient.invalidateQueries({ queryKey: operationKeys.pages() });
    },
    onError: (error) => toast.error(errorText(error, 'Error occurred deciding the operations')),
  });
}
