/**
 * The approvals inbox (issue 24 point 2) in Chromium against the real server:
 * the top bar's 'Pending approvals: N' opens it; an admin proceeds two
 * operations at once (a machine in ANOMALY mode makes any operation wait for
 * approval) and sees the Customer Production one, which an operator does not
 * see; a viewer has neither the chip nor the page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLASS_CUSTOMER_PRODUCTION, type TMachinesPage, type TOperation } from '@fleet/contracts';
import { adminToken, api, expectAccessible, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';
import { LONG, newMachine, queue } from './operations-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

/** Demo machines in ANOMALY mode (operation mode 2) that the operator sees and that run normally otherwise: any operation on them waits for approval. */
async function anomalyMachines(count: number) {
  const page = await api<TMachinesPage>('/machines?limit=500', adminToken);
  const found = page.items.filter((m) => m.operationMode === 2 && !m.needsAdmin && m.classId !== CLASS_CUSTOMER_PRODUCTION && m.operations.length === 0);
  expect(found.length).toBeGreaterThanOrEqual(count);
  return found.slice(0, count);
}

const inboxRow = (page: Page, op: TOperation) => page.locator(`.ant-table-tbody tr[data-row-key="${op.id}"]`);
const chip = (page: Page) => page.getByRole('link', { name: /^Pending approvals: \d+/ });

describe('approvals inbox', () => {
  it('opens from the top bar chip; the admin proceeds two at once and sees the Customer Production one', async () => {
    const [m1, m2] = await anomalyMachines(2);
    const [a] = await queue(m1!, ['SmokeTest']);
    const [b] = await queue(m2!, ['SmokeTest']);
    expect([a!.pending, b!.pending]).toEqual([true, true]);
    expect(a!.waiting?.message).toMatch(/^Waiting for approval \(the machine was in ANOMALY mode when it was queued\)/);
    const cpMachine = await newMachine('Approvals CP', CLASS_CUSTOMER_PRODUCTION);
    const [cp] = await queue(cpMachine, ['UpdateSoftware']);
    expect(cp!.pending).toBe(true);

    // The operator sees the two, not the Customer Production one.
    const operatorPage = (await openPage()).page;
    await signIn(operatorPage, 'operator', 'operator', '/approvals');
    for (const op of [a!, b!]) await inboxRow(operatorPage, op).waitFor();
    expect(await inboxRow(operatorPage, cp!).count()).toBe(0);

    const { page } = await openPage();
    await signIn(page, 'admin');
    const count = await api<{ count: number }>('/operations/pending-count', adminToken);
    await chip(page).getByText(String(count.count)).waitFor();
    await chip(page).click();
    await page.waitForURL(/#\/approvals/);
    for (const op of [a!, b!, cp!]) await inboxRow(page, op).waitFor();
    await expect.poll(() => inboxRow(page, cp!).innerText()).toMatch(/class Customer Production is a production class/);
    await expectAccessible(page, 'approvals inbox');

    await inboxRow(page, a!).getByRole('checkbox').check();
    await inboxRow(page, b!).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Proceed selected (2)' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Proceed' }).click();
    await page.getByText('2 operations proceeded').waitFor();
    // Decided: gone from the inbox, and the chip counts two fewer.
    await inboxRow(page, a!).waitFor({ state: 'detached' });
    await inboxRow(page, b!).waitFor({ state: 'detached' });
    await expect.poll(async () => Number((await chip(page).innerText()).replace(/\D+/g, ''))).toBeLessThanOrEqual(count.count - 2);
    for (const op of [a!, b!]) expect(await api<TOperation>(`/operations/${op.id}`, adminToken)).toMatchObject({ pending: false, decision: 'PROCEED', decidedBy: 'admin' });
    await inboxRow(page, cp!).waitFor();
    // The operator's open inbox follows the push channel, without a reload: the two decided ones show
    // their decision (the event), or are gone (a later event reloaded the inbox, which lists undecided ones).
    const decidedThere = async (op: TOperation) => {
      const shown = inboxRow(operatorPage, op);
      return (await shown.count()) === 0 || (await shown.innerText().catch(() => '')).includes('Decided: PROCEED');
    };
    await expect.poll(async () => [await decidedThere(a!), await decidedThere(b!)]).toEqual([true, true]);
    await api(`/machines/${cpMachine.id}/operations/${cp!.id}`, adminToken, { method: 'PATCH', body: JSON.stringify({ params: 'CANCEL' }) });
  }, LONG);

  it('cancels one from its row after the confirmation; a viewer has no chip and no inbox', async () => {
    const [m] = await anomalyMachines(1);
    const [op] = await queue(m!, ['SmokeTest']);
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', '/approvals');
    await inboxRow(page, op!).getByRole('button', { name: `Cancel operation ${op!.id}` }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel operation' }).click();
    await page.getByText('1 operation cancelled').waitFor();
    await inboxRow(page, op!).waitFor({ state: 'detached' });
    expect(await api<TOperation>(`/operations/${op!.id}`, adminToken)).toMatchObject({ decision: 'CANCEL', decidedBy: 'operator' });

    const viewer = (await openPage()).page;
    await signIn(viewer, 'viewer', 'viewer', '/approvals');
    // The permission guard sends a user without write back to the home screen.
    await viewer.waitForURL((u) => !u.hash.startsWith('#/approvals'));
    await viewer.locator('section[aria-label="Fleet counters"]').waitFor();
    expect(await chip(viewer).count()).toBe(0);
  }, LONG);
});
