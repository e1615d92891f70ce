/**
 * The activity log (spec 2 §2.11, §8, §9): filters, sort, refresh, infinite
 * scroll of 10 then 10 more until an empty page, the detail panel, its toasts,
 * and the Customer Production rule of the account filter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TAccountLookup, TListAccountsResponse, TUserActivity } from '@fleet/contracts';
import { adminToken, api, apiToken, browser, newPage, signIn, useBrowserAndAdmin } from './browser.js';

let deleted: { id: number; name: string };

useBrowserAndAdmin();
beforeAll(async () => {
  // Enough history for three pages, and one deletion with params and changes.
  for (let i = 0; i < 22; i++) await apiToken('viewer');
  const [account] = (await api<TListAccountsResponse>('/accounts?classIds=4&limit=1&sortBy=creationTime', adminToken)).items;
  deleted = { id: account!.id, name: account!.name };
  await api(`/accounts/${deleted.id}`, adminToken, { method: 'DELETE' });
});

const timeline = (page: Page) => page.getByRole('region', { name: 'Activities' });
const items = (page: Page) => timeline(page).locator('.ant-timeline-item');

describe('activity log', () => {
  it('shows 10 activities, then 10 more on scrolling to the bottom, newest first', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin', 'admin', '/activity');
    await expect.poll(() => items(page).count()).toBe(10);
    const newest = await api<TUserActivity[]>('/user-activities?limit=1', adminToken);
    expect(await items(page).first().innerText()).toContain(newest[0]!.action);
    await timeline(page).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => items(page).count()).toBe(20);
    await context.close();
  });

  it('filters by account and action, and shows Params and Changes of the chosen activity', async () => {
    const { context, page } = await newPage(browser);
    const history = await api<TUserActivity[]>(`/user-activities?accountId=${deleted.id}`, adminToken);
    expect(history[0]!.action).toBe('DeleteAccount');
    await signIn(page, 'operator', 'operator', `/activity?accountId=${deleted.id}`);
    await expect.poll(() => items(page).count()).toBe(history.length);
    expect(await items(page).first().innerText()).toContain('DeleteAccount');
    await items(page).first().getByRole('button').click();
    const detail = page.getByRole('region', { name: 'Activity details' }).or(page.locator('[aria-label="Activity details"]'));
    await detail.getByText('Params').waitFor();
    expect(await detail.innerText()).toContain(deleted.name);
    await detail.getByText('Changes').waitFor();
    const text = await detail.innerText();
    expect(text).toContain('Account');
    expect(text).toContain('deleted');

    const failed = await api<TUserActivity[]>('/user-activities?action=LoginFailed&limit=10', adminToken);
    await page.goto('/#/activity?action=LoginFailed');
    if (failed.length === 0) await page.getByText('No activities').waitFor();
    else await expect.poll(() => items(page).count()).toBe(failed.length);
    await page.goto('/#/activity?action=Login');
    await expect.poll(() => items(page).count()).toBe(10);
    expect(await timeline(page).innerText()).not.toContain('LoginFailed');
    await context.close();
  });

  it('sorts Oldest first on request and refreshes with the success toast', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin', 'admin', '/activity');
    await expect.poll(() => items(page).count()).toBe(10);
    await page.getByText('Oldest', { exact: true }).click();
    await page.waitForURL(/sortDirection=Ascending|sort=oldest/i);
    const oldest = await api<TUserActivity[]>('/user-activities?limit=1&sortDirection=Ascending', adminToken);
    await expect.poll(() => items(page).first().innerText()).toContain(oldest[0]!.user);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Audit activities loaded').waitFor();
    await context.close();
  });

  it('shows the error toast when loading fails', async () => {
    const { context, page } = await newPage(browser);
    await page.route('**/api/v1/user-activities**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }) }),
    );
    await signIn(page, 'admin', 'admin', '/activity');
    await page.getByText('Error occurred loading audit activities').waitFor();
    await context.close();
  });

  it('offers Customer Production accounts in the account filter only to the group', async () => {
    const cp = (await api<TAccountLookup[]>('/lookup/accounts', adminToken)).find((a) => a.classId === 5)!;
    for (const [user, visible] of [['admin', true], ['operator', false]] as const) {
      const { context, page } = await newPage(browser);
      // The filter's options are one lookup of the accounts the user may see.
      const lookup = page.waitForResponse((res) => res.request().method() === 'GET' && res.url().endsWith('/api/v1/lookup/accounts'));
      await signIn(page, user, user, '/activity');
      const offered = (await (await lookup).json()) as TAccountLookup[];
      expect(offered.some((a) => a.id === cp.id), user).toBe(visible);
      await page.getByRole('combobox', { name: 'Account' }).fill(cp.name);
      const shown = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      const option = shown.getByText(cp.name, { exact: true });
      if (visible) await option.first().waitFor();
      else {
        // Loaded and filtered: the list is the offered accounts whose name holds the text, not an option still to come.
        const text = cp.name.toLowerCase();
        const matching = offered.map((a) => a.name).filter((n) => n.toLowerCase().includes(text)).sort((a, b) => a.localeCompare(b));
        if (matching.length === 0) await page.locator('.ant-select-dropdown:visible .ant-select-item-empty').waitFor();
        else await expect.poll(() => shown.allInnerTexts()).toEqual(matching);
        expect(await option.count()).toBe(0);
      }
      await context.close();
    }
  });
});
