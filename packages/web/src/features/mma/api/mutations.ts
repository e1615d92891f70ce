/**
 * `PUT /mma/classes/{id}` (spec 3 §2.7, §7 MMA, §8): 'MMA class updated' /
 * 'Error occurred updating MMA class'. The answer is merged into the cached
 * classes list (the spec's "response merged into the list"), and the top bar's
 * standby count is refetched at once, so its banner follows a standby switch.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TMmaClass, TUpdateMmaClassRequest } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { fleetKeys } from '../../fleet/api/keys';
import { mmaKeys } from './keys';

export function useUpdateMmaClass() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TUpdateMmaClassRequest }) => api.put<TMmaClass>(`mma/classes/${id}`, body),
    onSuccess: (updated) => {
      queryClient.setQueryData<TMmaClass[]>(mmaKeys.classes(), (list) => list?.map((c) => (c.id === updated.id ? updated : c)));
      toast.success('MMA class updated');
    },
    onError: () => toast.error('Error occurred updating MMA class'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: fleetKeys.mmaStats() }),
  });
}
