/**
 * The Issue viewer's filters and sorts (spec 2 §2.5; issue 24 point 7) in
 * Chromium against the real server on the demo seed: status, class and
 * last-seen time range chosen in the toolbar, the Count column sorted on the
 * server both ways, the request the page sent and its rows checked against
 * the server's answer to the page (the probes and checks raise issues while
 * the tests run), everything kept across a reload, and the last columns (the
 * Resolved switch among them) in view at 1440 pixels.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ACCOUNT_CLASSES, type TIssuesPage } from '@fleet/contracts';
import { adminToken, api, chooseOption, localDateTime, shownZone, lookupMachines, pagesPerTest, selectText, signIn, useBrowserAndAdmin } from './browser.js';
import { fillTimeRange, hashParams, recordAnswers, wholeMinute } from './viewer-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();
const rows = (page: Page) => page.locator('.issues-table .ant-table-tbody tr.ant-table-row');

describe('Issue viewer: filters and sorts', () => {
  it('filters by class and last seen, sorts by count on the server, and keeps them across a reload; the Resolved switch in view at 1440 pixels', async () => {
    const { page } = await openPage();
    // The probes and checks raise issues while the tests run, so the rows are checked against
    // the page the server answered the console, and that page against the filters and the order.
    const answers = recordAnswers<TIssuesPage>(page, '/issues');
    // The class of the machine of the newest issue: it has issues.
    const newest = (await api<TIssuesPage>('/issues?status=all&limit=1', adminToken)).items[0]!;
    const [machine] = await lookupMachines([newest.machineId], adminToken);
    const classId = ACCOUNT_CLASSES.find((c) => c.name === machine!.className)!.id;
    await signIn(page, 'admin', 'admin', '/viewer/issues');
    await rows(page).first().waitFor({ timeout: 30_000 });
    const card = page.locator('.ant-card');
    await page.getByRole('radiogroup', { name: 'Issues shown' }).getByText('All', { exact: true }).click();
    await page.waitForURL((url) => url.hash.includes('status=all'));
    await chooseOption(page, card.getByLabel('Class', { exact: true }), machine!.className, { exact: true });
    await page.waitForURL(() => hashParams(page).get('class') === String(classId));
    // Last seen within the last 30 days (from the minute) to an hour from now.
    const from = wholeMinute(Date.now() - 30 * 86_400_000);
    const to = wholeMinute(Date.now() + 3_600_000);
    await fillTimeRange(card, ['Last seen from', 'Last seen to'], [from, to]);
    await page.waitForURL(() => hashParams(page).get('from') === from && hashParams(page).get('to') === to);
    // Count sorts most first, then fewest first.
    const count = page.locator('.issues-table .ant-table-thead th', { hasText: 'Count' });
    await count.click();
    await page.waitForURL(() => hashParams(page).get('sort') === 'count' && hashParams(page).get('order') === 'desc');
    await page.locator('.issues-table .ant-table-thead th[aria-sort="descending"]', { hasText: 'Count' }).waitFor();
    await count.click();
    await page.waitForURL(() => hashParams(page).get('sort') === 'count' && hashParams(page).get('order') === 'asc');

    const shownIds = () => rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-key'))));
    const expectRowsOfLastAnswer = async () => {
      await expect.poll(() => Object.fromEntries(answers.at(-1)?.url.searchParams ?? []), { timeout: 30_000 }).toMatchObject({
        status: 'all',
        classId: String(classId),
        from,
        to,
        sort: 'count',
        order: 'asc',
      });
      const shown = await answers.at(-1)!.body();
      expect(shown.items.length).toBeGreaterThan(0);
      // Issues of terminated machines stay listed, and the lookup knows live machines only: another spec may have
      // terminated one meanwhile. Every machine still there is of the class (at least one is there).
      const classes = new Map((await lookupMachines([...new Set(shown.items.map((i) => i.machineId))], adminToken)).map((m) => [m.id, m.className]));
      expect(classes.size).toBeGreaterThan(0);
      for (const i of shown.items) {
        if (classes.has(i.machineId)) expect(classes.get(i.machineId)).toBe(machine!.className);
        expect(i.lastOccurrenceTime >= from && i.lastOccurrenceTime <= to).toBe(true);
      }
      const counts = shown.items.map((i) => i.count);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      await expect.poll(shownIds, { timeout: 30_000 }).toEqual(shown.items.map((i) => i.id));
    };
    await expectRowsOfLastAnswer();
    // At 1440 pixels (the screen of the tests) the last columns, the Resolved switch among them, are in view.
    const viewport = page.viewportSize()!;
    expect(viewport.width).toBe(1440);
    for (const header of ['Count', 'Resolved', 'Logs']) {
      const box = (await page.locator('.issues-table .ant-table-thead th', { hasText: header }).first().boundingBox())!;
      expect(box.x + box.width, header).toBeLessThanOrEqual(viewport.width);
    }
    const toggle = rows(page).first().getByRole('switch');
    const toggleBox = (await toggle.boundingBox())!;
    expect(toggleBox.x + toggleBox.width).toBeLessThanOrEqual(viewport.width);

    const before = answers.length;
    await page.reload();
    await expect.poll(() => answers.length, { timeout: 30_000 }).toBeGreaterThan(before);
    await expectRowsOfLastAnswer();
    expect(await page.locator('.issues-table .ant-table-thead th[aria-sort="ascending"]').innerText()).toContain('Count');
    expect(await selectText(card, 'Class')).toContain(machine!.className);
    expect(await card.getByPlaceholder('Last seen from', { exact: true }).inputValue()).toBe(`${localDateTime(from)} ${shownZone(from)}`);
  });

});
