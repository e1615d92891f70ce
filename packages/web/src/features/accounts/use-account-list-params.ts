/**
 * State of the accounts list kept in the URL query string (spec 1 §2 Accounts
 * list; DESIGN §10): a reload or a shared link shows the same filters, sort and
 * page. Parameters: search, classIds, saasImage, machineStatusInclude,
 * machineStatusExclude, sortBy, sortDirection, page.
 *
 * - `classIds` absent means the default classes (all but On Premise and Add-on
 *   Account; Customer Production too for users outside the group, whose list
 *   shows those accounts as restricted rows, spec 1 §2); present and empty
 *   means no class filter.
 * - Sort: an explicit `sortBy` wins; otherwise a search is ranked by relevance
 *   (no sortBy sent) and the plain list is sorted by name ascending.
 * - Changing a filter or the sort returns to page 1.
 */
import { useMemo } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import {
  ACCOUNT_CLASSES,
  ACCOUNT_SORT_FIELDS,
  CLASS_CUSTOMER_PRODUCTION,
  DEFAULT_LIST_CLASS_IDS,
  DEFAULT_PAGE_SIZE,
  MACHINE_STATUSES,
  type TAccountSortField,
  type TMachineStatus,
  type TSortDirection,
} from '@fleet/contracts';
import { oneOf, readList, readPage, writeParam } from '../../lib/url-params';
import type { AccountFilter, AccountListQuery } from './api/params';

/** Page size of the accounts list (spec 1 §9). */
export const ACCOUNTS_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export interface AccountListFilters {
  search: string;
  classIds: number[];
  saasImage: string | undefined;
  machineStatusInclude: TMachineStatus[];
  machineStatusExclude: TMachineStatus[];
}

export interface AccountSort {
  sortBy: TAccountSortField;
  sortDirection: TSortDirection;
}

/** Classes the user may filter by: Customer Production only with the group (spec 1 §5). */
export function selectableClasses(showCustomerProduction: boolean) {
  return ACCOUNT_CLASSES.filter((c) => showCustomerProduction || c.id !== CLASS_CUSTOMER_PRODUCTION);
}

/**
 * The class filter's choices: every class, for every user (the list shows
 * Customer Production accounts to users outside the group as restricted rows).
 */
export const LIST_CLASS_OPTIONS = ACCOUNT_CLASSES.map((c) => ({ value: c.id as number, label: c.name }));
const LIST_CLASS_IDS = LIST_CLASS_OPTIONS.map((c) => c.value);

const asStatus = oneOf(MACHINE_STATUSES);
const asSortField = oneOf(ACCOUNT_SORT_FIELDS);
const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((v) => b.includes(v));

/** The default classes of the list (spec 1 §2: all but On Premise and Add-on Account). */
const defaultClassIds: number[] = [...DEFAULT_LIST_CLASS_IDS];

/** The list's filters, sort, page and the API query they make, read from the URL query `params`. */
export function accountListState(params: URLSearchParams) {
  const filters: AccountListFilters = {
    search: params.get('search') ?? '',
    classIds: params.has('classIds')
      ? readList(params, 'classIds', (raw) => {
          const id = Number(raw);
          return LIST_CLASS_IDS.includes(id) ? id : undefined;
        })
      : defaultClassIds,
    saasImage: params.get('saasImage') || undefined,
    machineStatusInclude: readList(params, 'machineStatusInclude', asStatus),
    machineStatusExclude: readList(params, 'machineStatusExclude', asStatus),
  };
  const explicitSort = asSortField(params.get('sortBy'));
  const sortDirection: TSortDirection = params.get('sortDirection') === 'Descending' ? 'Descending' : 'Ascending';
  const sort: AccountSort | undefined = explicitSort
    ? { sortBy: explicitSort, sortDirection }
    : filters.search.trim()
      ? undefined
      : { sortBy: 'name', sortDirection: 'Ascending' };
  const page = readPage(params);

  const filter: AccountFilter = {
    search: filters.search.trim() || undefined,
    classIds: filters.classIds,
    saasImage: filters.saasImage,
    machineStatusInclude: filters.machineStatusInclude,
    machineStatusExclude: filters.machineStatusExclude,
  };
  const query: AccountListQuery = {
    ...filter,
    sortBy: sort?.sortBy,
    sortDirection: sort?.sortDirection ?? 'Ascending',
    startIndex: (page - 1) * ACCOUNTS_PAGE_SIZE,
    limit: ACCOUNTS_PAGE_SIZE,
  };
  return { filters, sort, page, filter, query };
}

export function useAccountListParams() {
  const [params, setParams] = useSearchParams();

  const state = useMemo(() => accountListState(params), [params]);

  const setFilters = (patch: Partial<AccountListFilters>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if ('search' in patch) writeParam(next, 'search', patch.search?.trim() || undefined);
        if (patch.classIds) writeParam(next, 'classIds', sameSet(patch.classIds, defaultClassIds) ? undefined : patch.classIds.join(','));
        if ('saasImage' in patch) writeParam(next, 'saasImage', patch.saasImage || undefined);
        if (patch.machineStatusInclude) writeParam(next, 'machineStatusInclude', patch.machineStatusInclude.join(',') || undefined);
        if (patch.machineStatusExclude) writeParam(next, 'machineStatusExclude', patch.machineStatusExclude.join(',') || undefined);
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const setSort = (sort: AccountSort | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, 'sortBy', sort?.sortBy);
        writeParam(next, 'sortDirection', sort?.sortDirection);
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const setPage = (page: number) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, 'page', page > 1 ? String(page) : undefined);
        return next;
      },
      { replace: true },
    );

  return { ...state, setFilters, setSort, setPage };
}
