/**
 * Shared steps of the accessibility specs (`accessibility.spec.ts`,
 * `accessibility-machine-menu.spec.ts`; issue 9 §7): checking one dialog, and
 * a running machine of an account made for the spec file through the API
 * (`machine-panel.ts`; the spec calls `useBrowserAndAdmin` of `browser.ts`).
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TMachine } from '@fleet/contracts';
import { expectAccessible, NO_SOFTWARE, settled } from './browser.js';
import { accountMachine, waitLaunched } from './machine-panel.js';

/** Longest wait for the simulated cloud to launch the new account's machine. */
export const LIVE_TIMEOUT = 60_000;
/** A test that signs in and checks many screens or dialogs, on a busy 2-core runner. */
export const LONG = 180_000;

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

/** A new account's machine (image only, no software), once its CreateMachine has completed. */
export async function makeRunningMachine(): Promise<TMachine> {
  const machine = await accountMachine('Accessibility', { machineConfig: NO_SOFTWARE });
  await waitLaunched(machine, LIVE_TIMEOUT);
  return machine;
}
