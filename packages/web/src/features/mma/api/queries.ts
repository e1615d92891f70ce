/** `GET /mma/classes` (spec 3 §2.7, §7 MMA): the classes with their MMA instance. */
import { useQuery } from '@tanstack/react-query';
import type { TMmaClass } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { mmaKeys } from './keys';

export function useMmaClasses() {
  return useQuery({
    queryKey: mmaKeys.classes(),
    queryFn: ({ signal }) => api.get<TMmaClass[]>('mma/classes', { signal }),
  });
}
