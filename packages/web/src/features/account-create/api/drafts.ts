/**
 * Calls of the create-account flow (spec 1 §2 Create account, §4 draft → preview
 * → created, §7): `POST /accounts` saves a new draft, `POST /draft-accounts`
 * replaces the payload of one (after Back), `GET /draft-accounts/{id}` answers
 * its planned sites and machines, `POST /accounts/create-from-draft` creates the
 * account. Failures are shown by the page (field errors and a toast).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCreateAccountRequest,
  TCreateFromDraftRequest,
  TCreateFromDraftResponse,
  TDraftAccount,
  TDraftAccountIdResponse,
} from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { accountKeys } from '../../accounts/api/keys';

const draftKey = (id: number) => [...accountKeys.all, 'draft', id] as const;

/** Saves the payload as a draft: a new one, or the given draft's payload replaced. Answers the draft id. */
export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ draftId, payload }: { draftId?: number; payload: TCreateAccountRequest }) =>
      draftId === undefined
        ? api.post<TDraftAccountIdResponse>('accounts', payload)
        : api.post<TDraftAccountIdResponse>('draft-accounts', { ...payload, id: draftId }),
    onSuccess: ({ draftAccountId }) => queryClient.invalidateQueries({ queryKey: draftKey(draftAccountId) }),
  });
}

/** `GET /draft-accounts/{id}`: the draft with its planned sites and machines. */
export function useDraft(draftId: number | undefined) {
  return useQuery({
    queryKey: draftKey(draftId ?? 0),
    queryFn: ({ signal }) => api.get<TDraftAccount>(`draft-accounts/${draftId}`, { signal }),
    enabled: draftId !== undefined,
    staleTime: Infinity,
  });
}

/** `POST /accounts/create-from-draft`: the account, its sites and machines; a CreateMachine task per machine. */
export function useCreateFromDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateFromDraftRequest) => api.post<TCreateFromDraftResponse>('accounts/create-from-draft', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}
