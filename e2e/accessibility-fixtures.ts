/**
 * Shared steps of the accessibility specs (`accessibility.spec.ts`,
 * `accessibility-machine-menu.spec.ts`; issue 9 §7): waiting until a screen has
 * settled, checking one dialog, and a running machine of an account made for the
 * spec file through the API.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TListMachinesResponse, TMachine } from '@fleet/contracts';
import { api, createAccount, expectAccessible, NO_SOFTWARE } from './browser.js';

/** Longest wait for the simulated cloud to launch the new account's machine. */
export const LIVE_TIMEOUT = 60_000;
/** A test that signs in and checks many screens or dialogs, on a busy 2-core runner. */
export const LONG = 180_000;

/** Waits until nothing on the page is loading (spinners, skeletons). */
export const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]'), undefined, { timeout: 20_000 });

/**
 * Checks the one dialog (or drawer) open now, then closes it with Escape. The
 * page behind it was checked on its own: axe looks at the dialog only.
 */
export async function checkDialog(page: Page, screen: string) {
  const dialog = page.getByRole('dialog');
  await dialog.first().waitFor();
  await settled(page);
  await expectAccessible(page, screen, { within: '[role="dialog"]' });
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
}

/** A new account's machine (image only, no software), once it runs and no task of it is unfinished. */
export async function makeRunningMachine(adminToken: string): Promise<TMachine> {
  const accountId = await createAccount(adminToken, 'Accessibility', { machineConfig: NO_SOFTWARE });
  const deadline = Date.now() + LIVE_TIMEOUT;
  for (;;) {
    const [machine] = (await api<TListMachinesResponse>(`/accounts/${accountId}/machines`, adminToken)).items;
    const idle = machine && !machine.tasks.some((t) => t.status === 'New' || t.status === 'Running');
    if (machine && idle && machine.instance?.status === 'running') return machine;
    if (Date.now() > deadline) throw new Error('the new machine did not come up');
    await new Promise((r) => setTimeout(r, 1000));
  }
}
