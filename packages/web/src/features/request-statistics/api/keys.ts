/** Query keys of request statistics (spec 2 §2.10, §7 Operations and statistics). */
/** One page of the Request Statistics viewer (`GET /request-statistics`). */
export interface RequestStatisticsPageQuery {
  machineId?: number;
  startIndex: number;
  limit: number;
}

export const requestStatisticsKeys = {
  all: ['request-statistics'] as const,
  pages: () => [...requestStatisticsKeys.all, 'page'] as const,
  page: (query: RequestStatisticsPageQuery) => [...requestStatisticsKeys.pages(), query] as const,
};
