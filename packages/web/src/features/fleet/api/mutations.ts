/**
 * `PUT /fleet/freeze` (issue 25 point 5): 'Fleet frozen' / 'Fleet released', or
 * 'Error occurred freezing the fleet' with the server's detail. The answer goes
 * straight into the freeze's cache; rollouts and operations go stale (what
 * waits changed).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFleetFreeze, TFleetFreezeRequest } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { showProblem } from '../../updater/api/mutations';
import { rolloutKeys } from '../../updater/api/keys';
import { operationKeys } from '../../operations/api/keys';
import { fleetKeys } from './keys';

export function useSetFleetFreeze() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: TFleetFreezeRequest) => api.put<TFleetFreeze>('fleet/freeze', body),
    onSuccess: (freeze) => {
      queryClient.setQueryData(fleetKeys.freeze(), freeze);
      toast.success(freeze.frozen ? 'Fleet frozen' : 'Fleet released');
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.all });
      void queryClient.invalidateQueries({ queryKey: operationKeys.all });
    },
    onError: (error, body) => showProblem(toast, body.frozen ? 'Error occurred freezing the fleet' : 'Error occurred releasing the fleet', error),
  });
}
