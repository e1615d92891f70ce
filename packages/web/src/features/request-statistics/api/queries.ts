/**
 * Reads of request statistics (spec 2 §2.10, §7), one hook per call:
 *
 * - `GET /request-statistics?machineId&classId&status&from&to&sort&order&startIndex&limit` → `{items, totalItems, totalCapped}` (viewer, paged, filtered and sorted on the server)
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TRequestStatisticsPage } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { requestStatisticsKeys, type RequestStatisticsPageQuery } from './keys';

/** One page of the Request Statistics viewer; the previous page stays shown while the next loads. */
export function useRequestStatisticsPage(query: RequestStatisticsPageQuery) {
  return useQuery({
    queryKey: requestStatisticsKeys.page(query),
    queryFn: ({ signal }) => api.get<TRequestStatisticsPage>('request-statistics', { searchParams: { ...query }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
