/**
 * Counts that agree (issue 24 point 4; spec 3 §2.9, spec 2 §2.7): a top bar
 * chip opens the Machines viewer filtered to what it counts, whose total equals
 * the chip; the filters live in the URL. The standby banner names the classes
 * on standby and can be collapsed for the session, coming back when the set of
 * classes changes.
 */
import { describe, expect, it } from 'vitest';
import { api, apiToken, pagesPerTest, signIn, useBrowser } from './browser.js';
import type { TMachineStats } from '@fleet/contracts';

useBrowser();
const openPage = pagesPerTest();

describe('fleet counts', () => {
  it("opens the Machines viewer from the 'Needs admin' chip with a total equal to the chip", async () => {
    const stats = await api<TMachineStats>('/machines/stats', await apiToken('admin'));
    expect(stats.needsAdmin, 'the demo fleet has machines needing an admin').toBeGreaterThan(0);
    const { page } = await openPage();
    await signIn(page, 'admin');
    const chip = page.getByRole('region', { name: 'Fleet counters' }).getByRole('link', { name: /^Needs admin: \d+/ });
    await chip.waitFor();
    const shown = Number((await chip.textContent())!.match(/(\d+)/)![1]);
    expect(shown).toBe(stats.needsAdmin);
    await chip.click();
    await page.waitForURL(/#\/viewer\/machines\?needsAdmin=true/);
    // The viewer's exact total (no "at least") equals the chip.
    await page.getByText(new RegExp(`^1-\\d+ of ${shown} machines$`)).waitFor();
    expect(await page.getByRole('combobox', { name: 'Needs admin' }).count()).toBe(1);
    await page.locator('.ant-select').filter({ hasText: 'Needs admin: Yes' }).waitFor();
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    expect(await rows.count()).toBe(Math.min(shown, 20));

    // A class chip: the viewer's total equals it too; the filter survives a reload (kept in the URL).
    const experimental = stats.classStats.find((c) => c.class.id === 1)!.total;
    await page.getByRole('region', { name: 'Fleet counters' }).getByRole('link', { name: /^Experimental: / }).click();
    await page.waitForURL(/#\/viewer\/machines\?class=1$/);
    await page.getByText(new RegExp(`^1-20 of ${experimental} machines$`)).waitFor();
    await page.reload();
    await page.getByText(new RegExp(`^1-20 of ${experimental} machines$`)).waitFor();
  });

  it('names the classes on standby in the banner, which collapses for the session until the set changes', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer');
    const banner = page.getByRole('link', { name: /^MMA on standby: .*Internal Testing.* — open MMA$/ });
    await banner.waitFor();
    await page.getByRole('button', { name: 'Hide the standby banner for this session' }).click();
    await banner.waitFor({ state: 'detached' });
    // Still collapsed after a reload of the session.
    const answered = page.waitForResponse((r) => r.url().includes('/mma/stats') && r.ok());
    await page.reload();
    await answered;
    await page.getByRole('region', { name: 'Fleet counters' }).waitFor();
    // Two frames after the answer: the banner would have rendered by now.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await banner.count()).toBe(0);
    // Collapsed for another set of classes: the banner comes back for today's.
    await page.evaluate(() => sessionStorage.setItem('fleet.standbyBanner.collapsed', '1,2'));
    await page.reload();
    await banner.waitFor();
  });
});
