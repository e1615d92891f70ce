/**
 * The activity log (spec 2 §2.11, §8, §9; issue 24 point 6): filters, sort,
 * refresh, infinite scroll of 10 then 10 more until an empty page, the detail
 * panel, its toasts, and the Customer Production rule of the account filter;
 * a deep link opening its activity at once, the user and time filters kept
 * across a reload, sign-ins hidden until asked for, and a machine's link;
 * names for people (issue 24 point 8): fields by their labels, versions as
 * `branch / hash`, times with their zone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TAccountLookup, TInstanceSettings, TListAccountsResponse, TListCommitsResponse, TMachinesPage, TUserActivity } from '@fleet/contracts';
import {
  adminToken,
  api,
  apiToken,
  chooseOption,
  createAccount,
  localDateTime,
  pagesPerTest,
  NO_SOFTWARE,
  selectText,
  setSwitch,
  shownZone,
  signIn,
  useBrowserAndAdmin,
} from './browser.js';

let deleted: { id: number; name: string };

useBrowserAndAdmin();
const openPage = pagesPerTest();
beforeAll(async () => {
  // Sign-ins (hidden unless asked for: enough for two pages of them), and one deletion with params and changes.
  for (let i = 0; i < 22; i++) await apiToken('viewer');
  const [account] = (await api<TListAccountsResponse>('/accounts?classIds=4&limit=1&sortBy=creationTime', adminToken)).items;
  deleted = { id: account!.id, name: account!.name };
  await api(`/accounts/${deleted.id}`, adminToken, { method: 'DELETE' });
});

const timeline = (page: Page) => page.getByRole('region', { name: 'Activities' });
const items = (page: Page) => timeline(page).locator('.ant-timeline-item');
const details = (page: Page) => page.locator('[aria-label="Activity details"]');
/** Waits until the timeline has loaded (nothing busy) and answers its text. */
async function loadedTimeline(page: Page): Promise<string> {
  await timeline(page).and(page.locator('[aria-busy="false"]')).waitFor();
  return timeline(page).innerText();
}

describe('activity log', () => {
  it('shows 10 activities, then 10 more on scrolling to the bottom, newest first', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/activity');
    await expect.poll(() => items(page).count()).toBe(10);
    const newest = await api<TUserActivity[]>('/user-activities?limit=1', adminToken);
    expect(await items(page).first().innerText()).toContain(newest[0]!.action);
    await timeline(page).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => items(page).count()).toBe(20);
  });

  it('filters by account and action, and shows Params and Changes of the chosen activity', async () => {
    const { page } = await openPage();
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
    // The field by its label (issue 24 point 8), the raw name `deleted` as its tooltip.
    expect(text).toMatch(/\bDeleted\s+false\s+true/);

    const failed = await api<TUserActivity[]>('/user-activities?action=LoginFailed&limit=10', adminToken);
    await page.goto('/#/activity?action=LoginFailed');
    if (failed.length === 0) await page.getByText('No activities').waitFor();
    else await expect.poll(() => items(page).count()).toBe(failed.length);
    await page.goto('/#/activity?action=Login');
    await expect.poll(() => items(page).count()).toBe(10);
    expect(await timeline(page).innerText()).not.toContain('LoginFailed');
  });

  it('sorts Oldest first on request and refreshes with the success toast', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/activity');
    await expect.poll(() => items(page).count()).toBe(10);
    await page.getByText('Oldest', { exact: true }).click();
    await page.waitForURL(/sortDirection=Ascending|sort=oldest/i);
    const oldest = await api<TUserActivity[]>('/user-activities?limit=1&sortDirection=Ascending', adminToken);
    await expect.poll(() => items(page).first().innerText()).toContain(oldest[0]!.user);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Audit activities loaded').waitFor();
  });

  it('shows the error toast when loading fails', async () => {
    const { page } = await openPage();
    await page.route('**/api/v1/user-activities**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }) }),
    );
    await signIn(page, 'admin', 'admin', '/activity');
    await page.getByText('Error occurred loading audit activities').waitFor();
  });

  it('offers Customer Production accounts in the account filter only to the group', async () => {
    const cp = (await api<TAccountLookup[]>('/lookup/accounts', adminToken)).find((a) => a.classId === 5)!;
    for (const [user, visible] of [['admin', true], ['operator', false]] as const) {
      const { page } = await openPage();
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
    }
  });
});

describe('activity log: deep links, user and time filters, sign-ins, links (issue 24 point 6)', () => {
  it('opens a deep link at its activity at once: selected at the top of the timeline, its details shown, newer ones on request', async () => {
    const [target] = await api<TUserActivity[]>('/user-activities?startIndex=35&limit=1', adminToken);
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/activity?activityId=${target!.id}`);
    const detail = details(page);
    await detail.locator('.ant-card-head-title', { hasText: target!.action }).waitFor();
    expect(await detail.locator('.ant-descriptions-item', { hasText: 'Activity' }).first().innerText()).toContain(String(target!.id));
    // The timeline starts at it, chosen, without loading the 35 newer ones first.
    await expect.poll(() => items(page).count()).toBe(10);
    expect(await items(page).first().getByRole('button').getAttribute('aria-pressed')).toBe('true');
    expect(await items(page).first().innerText()).toContain(target!.action);
    expect(await page.getByText('further down the timeline').count()).toBe(0);
    await page.getByRole('button', { name: 'Show newer activities' }).click();
    await expect.poll(() => items(page).count()).toBe(20);
    expect(await items(page).nth(10).getByRole('button').getAttribute('aria-pressed')).toBe('true');
  });

  it('filters by user and time range, kept in the URL across a reload; the server does the filtering', async () => {
    const user = 'tbecker';
    const history = await api<TUserActivity[]>(`/user-activities?user=${user}&limit=40`, adminToken);
    expect(history.length).toBeGreaterThan(12);
    // From the minute of the 12th newest to the minute of the 3rd newest, both whole minutes.
    const minute = (iso: string) => Math.floor(Date.parse(iso) / 60_000) * 60_000;
    const from = new Date(minute(history[11]!.time)).toISOString();
    const to = new Date(minute(history[2]!.time) + 59_999).toISOString();
    const expected = await api<TUserActivity[]>(`/user-activities?user=${user}&from=${from}&to=${to}&limit=40`, adminToken);
    expect(expected.length).toBeGreaterThanOrEqual(10);

    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/activity');
    // Searched: the users' list grows with every spec that signs someone in, past what the list draws at once.
    await chooseOption(page, page.getByLabel('User', { exact: true }), user, { exact: true, search: true });
    await page.waitForURL(new RegExp(`user=${user}`));
    for (const [placeholder, iso] of [
      ['From', history[11]!.time],
      ['To', history[2]!.time],
    ] as const) {
      const input = page.getByPlaceholder(placeholder, { exact: true });
      await input.click();
      await input.fill(localDateTime(iso));
      await input.press('Enter');
    }
    await page.waitForURL((url) => url.hash.includes('from=') && url.hash.includes('to='));
    const check = async () => {
      await expect.poll(async () => (await loadedTimeline(page)).includes(expected[0]!.action) && (await items(page).count())).toBe(Math.min(10, expected.length));
      const texts = await items(page).allInnerTexts();
      expect(texts.every((text) => text.includes(`by ${user}`))).toBe(true);
      expect(await selectText(page.locator('body'), 'User')).toContain(user);
      // The picker shows what was typed with its zone (issue 24 point 8), once it has read the URL (after a reload).
      await expect.poll(() => page.getByPlaceholder('From', { exact: true }).inputValue()).toBe(`${localDateTime(from)} ${shownZone(from)}`);
      await expect.poll(() => page.getByPlaceholder('To', { exact: true }).inputValue()).toBe(`${localDateTime(to)} ${shownZone(to)}`);
    };
    await check();
    const url = page.url();
    expect(new URL(url).hash).toContain(`from=${encodeURIComponent(from)}`);
    await page.reload();
    await check();
    expect(page.url()).toBe(url);
  });

  it('hides sign-ins and sign-outs until the switch asks for them, kept in the URL', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/activity?user=viewer');
    expect(await loadedTimeline(page)).not.toMatch(/\bLog(in|out)/);
    const toggle = page.getByRole('switch', { name: 'Show sign-ins and sign-outs' });
    await setSwitch(toggle, true);
    await page.waitForURL(/signIns=true/);
    await expect.poll(() => items(page).count()).toBe(10);
    expect(await timeline(page).innerText()).toContain('Login');
    await page.reload();
    await expect.poll(() => items(page).count()).toBe(10);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await setSwitch(toggle, false);
    await expect.poll(async () => (await loadedTimeline(page)).includes('Login')).toBe(false);
  });

  it('links a machine the activity names, by its name, to the Machines viewer filtered to it', async () => {
    const [machine] = (await api<TMachinesPage>('/machines?limit=1', adminToken)).items;
    await api(`/machines/${machine!.id}/reset-failure-state`, adminToken, { method: 'POST' });
    const [activity] = await api<TUserActivity[]>('/user-activities?action=ResetFailureState&limit=1', adminToken);
    expect(activity!.metadata.params.machineId).toBe(machine!.id);
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/activity?activityId=${activity!.id}`);
    const link = details(page).getByRole('link', { name: machine!.name, exact: true }).first();
    await link.click();
    await page.waitForURL((url) => url.hash === `#/viewer/machines?machine=${machine!.id}`);
    await page.getByRole('region', { name: 'Machines table' }).getByRole('cell', { name: machine!.name, exact: true }).waitFor();
    expect(await details(page).count()).toBe(0);
  });
});

describe('activity log: names for people (issue 24 point 8)', () => {
  it("names a change's field by its label, shows a version as branch / hash and a time with its zone", async () => {
    // A push that changes the launcher's version: the activity's change is `launcherVersion`, `release/8.1|hash`.
    const accountId = await createAccount(adminToken, 'Names For People', { machineConfig: NO_SOFTWARE });
    const commit = (await api<TListCommitsResponse>('/software/launcher/commits?branch=release%2F8.1&limit=1', adminToken)).items[0]!;
    const { version, ...values } = await api<TInstanceSettings>(`/accounts/${accountId}/instance-settings`, adminToken);
    const launcherVersion = `release/8.1|${commit.shortHash}`;
    await api(`/accounts/${accountId}/instance-settings`, adminToken, {
      method: 'PUT',
      body: JSON.stringify({ ...values, version, launcherVersionMode: 'Select', launcherVersion }),
    });
    const [activity] = await api<TUserActivity[]>(`/user-activities?accountId=${accountId}&action=PushInstanceSettings&limit=1`, adminToken);
    expect(activity!.metadata.changes).toContainEqual(expect.objectContaining({ propertyName: 'launcherVersion', newValue: launcherVersion }));

    // In Paris: the times say UTC+1 (or UTC+2 in summer), whatever this machine's zone.
    const { page } = await openPage({ timezoneId: 'Europe/Paris' });
    await signIn(page, 'admin', 'admin', `/activity?activityId=${activity!.id}`);
    const detail = details(page);
    const row = detail.locator('.ant-table-row', { hasText: 'Launcher version' }).filter({ hasNotText: 'mode' });
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).map((t) => t.trim()).slice(1, 4)).toEqual([
      'Launcher version',
      expect.stringMatching(/^(|\S+ \/ \S+|latest)$/),
      `release/8.1 / ${commit.shortHash}`,
    ]);
    expect(await detail.innerText()).not.toContain('launcherVersion');
    // The raw field name is the label's tooltip.
    await row.getByText('Launcher version', { exact: true }).hover();
    await page.getByRole('tooltip').filter({ hasText: /^launcherVersion$/ }).waitFor();

    const zone = shownZone(activity!.time, 'Europe/Paris');
    expect(zone).toMatch(/^UTC\+[12]$/);
    const time = detail.locator('.ant-descriptions-item', { hasText: 'Time' }).first().locator('.ant-descriptions-item-content');
    expect(await time.innerText()).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} ${zone.replace('+', '\\+')}$`));
    expect(await items(page).first().innerText()).toContain(zone);
  });
});
