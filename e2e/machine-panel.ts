/**
 * The machines panel of an account's page (spec 2 §2.2–§2.4), for the specs
 * that drive it through its row menu (`operations.spec.ts`,
 * `operation-dialogs.spec.ts`, `operations-viewer.spec.ts`,
 * `machine-dialogs.spec.ts`, `machine-config-editors.spec.ts`): a new
 * account's machine, the machine's row and row menu, and the status of a call
 * as another user.
 *
 * A spec file calls `useBrowserAndAdmin` (`browser.ts`) once at its top level:
 * the helpers here use the `adminToken` it sets. Vitest gives each spec file
 * its own copy of this module, so the token cache is that file's.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TCreateAccountRequest, TListMachinesResponse, TMachine, TTaskListResponse } from '@fleet/contracts';
import { adminToken, api, apiToken, baseUrl, createAccount, signIn } from './browser.js';

/** The machine's row in the machines panel (a `tr`, or a `div` in the Updater's virtual table). */
export const row = (page: Page, machine: { id: number }) => page.locator(`.ant-table-row[data-row-key="${machine.id}"]`);

/**
 * Starts recording, in the page, every text the machine's row cell `column` (0-based) shows from now on, as the
 * DOM changes (a MutationObserver): a state that lasts half a second in the e2e server (a SmokeTest running) is
 * seen even when a loaded runner's polls would miss it. Answers a reader of the texts recorded so far.
 */
export async function recordCellTexts(page: Page, machine: { id: number }, column: number): Promise<() => Promise<string[]>> {
  const key = `cellTexts${machine.id}_${column}`;
  await page.evaluate(
    ({ key, selector }) => {
      const texts: string[] = [];
      const record = () => {
        const text = document.querySelector(selector)?.textContent ?? '';
        if (texts.at(-1) !== text) texts.push(text);
      };
      record();
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
      (window as unknown as Record<string, string[]>)[key] = texts;
    },
    { key, selector: `.ant-table-row[data-row-key="${machine.id}"] > td:nth-child(${column + 1})` },
  );
  return () => page.evaluate((key) => [...((window as unknown as Record<string, string[]>)[key] ?? [])], key);
}

/** Signs `user` in on the account of `machine` and waits for the machine's row, at most `timeout` ms. */
export async function openMachineAccount(page: Page, user: string, machine: TMachine, timeout: number) {
  await signIn(page, user, user, `/account/edit/${machine.accountId}`);
  await row(page, machine).waitFor({ timeout });
}

/** Opens the entry `entry` of the machine's row menu. */
export async function openMenu(page: Page, machine: TMachine, entry: string): Promise<void> {
  await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/**
 * The one machine of a new AllInOne account made through the API (draft, then
 * create-from-draft; class Experimental unless `extra` says otherwise), as
 * listed right after: its CreateMachine is queued, not yet done.
 */
export async function accountMachine(prefix: string, extra: Partial<TCreateAccountRequest> = {}): Promise<TMachine> {
  const accountId = await createAccount(adminToken, prefix, extra);
  const [machine] = (await api<TListMachinesResponse>(`/accounts/${accountId}/machines`, adminToken)).items;
  if (!machine) throw new Error('create-from-draft made no machine');
  return machine;
}

/** Waits for the CreateMachine task of a new machine to complete (its credential is issued at launch), at most `timeout` ms. */
export async function waitLaunched(machine: { id: number }, timeout: number): Promise<void> {
  await expect
    .poll(
      async () => (await api<TTaskListResponse>(`/machines/${machine.id}/tasks`, adminToken)).items.find((t) => t.type === 'CreateMachine')?.status,
      { timeout, interval: 500 },
    )
    .toBe('Completed');
}

/** The machine as the API answers it now. */
export const machineNow = (id: number) => api<TMachine>(`/machines/${id}`, adminToken);

/** One login per user for the whole file (a test may poll {@link statusOf} many times). */
const tokens = new Map<string, Promise<string>>();
const tokenOf = (username: string) => tokens.get(username) ?? tokens.set(username, apiToken(username)).get(username)!;

/** Status of a call as `username`, for the calls that must be refused. */
export async function statusOf(path: string, username: string, method: string, body?: unknown): Promise<number> {
  const token = await tokenOf(username);
  const res = await fetch(`${baseUrl()}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}
