/**
 * Operation events folded into the query cache (STYLE "Live events straight into
 * the query cache"; OPS-SEMANTICS events): the machine's row in every cached
 * list, the Operations viewer's pages and the machine's Operation Logs change
 * in place; a new operation reloads the viewer's first pages and the logs once
 * for many events.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { TListMachinesResponse, TMachine, TOperationListResponse } from '@fleet/contracts';
import { operationKeys } from '../../operations/api/keys';
import { operation } from '../operation-fixture';
import { machineKeys } from './keys';
import { applyOperation, NEW_OPERATION_RELOAD_MS } from './operation-cache';

const machineRow = (id: number, operations = [operation({ id: 1, machineId: id })]) => ({ id, accountId: 3, tasks: [], operations }) as unknown as TMachine;

let client: QueryClient;
beforeEach(() => {
  vi.useFakeTimers();
  client = new QueryClient();
});
afterEach(() => {
  client.clear();
  vi.useRealTimers();
});

const listKey = machineKeys.list({ accountId: 3, startIndex: 0, limit: 100 });
const rows = () => client.getQueryData<TListMachinesResponse>(listKey)!.items;

describe('applyOperation', () => {
  it('updates the operations of the machine row in every cached list, and only that row', () => {
    const everyKey = machineKeys.list({ startIndex: 0, limit: 100 });
    client.setQueryData<TListMachinesResponse>(listKey, { items: [machineRow(7), machineRow(8)], totalItems: 2 });
    client.setQueryData<TListMachinesResponse>(everyKey, { items: [machineRow(7)], totalItems: 1 });

    const shown = applyOperation(client, operation({ id: 2, machineId: 7, pending: true }));
    expect(shown).toBe(true);
    expect(rows()[0]!.operations.map((o) => o.id)).toEqual([2, 1]);
    expect(rows()[1]!.operations.map((o) => o.id)).toEqual([1]);
    expect(client.getQueryData<TListMachinesResponse>(everyKey)!.items[0]!.operations.map((o) => o.id)).toEqual([2, 1]);

    applyOperation(client, operation({ id: 2, machineId: 7, status: 'RUNNING' }));
    expect(rows()[0]!.operations.find((o) => o.id === 2)!.status).toBe('RUNNING');
    expect(applyOperation(client, operation({ id: 3, machineId: 99 }))).toBe(false);
  });

  it('replaces a shown operation in the viewer pages and the Operation Logs, never adding one to a page', () => {
    const page = operationKeys.page({ startIndex: 10, limit: 10 });
    client.setQueryData<TOperationListResponse>(page, { items: [operation({ id: 5, machineId: 7 })], totalItems: 11 });
    client.setQueryData<InfiniteData<TOperationListResponse>>(operationKeys.machineLogs(7), {
      pages: [{ items: [operation({ id: 5, machineId: 7 })], totalItems: 1 }],
      pageParams: [0],
    });

    applyOperation(client, operation({ id: 5, machineId: 7, status: 'SUCCESS', finishTime: '2024-05-01T10:00:00.000Z' }));
    expect(client.getQueryData<TOperationListResponse>(page)!.items[0]!.status).toBe('SUCCESS');
    expect(client.getQueryData<InfiniteData<TOperationListResponse>>(operationKeys.machineLogs(7))!.pages[0]!.items[0]!.status).toBe('SUCCESS');

    // A late OperationStarted does not undo the finish.
    applyOperation(client, operation({ id: 5, machineId: 7, status: 'RUNNING' }));
    expect(client.getQueryData<TOperationListResponse>(page)!.items[0]!.status).toBe('SUCCESS');

    applyOperation(client, operation({ id: 6, machineId: 7 }));
    expect(client.getQueryData<TOperationListResponse>(page)!.items.map((o) => o.id)).toEqual([5]);
  });

  it('reloads the first pages of the viewer (all machines or this one) and the logs once for a burst of new operations', async () => {
    const first = operationKeys.page({ startIndex: 0, limit: 10 });
    const firstOf7 = operationKeys.page({ machineId: 7, startIndex: 0, limit: 10 });
    const firstOf8 = operationKeys.page({ machineId: 8, startIndex: 0, limit: 10 });
    const second = operationKeys.page({ startIndex: 10, limit: 10 });
    for (const key of [first, firstOf7, firstOf8, second]) client.setQueryData<TOperationListResponse>(key, { items: [], totalItems: 0 });
    client.setQueryData(operationKeys.machineLogs(7), { pages: [], pageParams: [] });

    for (let id = 100; id < 150; id += 1) applyOperation(client, operation({ id, machineId: 7 }));
    const stale = () => [first, firstOf7, firstOf8, second, operationKeys.machineLogs(7)].map((k) => client.getQueryState(k)!.isInvalidated);
    expect(stale()).toEqual([false, false, false, false, false]);
    await vi.advanceTimersByTimeAsync(NEW_OPERATION_RELOAD_MS);
    expect(stale()).toEqual([true, true, false, false, true]);
  });
});
