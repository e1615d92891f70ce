/**
 * The registered MMAs of the MMA screen (issue 27 point 1; DESIGN §17):
 * `GET /mma/agents` (refetched every 10 s, so that a connection shows up),
 * `POST /mma/classes/{id}/registration-tokens` (the token is in the answer
 * only: the dialog shows it once) and `POST /mma/agents/{id}/revoke`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TMmaAgent, TMmaAgentsResponse, TMmaRegistrationToken } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { mmaKeys } from './keys';

/** How often the agents list is read again, ms. */
export const AGENTS_REFETCH_MS = 10_000;

export function useMmaAgents() {
  return useQuery({
    queryKey: mmaKeys.agents(),
    queryFn: ({ signal }) => api.get<TMmaAgentsResponse>('mma/agents', { signal }),
    select: (r) => r.items,
    refetchInterval: AGENTS_REFETCH_MS,
  });
}

export function useCreateRegistrationToken() {
  const toast = useToast();
  return useMutation({
    mutationFn: (classId: number) => api.post<TMmaRegistrationToken>(`mma/classes/${classId}/registration-tokens`),
    onError: () => toast.error('Error occurred creating the registration token'),
  });
}

export function useRevokeMmaAgent() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (id: number) => api.post<TMmaAgent>(`mma/agents/${id}/revoke`),
    onSuccess: (revoked) => {
      queryClient.setQueryData<TMmaAgentsResponse>(mmaKeys.agents(), (r) => r && { items: r.items.map((a) => (a.id === revoked.id ? revoked : a)) });
      toast.success(`The credential of ${revoked.host} was revoked`);
    },
    onError: () => toast.error('Error occurred revoking the credential'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mmaKeys.agents() }),
  });
}
