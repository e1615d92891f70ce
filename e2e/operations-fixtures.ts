/**
 * Fixtures of the operations specs (spec 2 §2.2, §2.3, §2.6, §4, §5, §8; issue
 * 10: `operations.spec.ts`, `operation-dialogs.spec.ts`,
 * `operations-viewer.spec.ts`): a new account's machine, launched and quiet;
 * its operations as the API lists them; queueing operations and waiting for
 * one to end. Times are milliseconds. Every test that changes a machine
 * creates its own account through the API (one AllInOne machine), so tests do
 * not depend on each other or on the seed.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TCreateAccountRequest, TMachine, TOperation, TOperationListResponse, TQueuedOperationsResponse } from '@fleet/contracts';
import { adminToken, api, NO_SOFTWARE } from './browser.js';
import { accountMachine, openMachineAccount, waitLaunched } from './machine-panel.js';

/** Longest wait for a simulated cloud launch or a simulated operation to end. */
export const LIVE_TIMEOUT = 90_000;
export const LONG = 240_000;

/** A new AllInOne account (class Experimental unless `classId`) running no software, and its one machine, launched. */
export async function newMachine(prefix: string, classId?: number, extra: Partial<TCreateAccountRequest> = {}): Promise<TMachine> {
  const machine = await accountMachine(prefix, { machineConfig: NO_SOFTWARE, ...(classId === undefined ? {} : { classId }), ...extra });
  await waitLaunched(machine, LIVE_TIMEOUT);
  await quiet(machine);
  return api<TMachine>(`/machines/${machine.id}`, adminToken);
}

/**
 * Cancels what the agent queued by itself for a new machine (the desired-state
 * controller may queue an UpdateSoftware, pending on a production class) and
 * waits until the machine has no unfinished operation, so that each test sees
 * only its own.
 */
async function quiet(machine: { id: number }) {
  for (const op of await operationsOf(machine.id)) {
    if (op.pending) await api(`/machines/${machine.id}/operations/${op.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ params: 'CANCEL' }) });
  }
  await expect
    .poll(async () => (await operationsOf(machine.id)).filter((o) => o.finishTime === null).length, { timeout: LIVE_TIMEOUT, interval: 500 })
    .toBe(0);
}

/** The machine's operations (the newest 100), newest first. */
export const operationsOf = async (machineId: number) => (await api<TOperationListResponse>(`/machines/${machineId}/operations?limit=100`, adminToken)).items;
/** The operation `id` of the machine as the API answers it now. */
export const operationNow = async (machineId: number, id: number) => (await operationsOf(machineId)).find((o) => o.id === id);

/** Waits until the operation has ended, answering it. */
export async function finished(machineId: number, id: number): Promise<TOperation> {
  await expect.poll(async () => (await operationNow(machineId, id))?.finishTime ?? null, { timeout: LIVE_TIMEOUT, interval: 500 }).not.toBeNull();
  return (await operationNow(machineId, id))!;
}

/** Queues the operations on the machine as the admin; answers them. */
export async function queue(machine: TMachine, operations: string[]): Promise<TOperation[]> {
  const answer = await api<TQueuedOperationsResponse>(`/machines/${machine.id}/queue-operations`, adminToken, {
    method: 'POST',
    body: JSON.stringify({ operations }),
  });
  return answer.operations;
}

/** Signs `user` in on the machine's account and waits for its row. */
export const openAccount = (page: Page, user: string, machine: TMachine) => openMachineAccount(page, user, machine, LIVE_TIMEOUT);
