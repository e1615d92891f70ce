/**
 * The Request Statistics viewer's state kept in the URL query string (spec 2
 * §2.10; issue 24 point 7), beside the viewers' `machine`, `page` and `size`:
 * `class` (a class id), `status` (`success` or `failure` of the last probe),
 * `from`/`to` (the last probe's time, ISO 8601) and the order `sort`
 * (`machine` or `lastUpdate`) with `order`. Unknown values are ignored.
 */
import {
  REQUEST_STATISTIC_STATUSES,
  REQUEST_STATISTICS_SORTS,
  type TRequestStatisticsSort,
  type TRequestStatisticStatus,
  type TSortOrder,
} from '@fleet/contracts';
import { oneOf } from '../../lib/url-params';
import { readClassParam, readSort, readTimeParam } from '../viewer/use-viewer-params';
import type { RequestStatisticsPageQuery } from './api/keys';

/** The viewer's filters and order as the URL holds them. */
export interface RequestStatisticsFilter {
  classId?: number;
  status?: TRequestStatisticStatus;
  from?: string;
  to?: string;
  sort?: { sort: TRequestStatisticsSort; order: TSortOrder };
}

const asStatus = oneOf(REQUEST_STATISTIC_STATUSES);

/** The filters and order of a query string (unknown values left out). */
export function readRequestStatisticsFilter(params: URLSearchParams): RequestStatisticsFilter {
  return {
    classId: readClassParam(params),
    status: asStatus(params.get('status')),
    from: readTimeParam(params, 'from'),
    to: readTimeParam(params, 'to'),
    sort: readSort(params, REQUEST_STATISTICS_SORTS),
  };
}

/** The `GET /request-statistics` query of a page of the viewer. */
export function requestStatisticsPageQuery(o: { machineId?: number; page: number; pageSize: number; filter: RequestStatisticsFilter }): RequestStatisticsPageQuery {
  const { filter } = o;
  return {
    machineId: o.machineId,
    startIndex: (o.page - 1) * o.pageSize,
    limit: o.pageSize,
    classId: filter.classId,
    status: filter.status,
    from: filter.from,
    to: filter.to,
    sort: filter.sort?.sort,
    order: filter.sort?.order,
  };
}
