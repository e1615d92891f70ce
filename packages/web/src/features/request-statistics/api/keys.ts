/** Query keys of request statistics (spec 2 §2.10, §7 Operations and statistics). */
import type { TRequestStatisticsSort, TRequestStatisticStatus, TSortOrder } from '@fleet/contracts';

/** One page of the Request Statistics viewer (`GET /request-statistics`): its filters and order (issue 24 point 7). */
export interface RequestStatisticsPageQuery {
  machineId?: number;
  classId?: number;
  status?: TRequestStatisticStatus;
  from?: string;
  to?: string;
  sort?: TRequestStatisticsSort;
  order?: TSortOrder;
  startIndex: number;
  limit: number;
}

export const requestStatisticsKeys = {
  all: ['request-statistics'] as const,
  pages: () => [...requestStatisticsKeys.all, 'page'] as const,
  page: (query: RequestStatisticsPageQuery) => [...requestStatisticsKeys.pages(), query] as const,
};
