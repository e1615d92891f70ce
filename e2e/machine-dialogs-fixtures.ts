/**
 * Fixtures of the machine dialog specs (spec 2 §2.3, §4, §5, §8, §9:
 * `machine-dialogs.spec.ts`, `machine-config-editors.spec.ts`): a new
 * account's machine and its launch, the account's page opened on it, and the
 * option lists of a dialog closed. Times are milliseconds. Every test that
 * changes a machine creates its own account through the API (draft, then
 * create-from-draft: one AllInOne machine with the catalogue's default
 * configs), so tests do not depend on each other or on the seed.
 */
import type { Locator, Page } from 'playwright-core';
import type { TMachine } from '@fleet/contracts';
import { NO_SOFTWARE } from './browser.js';
import { accountMachine, openMachineAccount, waitLaunched } from './machine-panel.js';

/** Longest wait for a simulated cloud launch, or for a reload on a busy machine. */
export const LIVE_TIMEOUT = 30_000;
/** Each test makes an account, signs in and walks a dialog through several steps. */
export const LONG = 120_000;

/** A new AllInOne account of class Experimental running no software, and its one machine (CreateMachine queued). */
export const newMachine = (): Promise<TMachine> => accountMachine('Machine Dialogs', { machineConfig: NO_SOFTWARE });

/** Signs `user` in on the machine's account and waits for its row. */
export const openAccount = (page: Page, user: string, machine: TMachine) => openMachineAccount(page, user, machine, LIVE_TIMEOUT);

/** Waits for the CreateMachine task of a new machine to complete (its credential is issued at launch). */
export const launched = (machine: TMachine): Promise<void> => waitLaunched(machine, LIVE_TIMEOUT);

/** Closes an open suggestion or option list by clicking the dialog's title (Esc would be the dialog's own). */
export const closeLists = (dialog: Locator) => dialog.locator('.ant-modal-title').click();
