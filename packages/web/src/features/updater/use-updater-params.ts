/**
 * State of the Updater kept in the URL (spec 3 §2.8; DESIGN §10): `mode`
 * (`machine`, the default, or `account`), `classIds` (comma list; absent: every
 * class the user may see), `search`, and in account mode the other filters of
 * the accounts list (`saasImage`, `machineStatusInclude`,
 * `machineStatusExclude`), which 'Update these accounts' carries over. A reload
 * or a shared link shows the same targets.
 */
import { useMemo } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import { CLASS_IDS } from '@fleet/contracts';
import { readList, writeParam } from '../../lib/url-params';

export type UpdaterMode = 'machine' | 'account';

/** The query of `GET /updater/machines|accounts` (and `/ids`), without paging; absent keys are not sent. */
export interface UpdaterTargetQuery {
  classIds?: string;
  search?: string;
  saasImage?: string;
  machineStatusInclude?: string;
  machineStatusExclude?: string;
}

/** Account-list filters the updater takes over in account mode (`GET /accounts` names). */
export const ACCOUNT_ONLY_FILTERS = ['saasImage', 'machineStatusInclude', 'machineStatusExclude'] as const;

export interface UpdaterParams {
  mode: UpdaterMode;
  classIds: number[];
  search: string;
  /** The target query of the current mode. */
  query: UpdaterTargetQuery;
  /** The account-list filters beyond class and search (account mode), as `name=value` texts to show. */
  extraFilters: string[];
}

const asClassId = (raw: string) => {
  const id = Number(raw);
  return (CLASS_IDS as readonly number[]).includes(id) ? id : undefined;
};

/** Reads the updater's state from `params` (pure; see {@link useUpdaterParams}). */
export function readUpdaterParams(params: URLSearchParams): UpdaterParams {
  const mode: UpdaterMode = params.get('mode') === 'account' ? 'account' : 'machine';
  const classIds = readList(params, 'classIds', asClassId);
  const search = params.get('search') ?? '';
  const query: UpdaterTargetQuery = {
    classIds: classIds.length > 0 ? classIds.join(',') : undefined,
    search: search.trim() || undefined,
  };
  const extraFilters: string[] = [];
  if (mode === 'account') {
    for (const key of ACCOUNT_ONLY_FILTERS) {
      const value = params.get(key)?.trim();
      if (value) {
        query[key] = value;
        extraFilters.push(`${key}=${value}`);
      }
    }
  }
  return { mode, classIds, search, query, extraFilters };
}

/** The updater's URL state and its setters; every change replaces the history entry. */
export function useUpdaterParams() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readUpdaterParams(params), [params]);

  const update = (edit: (next: URLSearchParams) => void) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        edit(next);
        return next;
      },
      { replace: true },
    );

  return {
    ...state,
    /** Switching mode drops the filters only the accounts list has. */
    setMode: (mode: UpdaterMode) =>
      update((next) => {
        writeParam(next, 'mode', mode === 'account' ? 'account' : undefined);
        for (const key of ACCOUNT_ONLY_FILTERS) next.delete(key);
      }),
    setClassIds: (ids: number[]) => update((next) => writeParam(next, 'classIds', ids.length > 0 ? ids.join(',') : undefined)),
    setSearch: (search: string) => update((next) => writeParam(next, 'search', search.trim() || undefined)),
    clearExtraFilters: () => update((next) => ACCOUNT_ONLY_FILTERS.forEach((key) => next.delete(key))),
  };
}

/**
 * The `/updater` link that opens account mode on the accounts list's filters
 * ('Update these accounts'): class ids (explicit, so the updater shows the same
 * accounts), search, SaaS image and machine statuses.
 */
export function updaterLinkForAccounts(filter: {
  search?: string;
  classIds?: number[];
  saasImage?: string;
  machineStatusInclude?: string[];
  machineStatusExclude?: string[];
}): string {
  const next = new URLSearchParams({ mode: 'account' });
  if (filter.classIds && filter.classIds.length > 0) next.set('classIds', filter.classIds.join(','));
  if (filter.search?.trim()) next.set('search', filter.search.trim());
  if (filter.saasImage) next.set('saasImage', filter.saasImage);
  if (filter.machineStatusInclude?.length) next.set('machineStatusInclude', filter.machineStatusInclude.join(','));
  if (filter.machineStatusExclude?.length) next.set('machineStatusExclude', filter.machineStatusExclude.join(','));
  return `/updater?${next.toString()}`;
}

/** A saved account query (`search=…&classIds=…`) as the updater's URL in account mode. */
export function updaterLinkForQuery(query: string): string {
  const next = new URLSearchParams(query);
  next.set('mode', 'account');
  return `/updater?${next.toString()}`;
}

/** The target query of account mode as a saved selection's query string. */
export function selectionQueryOf(query: UpdaterTargetQuery): string {
  const next = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) next.set(key, value);
  return next.toString();
}
