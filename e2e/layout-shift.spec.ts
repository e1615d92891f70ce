/**
 * No jumps (issue 26 point 3): the cumulative layout shift of a full load of the
 * accounts list, edit account, the Updater, the Operations viewer and Instance Types, signed in
 * as admin on the demo fleet at 1440×900, stays at most 0.05 — the fleet
 * counters bar, the standby banner, tables and cards keep their size while their
 * data loads.
 *
 * A `PerformanceObserver` for `layout-shift` is installed before the console's
 * first script (`addInitScript`), so every shift of the load is seen; shifts
 * right after an input do not count (`hadRecentInput`), as in CLS. The score is
 * CLS's: the largest session window (shifts less than 1 s apart, at most 5 s
 * long). It is read once the screen shows its data and the network has been
 * quiet for 500 ms, after two animation frames. A failure names the shifts and
 * the elements that moved.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TListMachinesResponse } from '@fleet/contracts';
import { adminToken, api, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

/** The budget (issue 26): CLS at most 0.05 on every main screen. */
const MAX_CLS = 0.05;

useBrowserAndAdmin();
const openPage = pagesPerTest();

type Shift = { value: number; time: number; sources: string[] };

/** Runs in the page before its scripts: records every layout shift not caused by input, with what moved. */
function observeShifts() {
  const w = window as unknown as { __shifts: Shift[] };
  w.__shifts = [];
  const describe = (node: Node | null | undefined): string => {
    if (!node || !(node instanceof Element)) return node?.nodeName ?? '?';
    const cls = [...node.classList].slice(0, 3).join('.');
    const label = node.getAttribute('aria-label') ?? node.getAttribute('data-testid') ?? '';
    return `${node.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${label ? `[${label}]` : ''}`;
  };
  new PerformanceObserver((list) => {
    type Rect = { y: number; height: number };
    type Source = { node?: Node; previousRect: Rect; currentRect: Rect };
    const moved = (s: Source) => `${describe(s.node)} (y ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}, h ${Math.round(s.previousRect.height)}→${Math.round(s.currentRect.height)})`;
    for (const entry of list.getEntries() as unknown as { value: number; startTime: number; hadRecentInput: boolean; sources?: Source[] }[]) {
      if (entry.hadRecentInput) continue;
      w.__shifts.push({ value: entry.value, time: entry.startTime, sources: (entry.sources ?? []).map(moved) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** CLS of `shifts`: the largest sum of a session window (gaps under 1 s, at most 5 s long). */
export function cumulativeLayoutShift(shifts: Shift[]): number {
  let best = 0;
  let sum = 0;
  let start = -Infinity;
  let last = -Infinity;
  for (const s of [...shifts].sort((a, b) => a.time - b.time)) {
    if (s.time - last >= 1000 || s.time - start >= 5000) {
      sum = 0;
      start = s.time;
    }
    sum += s.value;
    last = s.time;
    best = Math.max(best, sum);
  }
  return best;
}

/** Signs in, loads `path` as a fresh document, waits for `ready` and a quiet network; answers the CLS and the shifts. */
async function loadAndMeasure(page: Page, path: string, ready: (page: Page) => Promise<unknown>): Promise<{ cls: number; shifts: Shift[] }> {
  await page.addInitScript(observeShifts);
  await signIn(page, 'admin', 'admin', path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
  return { cls: cumulativeLayoutShift(shifts), shifts };
}

/** The screen's first table shows a row of data (a `tr`, or a `div` in a virtual table). */
const tableRows = (page: Page) => page.locator('.ant-table-row[data-row-key]').first().waitFor();

describe('layout shift while a screen loads (CLS ≤ 0.05)', () => {
  const screens: [string, () => Promise<string>, (page: Page) => Promise<unknown>][] = [
    ['accounts list', async () => '/account/list', tableRows],
    [
      'edit account',
      async () => {
        const machine = (await api<TListMachinesResponse>('/machines?limit=1', adminToken)).items[0]!;
        return `/account/edit/${machine.accountId}`;
      },
      tableRows,
    ],
    ['the Updater', async () => '/updater', tableRows],
    ['the Operations viewer', async () => '/viewer/operations', tableRows],
    // Two tables one above the other (bench/web-vitals found 0.052 there).
    [
      'Instance Types',
      async () => '/lists/instance-types',
      (page) =>
        page
          .locator('.ant-card')
          .filter({ has: page.getByText('Redis instance types', { exact: true }) })
          .last()
          .locator('tbody tr[data-row-key]')
          .first()
          .waitFor(),
    ],
    // The classes table, then the registered MMAs' card below it (bench/web-vitals found 0.070 there).
    [
      'MMA',
      async () => '/mma',
      async (page) => {
        await page.locator('.mma-classes-table .ant-table-row[data-row-key]').first().waitFor();
        await page.getByText('Registered MMAs', { exact: true }).waitFor();
      },
    ],
  ];
  for (const [name, path, ready] of screens) {
    it(`${name} shifts at most ${MAX_CLS}`, async () => {
      const { page } = await openPage();
      const { cls, shifts } = await loadAndMeasure(page, await path(), ready);
      const named = shifts.map((s) => `${s.value.toFixed(4)} at ${Math.round(s.time)} ms: ${s.sources.join(', ')}`).join('\n');
      console.info(`layout shift, ${name}: CLS ${cls.toFixed(4)}\n${named}`);
      expect(cls, named).toBeLessThanOrEqual(MAX_CLS);
    }, 60_000);
  }
});
