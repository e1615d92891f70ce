/**
 * The viewers in Chromium against the real server on the demo fleet (spec 2
 * §2.1, §2.7–2.9, §4; issue 11 point 5): `/viewer` redirects to the Issues
 * viewer keeping `machine`; the sidebar keeps `machine` from one viewer to the
 * next and a new selection stays in the URL; the Machines, States and Cloud
 * Instances viewers page on the server with the page and filters in the URL,
 * as admin and as operator (who sees no Customer Production machine); the
 * States radio, its filters (class, component, branch, time range) and time
 * order; a cloud instance's raw JSON expanded.
 *
 * Read-only: the tests change nothing, so they rely on the demo seed only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  CLASS_CUSTOMER_PRODUCTION,
  type TCloudInstancesPage,
  type TMachine,
  type TMachinesPage,
  type TVersionStatesViewerPage,
} from '@fleet/contracts';
import { api, apiToken, chooseOption, localDateTime, shownZone, openDropdown, pagesPerTest, selectText, signIn, useBrowser } from './browser.js';
import { fillTimeRange, hashParams, recordAnswers, reloadForAnswer, sortNewestThenOldest, wholeMinute } from './viewer-fixtures.js';

const LONG = 120_000;
/** Polls wait this long: the runner has two busy cores. */
const POLL = { timeout: 30_000 };

const tokens: Record<string, string> = {};
let cpMachine: TMachine;
let visibleMachine: TMachine;
let otherMachine: TMachine;
useBrowser();
beforeAll(async () => {
  for (const user of ['admin', 'operator']) tokens[user] = await apiToken(user);
  const all = (await api<TMachinesPage>('/machines?limit=1000', tokens.admin!)).items;
  cpMachine = all.find((m) => m.classId === CLASS_CUSTOMER_PRODUCTION)!;
  // A machine with more than one cloud instance and a historical state, visible to the operator.
  const states = await api<TVersionStatesViewerPage>('/version-states?state=Historical&limit=300', tokens.operator!);
  const withHistory = new Set(states.items.map((s) => s.machine.id));
  const visible = all.filter((m) => m.classId !== CLASS_CUSTOMER_PRODUCTION && m.accountId !== cpMachine.accountId && withHistory.has(m.id));
  visibleMachine = visible[0]!;
  otherMachine = visible.find((m) => m.accountId !== visibleMachine.accountId)!;
  expect(cpMachine?.classId).toBe(CLASS_CUSTOMER_PRODUCTION);
  expect(visibleMachine && withHistory.has(visibleMachine.id)).toBe(true);
  expect(otherMachine && otherMachine.accountId !== visibleMachine.accountId).toBe(true);
});
const openPage = pagesPerTest();

const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const sidebar = (page: Page) => page.locator('[aria-label="Main navigation"]');

/** Chooses a machine in the viewer's selector by typing its name (the list is virtual: not every option is rendered). */
async function chooseMachine(page: Page, machine: TMachine) {
  await page.getByLabel('Machine', { exact: true }).click();
  await page.keyboard.type(machine.name);
  await openDropdown(page).locator('.ant-select-item-option').filter({ hasText: `${machine.name} (` }).first().click();
}

/** Waits until the table shows `n` rows. */
const rowCount = (page: Page, n: number) => expect.poll(() => rows(page).count(), POLL).toBe(n);

describe('the /viewer shell', () => {
  it('redirects /viewer to the Issues viewer keeping machine, and the sidebar keeps machine between viewers', async () => {
    const { page } = await openPage();
    const lookups: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/v1/lookup/machines') lookups.push(req.url());
    });
    await signIn(page, 'admin', 'admin', `/viewer?machine=${visibleMachine.id}`);
    await page.waitForURL((url) => url.hash === `#/viewer/issues?machine=${visibleMachine.id}`);
    expect(lookups.length).toBeGreaterThan(0);

    await sidebar(page).getByRole('link', { name: 'Machines', exact: true }).click();
    await page.waitForURL((url) => url.hash === `#/viewer/machines?machine=${visibleMachine.id}`);
    await rowCount(page, 1);
    expect(await rows(page).first().innerText()).toContain(visibleMachine.name);
    expect(await selectText(page.locator('.ant-card'), 'Machine')).toContain(visibleMachine.name);

    // A new selection replaces machine in the URL and is kept on to the next viewer.
    await chooseMachine(page, otherMachine);
    await page.waitForURL((url) => url.hash === `#/viewer/machines?machine=${otherMachine.id}`);
    await expect.poll(() => rows(page).first().innerText(), POLL).toContain(otherMachine.name);
    await sidebar(page).getByRole('link', { name: 'States', exact: true }).click();
    await page.waitForURL((url) => url.hash === `#/viewer/states?machine=${otherMachine.id}`);
    await expect.poll(async () => new Set(await rows(page).locator('td:nth-child(1)').allInnerTexts()), POLL).toEqual(new Set([otherMachine.name]));
    // Outside the viewers the sidebar links carry nothing.
    await sidebar(page).getByRole('link', { name: 'Activity Logs' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/activity'));
    await expect.poll(() => sidebar(page).getByRole('link', { name: 'Cloud Instances' }).getAttribute('href'), POLL).toBe('#/viewer/cloud-instances');
  }, LONG);
});

describe('Machines viewer', () => {
  it('pages on the server with the page in the URL; admin sees Customer Production machines, the operator does not', async () => {
    // The fleet-wide total is counted at most VIEWER_COUNT_AHEAD rows past the page ("at least" past that).
    const totalText = async (token: string, startIndex: number) => {
      const answer = await api<TMachinesPage>(`/machines?limit=20&startIndex=${startIndex}`, token);
      return `${answer.totalCapped ? 'at least ' : ''}${answer.totalItems}`;
    };
    const counted = async (token: string) => (await api<TMachinesPage>('/machines?limit=300', token)).totalItems;
    expect(await counted(tokens.operator!)).toBeLessThan(await counted(tokens.admin!));

    for (const user of ['admin', 'operator'] as const) {
      const first = await totalText(tokens[user]!, 0);
      const third = await totalText(tokens[user]!, 40);
      const { page } = await openPage();
      const requests: URL[] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (url.pathname === '/api/v1/machines') requests.push(url);
      });
      await signIn(page, user, user, '/viewer/machines');
      await rowCount(page, 20);
      await page.getByText(`1-20 of ${first} machines`).waitFor();
      const firstPage = await rows(page).first().innerText();
      await page.locator('.ant-pagination-item-3').click();
      await page.waitForURL((url) => url.hash.includes('page=3'));
      await expect.poll(() => rows(page).first().innerText(), POLL).not.toBe(firstPage);
      expect(Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ startIndex: '40', limit: '20' });
      await page.getByText(`41-60 of ${third} machines`).waitFor();
      // The Customer Production machine, by URL: the admin's row, the operator's empty table.
      await page.goto(`/#/viewer/machines?machine=${cpMachine.id}`);
      if (user === 'admin') {
        await rowCount(page, 1);
        expect(await rows(page).first().innerText()).toContain('Customer Production');
      } else {
        await page.getByText('No machines').waitFor();
        expect(await selectText(page.locator('.ant-card'), 'Machine')).toContain(`Machine ${cpMachine.id}`);
      }
    }
  }, LONG);

  it('sorts by name either way on the server, 50 a page with the size changer, all kept in the URL across a reload', async () => {
    const { page } = await openPage();
    const answers = recordAnswers<TMachinesPage>(page, '/machines');
    await signIn(page, 'operator', 'operator', '/viewer/machines');
    await rowCount(page, 20);
    const name = page.locator('.ant-table-thead th', { hasText: 'Name' });
    await name.click();
    await page.waitForURL(() => hashParams(page).get('sort') === 'name' && hashParams(page).get('order') === 'asc');
    await page.locator('.ant-table-thead th[aria-sort="ascending"]', { hasText: 'Name' }).waitFor();
    await name.click();
    await page.waitForURL(() => hashParams(page).get('order') === 'desc');
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '50 / page' }).click();
    await page.waitForURL(() => hashParams(page).get('size') === '50' && hashParams(page).get('sort') === 'name');

    const names = () => rows(page).locator('td:nth-child(1)').allInnerTexts();
    const expectRowsOfLastAnswer = async () => {
      await expect.poll(() => answers.at(-1)?.url.searchParams.get('limit'), POLL).toBe('50');
      const last = answers.at(-1)!;
      expect(Object.fromEntries(last.url.searchParams)).toMatchObject({ sort: 'name', order: 'desc', startIndex: '0', limit: '50' });
      const shown = (await last.body()).items;
      expect(shown).toHaveLength(50);
      expect(shown.some((m) => m.classId === CLASS_CUSTOMER_PRODUCTION)).toBe(false);
      const sorted = [...shown].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : b.id - a.id));
      expect(shown.map((m) => m.id)).toEqual(sorted.map((m) => m.id));
      await expect.poll(names, POLL).toEqual(shown.map((m) => m.name));
    };
    await expectRowsOfLastAnswer();
    await reloadForAnswer(page, answers);
    await expectRowsOfLastAnswer();
    expect(await page.locator('.ant-table-thead th[aria-sort="descending"]').innerText()).toContain('Name');
  }, LONG);
});

describe('States viewer', () => {
  it('switches among Current, Historical and Desired with the choice in the URL, 20 a page, 50 with the size changer', async () => {
    const { page } = await openPage();
    const requests: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/v1/version-states') requests.push(url);
    });
    await signIn(page, 'operator', 'operator', '/viewer/states');
    await rowCount(page, 20);
    expect(await page.getByRole('radio', { name: 'Current' }).isChecked()).toBe(true);
    expect(Object.fromEntries(requests.at(-1)!.searchParams)).toMatchObject({ state: 'Current', startIndex: '0', limit: '20' });
    const headers = await page.locator('.ant-table-thead th').allInnerTexts();
    // Components by their labels (issue 24 point 8), not their keys.
    for (const column of ['Machine', 'Class', 'Desired', 'Timestamp', 'Deployer', 'Site Master', 'Site Master Validator', 'Audit ChangeLog', 'Site Master backup', 'Launcher backup']) {
      expect(headers).toContain(column);
    }
    expect(headers).not.toContain('smchk');
    // Versions as `branch / hash`, times with their zone (the browser's: `UTC` or its offset).
    const siteMaster = headers.indexOf('Site Master') + 1;
    const versions = (await rows(page).locator(`td:nth-child(${siteMaster})`).allInnerTexts()).filter((t) => t.trim() !== '');
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(version.trim()).toMatch(/^\S+ \/ [0-9a-f]+$/);
    // A version's commit time is its tooltip (mounted at the first hover: LazyTooltip), with its zone.
    await rows(page).locator(`td:nth-child(${siteMaster}) span`).first().hover();
    expect((await page.getByRole('tooltip').innerText()).trim()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect((await rows(page).first().locator('td:nth-child(4)').innerText()).trim()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC([+-]\d{1,2}(:\d{2})?)?$/);
    // The operator's rows: no Customer Production machine.
    expect(await rows(page).locator('td:nth-child(2)').allInnerTexts()).not.toContain('Customer Production');

    const radios = page.getByRole('radiogroup', { name: 'Version states' });
    await radios.getByText('Historical', { exact: true }).click();
    await page.waitForURL((url) => hashParams(page).get('state') === 'historical' && !url.hash.includes('page='));
    await expect.poll(() => requests.at(-1)?.searchParams.get('state'), POLL).toBe('Historical');
    await rowCount(page, 20);
    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL(() => hashParams(page).get('page') === '2');
    await expect.poll(() => Object.fromEntries(requests.at(-1)!.searchParams), POLL).toMatchObject({ state: 'Historical', startIndex: '20' });

    await radios.getByText('Desired', { exact: true }).click();
    await page.waitForURL(() => hashParams(page).get('state') === 'desired' && hashParams(page).get('page') === null);
    await expect.poll(async () => new Set(await rows(page).locator('td:nth-child(3)').allInnerTexts()), POLL).toEqual(new Set(['Yes']));
    // A page size of 50 goes into the URL; reloading keeps the choice and the size.
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '50 / page' }).click();
    await page.waitForURL(() => hashParams(page).get('size') === '50');
    await rowCount(page, 50);
    await page.reload();
    await rowCount(page, 50);
    expect(await page.getByRole('radio', { name: 'Desired' }).isChecked()).toBe(true);
  }, LONG);
});

describe('States viewer: filters and order', () => {
  it('filters by class, component, branch and time, sorts oldest first on the server, all kept in the URL across a reload', async () => {
    const { page } = await openPage();
    // Other spec files change machines on the same server, so the rows are checked against
    // the page the server answered the console, and that page against the filters and the order.
    const answers = recordAnswers<TVersionStatesViewerPage>(page, '/version-states');
    await signIn(page, 'operator', 'operator', '/viewer/states');
    await rowCount(page, 20);
    const card = page.locator('.ant-card');
    await page.getByRole('radiogroup', { name: 'Version states' }).getByText('Historical', { exact: true }).click();
    await page.waitForURL(() => hashParams(page).get('state') === 'historical');
    await chooseOption(page, card.getByLabel('Class', { exact: true }), 'Internal Testing', { exact: true });
    await page.waitForURL(() => hashParams(page).get('class') === '2');
    await chooseOption(page, card.getByLabel('Component', { exact: true }), 'Site Master', { exact: true });
    await page.waitForURL(() => hashParams(page).get('component') === 'siteMaster');
    await chooseOption(page, card.getByLabel('Branch', { exact: true }), 'release/8.1', { exact: true });
    await page.waitForURL(() => hashParams(page).get('branch') === 'release/8.1');
    await expect.poll(() => answers.at(-1)?.url.searchParams.get('branch'), POLL).toBe('release/8.1');
    // From the minute of the fifth newest of those states, to an hour from now.
    const newest = (await answers.at(-1)!.body()).items;
    expect(newest.length).toBeGreaterThan(5);
    const from = wholeMinute(Date.parse(newest[4]!.timestamp));
    const to = wholeMinute(Date.now() + 3_600_000);
    await fillTimeRange(card, ['Time from', 'Time to'], [from, to]);
    await page.waitForURL(() => hashParams(page).get('from') === from && hashParams(page).get('to') === to);
    await sortNewestThenOldest(page, 'Timestamp', 'timestamp');

    const shownIds = () => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')));
    const expectRowsOfLastAnswer = async () => {
      await expect.poll(() => answers.at(-1)?.url.searchParams.get('order'), POLL).toBe('asc');
      const last = answers.at(-1)!;
      expect(Object.fromEntries(last.url.searchParams)).toMatchObject({
        state: 'Historical',
        classId: '2',
        component: 'siteMaster',
        branch: 'release/8.1',
        from,
        to,
        sort: 'timestamp',
        order: 'asc',
      });
      const shown = await last.body();
      expect(shown.items.length).toBeGreaterThanOrEqual(5);
      for (const s of shown.items) {
        expect(s).toMatchObject({ machineClassName: 'Internal Testing', current: false, components: { siteMaster: { branchName: 'release/8.1' } } });
        expect(s.timestamp >= from && s.timestamp <= to).toBe(true);
      }
      const times = shown.items.map((s) => s.timestamp);
      expect(times).toEqual([...times].sort());
      await expect.poll(shownIds, POLL).toEqual(shown.items.map((s) => String(s.id)));
      // The filtered component's column comes next to the timestamp.
      const headers = await page.locator('.ant-table-thead th').allInnerTexts();
      expect(headers[3]).toContain('Timestamp');
      expect(headers[4]!.trim()).toBe('Site Master');
    };
    await expectRowsOfLastAnswer();

    await reloadForAnswer(page, answers);
    await expectRowsOfLastAnswer();
    expect(await page.locator('.ant-table-thead th[aria-sort="ascending"]').innerText()).toContain('Timestamp');
    expect(await selectText(card, 'Class')).toContain('Internal Testing');
    expect(await selectText(card, 'Branch')).toContain('release/8.1');
    expect(await card.getByPlaceholder('Time from', { exact: true }).inputValue()).toBe(`${localDateTime(from)} ${shownZone(from)}`);

    // Desired states have no stored time: the radio drops the time range and the order.
    await page.getByRole('radiogroup', { name: 'Version states' }).getByText('Desired', { exact: true }).click();
    await page.waitForURL(() => hashParams(page).get('state') === 'desired' && !hashParams(page).has('from') && !hashParams(page).has('sort'));
    await expect.poll(() => answers.at(-1)?.url.searchParams.get('state'), POLL).toBe('Desired');
    expect(answers.at(-1)!.url.searchParams.has('from')).toBe(false);
    expect(await card.getByPlaceholder('Time from', { exact: true }).isDisabled()).toBe(true);
  }, LONG);
});

describe('Cloud Instances viewer', () => {
  it('pages 20 at a time, links compute host names, expands a row to its raw JSON; the operator sees no Customer Production instance', async () => {
    for (const user of ['admin', 'operator'] as const) {
      const expected = await api<TCloudInstancesPage>('/cloud-instance?limit=20', tokens[user]!);
      const { page } = await openPage();
      await signIn(page, user, user, '/viewer/cloud-instances');
      await rowCount(page, 20);
      await page.getByText(`1-20 of ${expected.totalCapped ? 'at least ' : ''}${expected.totalItems} cloud instances`).waitFor();
      const first = expected.items[0]!;
      const link = rows(page).first().getByRole('link', { name: first.hostName });
      expect(await link.getAttribute('href')).toBe(`http://${first.hostName}`);

      await rows(page).first().getByRole('button', { name: /expand row/i }).click();
      const json = page.locator('.ant-table-expanded-row pre');
      await json.waitFor();
      expect(JSON.parse(await json.innerText())).toEqual(first);

      await page.goto(`/#/viewer/cloud-instances?machine=${cpMachine.id}`);
      if (user === 'operator') {
        await page.getByText('No cloud instances').waitFor();
      } else {
        // The Machine column shows the class under the name.
        const classes = async () => new Set((await rows(page).locator('td:nth-child(2)').allInnerTexts()).map((text) => text.split('\n').at(-1)));
        await expect.poll(classes, POLL).toEqual(new Set(['Customer Production']));
      }
    }
  }, LONG);

  it('filters by class, state and active and sorts oldest first on the server, all kept in the URL across a reload', async () => {
    const { page } = await openPage();
    // Other spec files start and stop machines on the same server, so the rows
    // are checked against the page the server answered the console, and that
    // page against the filters and the order.
    const answers = recordAnswers<TCloudInstancesPage>(page, '/cloud-instance');
    await signIn(page, 'operator', 'operator', '/viewer/cloud-instances');
    await rowCount(page, 20);
    const card = page.locator('.ant-card');
    await chooseOption(page, card.getByLabel('Class', { exact: true }), 'Internal Testing', { exact: true });
    await page.waitForURL((url) => hashParams(page).get('class') === '2' && url.hash.includes('class=2'));
    await chooseOption(page, card.getByLabel('Active', { exact: true }), 'Active', { exact: true });
    await page.waitForURL(() => hashParams(page).get('active') === 'true');
    await chooseOption(page, card.getByLabel('Status', { exact: true }), 'running', { exact: true });
    await page.waitForURL(() => hashParams(page).get('status') === 'running');
    // The first click sorts by launch time newest first, the second oldest first.
    await sortNewestThenOldest(page, 'Timestamp', 'timestamp');

    const cloudIds = () => rows(page).locator('td:nth-child(5)').allInnerTexts();
    const expectRowsOfLastAnswer = async () => {
      await expect.poll(() => answers.at(-1)?.url.searchParams.get('order'), POLL).toBe('asc');
      const last = answers.at(-1)!;
      expect(Object.fromEntries(last.url.searchParams)).toMatchObject({ classId: '2', active: 'true', status: 'running', sort: 'timestamp', order: 'asc' });
      const shown = await last.body();
      expect(shown.items.length).toBeGreaterThan(0);
      for (const c of shown.items) expect(c).toMatchObject({ machineClassName: 'Internal Testing', active: true, status: 'running' });
      const times = shown.items.map((c) => c.timestamp);
      expect(times).toEqual([...times].sort());
      await expect.poll(cloudIds, POLL).toEqual(shown.items.map((c) => c.cloudId));
    };
    await expectRowsOfLastAnswer();

    await reloadForAnswer(page, answers);
    await expectRowsOfLastAnswer();
    expect(await page.locator('.ant-table-thead th[aria-sort="ascending"]').innerText()).toContain('Timestamp');
    expect(await selectText(card, 'Class')).toContain('Internal Testing');
  }, LONG);
});
