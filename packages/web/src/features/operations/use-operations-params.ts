/**
 * The Operations viewer's state kept in the URL query string (spec 2 §2.1,
 * §2.6; DESIGN §10; issue 24 point 7): `machine` (the selected machine id; a
 * new tab opened from a machine carries it), `page` and `size`, the filters
 * `status` (comma list of OPERATION_FILTER_STATUSES), `type`, `class` (a class
 * id) and `from`/`to` (the queue time, ISO 8601), and the order `sort`
 * (OPERATION_SORTS) with `order`. Unknown values are ignored. Choosing another
 * machine goes back to page 1 and clears the viewers' cached lists; the shared
 * parameters are the viewers' (`features/viewer/use-viewer-params.ts`).
 */
import { useMemo } from 'react';
import {
  OPERATION_FILTER_STATUSES,
  OPERATION_SORTS,
  OPERATION_TYPE_NAMES,
  type TOperationFilterStatus,
  type TOperationSort,
  type TOperationTypeName,
  type TSortOrder,
} from '@fleet/contracts';
import { oneOf, readList } from '../../lib/url-params';
import { readClassParam, readSort, readTimeParam, useViewerParams } from '../viewer/use-viewer-params';
import type { OperationsPageQuery } from './api/keys';

export { readMachineParam } from '../viewer/use-viewer-params';

/** The viewer's filters and order as the URL holds them. */
export interface OperationsFilter {
  status: TOperationFilterStatus[];
  type?: TOperationTypeName;
  classId?: number;
  from?: string;
  to?: string;
  sort?: { sort: TOperationSort; order: TSortOrder };
}

const asStatus = oneOf(OPERATION_FILTER_STATUSES);
const asType = oneOf(OPERATION_TYPE_NAMES);

/** The filters and order of a query string (unknown values left out). */
export function readOperationsFilter(params: URLSearchParams): OperationsFilter {
  return {
    status: readList(params, 'status', asStatus),
    type: asType(params.get('type')),
    classId: readClassParam(params),
    from: readTimeParam(params, 'from'),
    to: readTimeParam(params, 'to'),
    sort: readSort(params, OPERATION_SORTS),
  };
}

/** The `GET /operations` query of a page of the viewer. */
export function operationsPageQuery(o: { machineId?: number; page: number; pageSize: number; filter: OperationsFilter }): OperationsPageQuery {
  const { filter } = o;
  return {
    machineId: o.machineId,
    startIndex: (o.page - 1) * o.pageSize,
    limit: o.pageSize,
    ...(filter.status.length > 0 ? { status: filter.status.join(',') } : {}),
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.classId !== undefined ? { classId: filter.classId } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
    ...(filter.sort ? { sort: filter.sort.sort, order: filter.sort.order } : {}),
  };
}

export function useOperationsParams() {
  const viewer = useViewerParams();
  const filter = useMemo(() => readOperationsFilter(viewer.params), [viewer.params]);
  return { ...viewer, filter };
}
