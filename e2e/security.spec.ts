/**
 * The console under its Content-Security-Policy (issue 9 §5), in Chromium
 * against the real server with its headers and rate limits on: as admin and as
 * viewer, the accounts list, an account's edit page with its machines panel
 * (and the push channel's WebSocket), and the activity log load with no CSP
 * violation reported by the browser, neither as a `securitypolicyviolation`
 * event nor in the console log.
 */
import { describe, expect, it } from 'vitest';
import type { TListAccountsResponse } from '@fleet/contracts';
import { api, apiToken, pagesPerTest, signIn, useBrowser, watchCsp } from './browser.js';

useBrowser();

const openPage = pagesPerTest();

describe('Content-Security-Policy', () => {
  for (const user of ['admin', 'viewer']) {
    it(`lets the console work with no violation, as ${user}`, async () => {
      const token = await apiToken(user);
      // An account with machines that this user may see.
      const { items } = await api<TListAccountsResponse>('/accounts?limit=50', token);
      const account = items.find((a) => !a.restricted && a.machineStats.machines > 0);
      if (!account) throw new Error(`no account with machines is visible to ${user}`);

      const { page } = await openPage();
      const violations = await watchCsp(page);
      const first = await page.goto('/');
      // The policy is there to be violated: scripts from the server only, no framing.
      expect(first?.headers()['content-security-policy']).toContain("script-src 'self';");
      expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

      await signIn(page, user);
      await page.locator('.ant-table-tbody tr[data-row-key]').first().waitFor();

      const hub = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/taskHub') });
      await page.goto(`/#/account/edit/${account.id}`);
      await page.locator('.ant-table-tbody tr[data-row-key]').first().waitFor();
      // The push channel upgrades to a WebSocket (connect-src) and stays open.
      expect((await hub).isClosed()).toBe(false);
      await page.getByRole('region', { name: 'License Settings' }).waitFor();
      await page.getByRole('tab', { name: 'Services' }).click();
      await page.getByRole('tabpanel', { name: 'Services' }).waitFor();

      await page.goto('/#/activity');
      await page.getByRole('region', { name: 'Activities' }).locator('.ant-timeline-item').first().waitFor();
      // Styles injected at run time and icons drawn late have had their chance to be refused.
      await page.waitForTimeout(500);
      expect(violations()).toEqual([]);
    });
  }
});
