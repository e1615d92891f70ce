/**
 * Selecting a machine clears the viewers' cached paged lists (spec 2 §4
 * "Selecting a machine clears its cached paged lists"): the real
 * `useViewerParams` hook, rendered once on the server side of React with a real
 * QueryClient, then its `setMachine` called as the selector does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { operationKeys } from '../operations/api/keys';
import { issueKeys } from '../issues/api/keys';
import { requestStatisticsKeys } from '../request-statistics/api/keys';
import { viewerKeys } from './api/keys';
import { columnSortOrder, onSortChange, readPageSize, readSort, sorterToSort, useViewerParams } from './use-viewer-params';
import { operationsPageQuery, readOperationsFilter } from '../operations/use-operations-params';

const page = { machineId: 3, startIndex: 20, limit: 20 };
/** One cached page of every viewer list. */
const LIST_KEYS: QueryKey[] = [
  viewerKeys.machines(page),
  viewerKeys.states({ ...page, state: 'Current' }),
  viewerKeys.cloudInstances(page),
  operationKeys.page(page),
  issueKeys.page({ ...page, status: 'unresolved' }),
  requestStatisticsKeys.page(page),
];
/** What a machine selection keeps: the lookup and what no viewer list is. */
const KEPT_KEYS: QueryKey[] = [viewerKeys.machineSearch(''), viewerKeys.machineById(3), ['accounts', 'list']];

let client: QueryClient;
beforeEach(() => {
  client = new QueryClient();
  for (const key of [...LIST_KEYS, ...KEPT_KEYS]) client.setQueryData(key, { items: [] });
  // The router's navigate, called outside an effect of this one-off render, only warns; the cache is what is tested.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  client.clear();
  vi.restoreAllMocks();
});

/** `useViewerParams` of a viewer at `url`, rendered once. */
function viewerParams(url: string): ReturnType<typeof useViewerParams> {
  let params: ReturnType<typeof useViewerParams> | undefined;
  function Probe() {
    params = useViewerParams();
    return null;
  }
  renderToString(
    createElement(QueryClientProvider, { client }, createElement(MemoryRouter, { initialEntries: [url] }, createElement(Probe))),
  );
  return params!;
}

const cached = (keys: QueryKey[]) => keys.filter((queryKey) => client.getQueryData(queryKey) !== undefined);

describe('useViewerParams.setMachine', () => {
  it('reads the selected machine from the URL', () => {
    expect(viewerParams('/viewer/machines?machine=3&page=2').machineId).toBe(3);
    expect(viewerParams('/viewer/machines?machine=abc').machineId).toBeUndefined();
  });

  it('clears every cached viewer list when another machine is selected, and keeps the machine lookup', () => {
    viewerParams('/viewer/machines?machine=3&page=2').setMachine(4);
    expect(cached(LIST_KEYS)).toEqual([]);
    expect(cached(KEPT_KEYS)).toEqual(KEPT_KEYS);
  });

  it('clears them when the selection is cleared (All machines)', () => {
    viewerParams('/viewer/issues?machine=3').setMachine(undefined);
    expect(cached(LIST_KEYS)).toEqual([]);
  });

  it('keeps them when the same machine is selected again', () => {
    viewerParams('/viewer/machines?machine=3').setMachine(3);
    expect(cached(LIST_KEYS)).toEqual(LIST_KEYS);
  });
});

describe('the shared page size and order in the URL (issue 24 point 7)', () => {
  const q = (search: string) => new URLSearchParams(search);

  it('reads size as 20, 50 or 100, else 20', () => {
    expect([readPageSize(q('')), readPageSize(q('size=50')), readPageSize(q('size=100')), readPageSize(q('size=10')), readPageSize(q('size=x'))]).toEqual([20, 50, 100, 20, 20]);
  });

  it('reads a known sort with its order (desc unless asc), none for an unknown one', () => {
    expect(readSort(q('sort=started&order=asc'), ['queued', 'started'])).toEqual({ sort: 'started', order: 'asc' });
    expect(readSort(q('sort=started&order=up'), ['queued', 'started'])).toEqual({ sort: 'started', order: 'desc' });
    expect(readSort(q('sort=name'), ['queued', 'started'])).toBeUndefined();
  });

  it("maps antd's sorter to the URL's order and back", () => {
    expect(sorterToSort({ columnKey: 'finished', order: 'ascend' })).toEqual({ sort: 'finished', order: 'asc' });
    expect(sorterToSort({ columnKey: 'finished', order: undefined })).toBeUndefined();
    expect(columnSortOrder({ sort: 'finished', order: 'asc' }, 'finished')).toBe('ascend');
    expect(columnSortOrder({ sort: 'finished', order: 'desc' }, 'started')).toBeNull();
  });

  it('writes a sort click on a known column into the URL, anything else back to the default, and ignores paging', () => {
    const set = vi.fn();
    const onChange = onSortChange(['count', 'first'] as const, set);
    onChange({}, {}, { columnKey: 'count', order: 'ascend' }, { action: 'sort' });
    onChange({}, {}, { columnKey: 'machine', order: 'ascend' }, { action: 'sort' });
    onChange({}, {}, { columnKey: 'count', order: undefined }, { action: 'sort' });
    onChange({ current: 2 }, {}, { columnKey: 'count', order: 'descend' }, { action: 'paginate' });
    expect(set.mock.calls).toEqual([[{ sort: 'count', order: 'asc' }], [undefined], [undefined]]);
  });

  it("reads the Operations viewer's filters, leaving out unknown values, into the list's query", () => {
    const filter = readOperationsFilter(q('status=QUEUED,BAD,SUCCESS&type=Nope&class=2&from=2026-01-01T00:00:00.000Z&to=junk&sort=finished&order=asc'));
    expect(filter).toEqual({ status: ['QUEUED', 'SUCCESS'], type: undefined, classId: 2, from: '2026-01-01T00:00:00.000Z', to: undefined, sort: { sort: 'finished', order: 'asc' } });
    expect(operationsPageQuery({ machineId: 3, page: 2, pageSize: 50, filter })).toEqual({
      machineId: 3,
      startIndex: 50,
      limit: 50,
      status: 'QUEUED,SUCCESS',
      classId: 2,
      from: '2026-01-01T00:00:00.000Z',
      sort: 'finished',
      order: 'asc',
    });
  });
});
