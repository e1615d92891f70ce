/**
 * Rollouts in the console (DESIGN §15; issue 13 point 4) in Chromium against
 * the real server: a software update submitted from the Updater with 'Roll out
 * in waves' opens its rollout page, whose waves advance (RolloutProgress and the
 * poll); Pause, Resume and Abort (with its confirmation); the rollouts list; and
 * the activity log's link to the rollout. The targets are accounts this spec
 * creates.
 *
 * With `E2E_SHOTS` set to a folder, the rollout page is saved there as a PNG.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TRollout } from '@fleet/contracts';
import { api, apiToken, chooseOption, createAccount, expectAccessible, launchBrowser, pagesPerTest, signIn } from './browser.js';

let browser: Browser;
let adminToken: string;
const PREFIX = `rllt${Date.now() % 100_000}`;
const openPage = pagesPerTest(() => browser);

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await apiToken('admin');
  // Two sets of targets: one rollout each.
  for (const set of ['a', 'b']) for (let i = 0; i < 4; i++) await createAccount(adminToken, `${PREFIX}${set}`, { classId: 2 });
}, 120_000);
afterAll(() => browser.close());

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();
const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, `${name}.png`), fullPage: true });
};
const status = (page: Page) => page.getByTestId('rollout-status').innerText();

/**
 * Submits a launcher update (mode `launcherMode`, one that differs from the
 * accounts' current one) of this spec's accounts of `set` in waves from the Updater;
 * answers the rollout id from the URL.
 */
async function submitInWaves(page: Page, launcherMode: string, set: 'a' | 'b'): Promise<number> {
  await signIn(page, 'admin', 'admin', `/updater?mode=account&search=${PREFIX}${set}`);
  await page.getByRole('button', { name: 'Select all 4 that match' }).click();
  await expect.poll(() => page.getByTestId('selected-count').innerText()).toContain('4 accounts selected');
  await chooseOption(page, page.getByLabel('Launcher version mode'), launcherMode);
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /dry run/ });
  await dialog.getByRole('table').first().waitFor();
  await dialog.getByRole('checkbox', { name: 'Roll out in waves' }).check();
  await dialog.getByRole('group', { name: 'Rollout plan' }).waitFor();
  expect(await dialog.getByTestId('wave-sizes').innerText()).toContain('For 4 targets: 1, 1, 2');
  await shot(page, 'rollout-plan');
  await dialog.getByRole('button', { name: 'Update', exact: true }).click();
  await page.getByRole('dialog', { name: 'Update 4 accounts?' }).getByRole('button', { name: 'Yes' }).click();
  await toast(page, 'Software update submitted').waitFor();
  await page.waitForURL(/#\/rollouts\/\d+/);
  return Number(/rollouts\/(\d+)/.exec(page.url())![1]);
}

describe('rollout page', () => {
  it('opens after a submitted rollout and shows its waves advancing', async () => {
    const { page } = await openPage();
    const id = await submitInWaves(page, 'None', 'a');
    await page.getByRole('group', { name: 'Wave 1' }).waitFor();
    expect(await page.getByRole('group', { name: /^Wave \d$/ }).count()).toBe(3);
    // The first wave starts and its target moves on from Pending.
    await expect
      .poll(async () => (await api<TRollout>(`/rollouts/${id}`, adminToken)).waves[0]!.counts.Pending, { timeout: 60_000 })
      .toBe(0);
    await expect.poll(() => page.getByRole('group', { name: 'Wave 1' }).innerText(), { timeout: 30_000 }).not.toContain('Pending 1');
    await shot(page, 'rollout');
    await expectAccessible(page, 'Rollout page');
    expect((await page.getByRole('table', { name: 'Rollout targets' }).innerText()).match(new RegExp(PREFIX, 'g'))?.length).toBe(4);
  });

  it('pauses, resumes and aborts (after confirmation)', async () => {
    const { page } = await openPage();
    const id = await submitInWaves(page, 'Latest build', 'b');
    const running = (await api<TRollout>(`/rollouts/${id}`, adminToken)).status;
    if (running === 'Running') {
      await page.getByRole('button', { name: 'Pause' }).click();
      await toast(page, 'Rollout paused').waitFor();
      await expect.poll(() => status(page)).toBe('Paused');
      await page.getByRole('button', { name: 'Resume' }).click();
      await toast(page, 'Rollout resumed').waitFor();
    }
    const now = (await api<TRollout>(`/rollouts/${id}`, adminToken)).status;
    if (now === 'Completed') return;
    await page.getByRole('button', { name: 'Abort' }).click();
    const confirm = page.getByRole('dialog', { name: 'Abort rollout' });
    await confirm.getByRole('button', { name: 'Abort' }).click();
    await toast(page, 'Rollout aborted').waitFor();
    await expect.poll(() => status(page)).toBe('Aborted');
  });

  it('lists rollouts and links the starting activity to its rollout', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/rollouts');
    const table = page.getByRole('table', { name: 'Rollouts' });
    await table.getByRole('link').first().waitFor();
    const first = await api<{ items: TRollout[] }>('/rollouts?limit=1', adminToken);
    const rollout = first.items[0]!;
    expect(await table.innerText()).toContain(`Rollout ${rollout.id}`);
    await shot(page, 'rollouts-list');
    expect(rollout.activityId).not.toBeNull();
    await page.goto(`/#/rollouts/${rollout.id}`);
    await page.getByRole('link', { name: `Activity ${rollout.activityId}` }).click();
    await page.waitForURL(/#\/activity/);
    await page.locator('[aria-label="Activity details"]').getByRole('link', { name: `Rollout ${rollout.id}` }).click();
    await page.waitForURL(new RegExp(`#/rollouts/${rollout.id}$`));
  });
});
