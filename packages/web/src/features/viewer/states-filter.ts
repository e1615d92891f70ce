/**
 * The States viewer's state kept in the URL query string (spec 2 §2.8; issue
 * 24 point 7), beside the viewers' `machine`, `page` and `size`: `state`
 * (`current`, the default when absent, `historical` or `desired`), `class` (a
 * class id), `component` (a component name) and `branch` (its version's
 * branch), `from`/`to` (the state's time, ISO 8601) and the time order `sort`
 * (`timestamp`) with `order`. Unknown values are ignored; a time range and an
 * order are read for stored states only (a desired state has no stored time).
 */
import { VERSION_STATE_COMPONENTS, VERSION_STATE_KINDS, VERSION_STATE_SORTS, type TSortOrder, type TVersionStateKind } from '@fleet/contracts';
import { oneOf } from '../../lib/url-params';
import type { StatesPageQuery } from './api/keys';
import { readClassParam, readSort, readTimeParam } from './use-viewer-params';

/** The URL's `state` parameter: lower-case kind names. */
export const STATE_PARAM = 'state';

/** The viewer's kind, filters and order as the URL holds them. */
export interface StatesFilter {
  state: TVersionStateKind;
  classId?: number;
  component?: (typeof VERSION_STATE_COMPONENTS)[number];
  /** Only with a component. */
  branch?: string;
  /** Stored states only. */
  from?: string;
  to?: string;
  sort?: { sort: 'timestamp'; order: TSortOrder };
}

const readKind = (raw: string | null): TVersionStateKind =>
  VERSION_STATE_KINDS.find((k) => k.toLowerCase() === raw) ?? oneOf(VERSION_STATE_KINDS)(raw) ?? 'Current';
const asComponent = oneOf(VERSION_STATE_COMPONENTS);

/** The kind, filters and order of a query string (unknown values left out). */
export function readStatesFilter(params: URLSearchParams): StatesFilter {
  const state = readKind(params.get(STATE_PARAM));
  const component = asComponent(params.get('component'));
  const branch = params.get('branch')?.trim();
  const stored = state !== 'Desired';
  return {
    state,
    classId: readClassParam(params),
    component,
    branch: component && branch && branch.length <= 200 ? branch : undefined,
    from: stored ? readTimeParam(params, 'from') : undefined,
    to: stored ? readTimeParam(params, 'to') : undefined,
    sort: stored ? readSort(params, VERSION_STATE_SORTS) : undefined,
  };
}

/** The `GET /version-states` query of a page of the viewer. */
export function statesPageQuery(o: { machineId?: number; page: number; pageSize: number; filter: StatesFilter }): StatesPageQuery {
  const { filter } = o;
  return {
    state: filter.state,
    machineId: o.machineId,
    startIndex: (o.page - 1) * o.pageSize,
    limit: o.pageSize,
    classId: filter.classId,
    component: filter.component,
    branch: filter.branch,
    from: filter.from,
    to: filter.to,
    sort: filter.sort?.sort,
    order: filter.sort?.order,
  };
}
