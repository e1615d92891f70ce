/**
 * Query parameters of `GET /accounts` and `GET /accounts/info` (DESIGN §5):
 * search, classIds, saasImage, machineStatusInclude, machineStatusExclude (comma
 * lists), sortBy, sortDirection, startIndex, limit. Parameter names are checked
 * against the contract's `TListAccountsQuery`.
 */
import type { TAccountSortField, TListAccountsQuery, TMachineStatus, TSortDirection } from '@fleet/contracts';
import type { QueryParams } from '../../../app/api-client';

/** Filters shared by the list and its footer statistics. */
export interface AccountFilter {
  search?: string;
  /** Empty or absent: no class filter (the server still hides classes the user may not see). */
  classIds?: number[];
  saasImage?: string;
  machineStatusInclude?: TMachineStatus[];
  machineStatusExclude?: TMachineStatus[];
}

export interface AccountListQuery extends AccountFilter {
  /** Absent: relevance order when searching, else name (server default). */
  sortBy?: TAccountSortField;
  sortDirection: TSortDirection;
  startIndex: number;
  limit: number;
}

type ListParams = { [K in keyof Required<TListAccountsQuery>]?: string | number };

const commaList = (values: readonly (string | number)[] | undefined) =>
  values && values.length > 0 ? values.join(',') : undefined;

export function filterParams(filter: AccountFilter): QueryParams {
  const params: ListParams = {
    search: filter.search?.trim() || undefined,
    classIds: commaList(filter.classIds),
    saasImage: filter.saasImage,
    machineStatusInclude: commaList(filter.machineStatusInclude),
    machineStatusExclude: commaList(filter.machineStatusExclude),
  };
  return params;
}

export function listParams(query: AccountListQuery): QueryParams {
  const params: ListParams = {
    ...filterParams(query),
    sortBy: query.sortBy,
    sortDirection: query.sortDirection,
    startIndex: query.startIndex,
    limit: query.limit,
  };
  return params;
}
