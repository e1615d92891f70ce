/**
 * The MMA screen (spec 3 §2.7, §2.9, §6, §8, §9; DESIGN §12) in Chromium against
 * the real server and its agent: as admin, the Internal Testing class (seeded on
 * standby) highlighted, edited with a jump-start image (its deployer version
 * copied) and standby switched off, which starts an operation that was waiting
 * and removes the top bar's standby banner; as operator without
 * CustomerProductionAccess, no edit of Customer Production (and the server
 * refuses it); as viewer, read-only. The class is put back on standby after.
 * Change windows (issue 25 point 5): one added to Customer Staging in the dialog
 * (starting in the browser's zone), refused while its end is before its start,
 * saved, shown in the table and read back from the server; removed after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  CLASS_CUSTOMER_PRODUCTION,
  CLASS_CUSTOMER_STAGING,
  CLASS_INTERNAL_TESTING,
  type TListMachinesResponse,
  type TMmaClass,
  type TOperationListResponse,
  type TQueuedOperationsResponse,
  type TSaasImage,
  type TTaskListResponse,
} from '@fleet/contracts';
import {
  adminToken,
  api,
  apiToken,
  chooseOption,
  createAccount,
  expectAccessible,
  NO_SOFTWARE,
  mmaClassBody,
  openDropdown,
  pagesPerTest,
  signIn,
  updateMmaClass,
  useBrowserAndAdmin,
} from './browser.js';

const LIVE_TIMEOUT = 90_000;

/** Internal Testing as seeded, to put back after the spec (the shell spec expects its standby banner). */
let seeded: TMmaClass;
useBrowserAndAdmin();
beforeAll(async () => {
  seeded = (await classes()).find((c) => c.id === CLASS_INTERNAL_TESTING)!;
});
afterAll(() => api(`/mma/classes/${CLASS_INTERNAL_TESTING}`, adminToken, { method: 'PUT', body: JSON.stringify(mmaClassBody(seeded)) }));
const openPage = pagesPerTest();

const classes = () => api<TMmaClass[]>('/mma/classes', adminToken);
// The classes table's rows (the registered MMAs' table below it has rows keyed by id too).
const row = (page: Page, name: string) =>
  page.locator('.mma-classes-table .ant-table-tbody tr[data-row-key]').filter({ has: page.getByRole('cell', { name, exact: false }) }).first();
const rowOf = (page: Page, id: number) => page.locator(`.mma-classes-table .ant-table-tbody tr[data-row-key="${id}"]`);
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

describe('MMA as admin', () => {
  it('edits Internal Testing with a jump-start image and switches standby off, which starts a waiting operation', async () => {
    expect(seeded.mmaInstance!.standby, 'the demo seeds Internal Testing on standby').toBe(true);
    // A machine of the class with an operation held by standby.
    const accountId = await createAccount(adminToken, 'MMA standby', { classId: CLASS_INTERNAL_TESTING, machineConfig: NO_SOFTWARE });
    const [machine] = (await api<TListMachinesResponse>(`/accounts/${accountId}/machines`, adminToken)).items;
    await expect
      .poll(async () => (await api<TTaskListResponse>(`/machines/${machine!.id}/tasks`, adminToken)).items.find((t) => t.type === 'CreateMachine')?.status, {
        timeout: LIVE_TIMEOUT,
        interval: 500,
      })
      .toBe('Completed');
    const queued = await api<TQueuedOperationsResponse>(`/machines/${machine!.id}/queue-operations`, adminToken, { method: 'POST', body: JSON.stringify({ operations: ['SmokeTest'] }) });
    const opId = queued.operations[0]!.id;
    const operation = async () => (await api<TOperationListResponse>(`/machines/${machine!.id}/operations?limit=100`, adminToken)).items.find((o) => o.id === opId)!;
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await operation()).startTime, 'held by standby').toBeNull();

    const image = (await api<TSaasImage[]>('/cloud/images', adminToken)).find((i) => i.jumpStart && i.jumpStartConfig?.deployer && i.name !== seeded.image)!;
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/mma');
    const testing = rowOf(page, CLASS_INTERNAL_TESTING);
    await testing.waitFor();
    expect(await testing.getAttribute('class')).toContain('mma-standby-row');
    await page.getByRole('link', { name: /on standby/ }).waitFor();
    expect(await rowOf(page, CLASS_CUSTOMER_PRODUCTION).innerText()).toContain('PROD');
    await expectAccessible(page, 'MMA');

    await testing.getByRole('button', { name: 'Edit Internal Testing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit MMA Class' });
    await dialog.waitFor();
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(600);
    await chooseOption(page, dialog.getByLabel('Image'), image.name);
    expect(await dialog.getByLabel('Deployer Version').inputValue()).toBe(image.jumpStartConfig!.deployer);
    await dialog.getByLabel('Priority Group').fill('4');
    await dialog.getByRole('switch').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'MMA class updated').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    await expect.poll(async () => testing.getAttribute('class')).not.toContain('mma-standby-row');
    expect(await testing.innerText()).toContain(image.name);
    // The deployer commit as `branch / hash` (issue 24 point 8); the class stores `branch|hash`.
    expect(await testing.innerText()).toContain(image.jumpStartConfig!.deployer!.replace('|', ' / '));
    expect(await testing.innerText()).toMatch(/updated .*ago/);
    await page.getByRole('link', { name: /on standby/ }).waitFor({ state: 'detached' });
    const updated = (await classes()).find((c) => c.id === CLASS_INTERNAL_TESTING)!;
    expect(updated).toMatchObject({ image: image.name, mmaInstance: { standby: false, priorityGroup: 4, deployerVer: image.jumpStartConfig!.deployer } });

    await expect.poll(async () => (await operation()).startTime, { timeout: LIVE_TIMEOUT, interval: 500 }).not.toBeNull();
  }, 240_000);
});

describe('change windows (issue 25 point 5)', () => {
  /** Customer Staging without windows again, as seeded. */
  const clearWindows = () => updateMmaClass(CLASS_CUSTOMER_STAGING, { changeWindows: [] });

  afterAll(clearWindows);

  it('adds a window to Customer Staging in the dialog, shows it in the table, and the server has it', async () => {
    await clearWindows();
    const { page } = await openPage({ timezoneId: 'Asia/Tokyo' });
    await signIn(page, 'admin', 'admin', '/mma');
    const staging = rowOf(page, CLASS_CUSTOMER_STAGING);
    await staging.getByText('Any time').waitFor();

    await staging.getByRole('button', { name: 'Edit Customer Staging' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit MMA Class' });
    await dialog.getByText('No windows: rollouts may deploy at any time').waitFor();
    await dialog.getByRole('button', { name: 'Add window' }).click();
    const added = dialog.getByRole('group', { name: 'Change window 1' });
    // A new window starts in the browser's zone.
    expect(await added.locator('.ant-select').innerText()).toContain('Asia/Tokyo');
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(600);
    await expectAccessible(page, 'Edit MMA Class with a change window', { within: '.ant-modal' });

    await added.getByRole('checkbox', { name: 'Sat' }).check();
    await added.getByLabel('Start').fill('01:30');
    await added.getByLabel('End').fill('01:00');
    await added.getByLabel('End').blur();
    await added.getByText('End must be after start: a window never crosses midnight (split it in two)').waitFor();
    await added.getByLabel('End').fill('04:00');
    await added.getByLabel('Time zone').click();
    await page.keyboard.type('Europe/Berl');
    await openDropdown(page).locator('.ant-select-item-option', { hasText: 'Europe/Berlin' }).first().click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'MMA class updated').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    await staging.getByText('Mon–Sat 01:30–04:00 Europe/Berlin').waitFor();
    expect((await classes()).find((c) => c.id === CLASS_CUSTOMER_STAGING)!.changeWindows).toEqual([
      { days: [1, 2, 3, 4, 5, 6], start: '01:30', end: '04:00', timeZone: 'Europe/Berlin' },
    ]);
  }, 120_000);
});

describe('MMA as operator and viewer', () => {
  it('offers no edit of Customer Production to an operator without the group, and the server refuses it', async () => {
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', '/mma');
    await rowOf(page, CLASS_CUSTOMER_PRODUCTION).waitFor();
    expect(await rowOf(page, CLASS_CUSTOMER_PRODUCTION).getByRole('button').count()).toBe(0);
    await row(page, 'Experimental').getByRole('button', { name: 'Edit Experimental' }).waitFor();
    const cp = (await classes()).find((c) => c.id === CLASS_CUSTOMER_PRODUCTION)!;
    const body = { name: cp.name, deployerVersion: cp.mmaInstance!.deployerVer, standby: true, priorityGroup: 0, caaHost: null };
    await expect(api(`/mma/classes/${CLASS_CUSTOMER_PRODUCTION}`, await apiToken('operator'), { method: 'PUT', body: JSON.stringify(body) })).rejects.toThrow(/: 403 /);
    expect((await classes()).find((c) => c.id === CLASS_CUSTOMER_PRODUCTION)).toEqual(cp);
  });

  it('shows the viewer the classes read-only', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', '/mma');
    await rowOf(page, CLASS_CUSTOMER_PRODUCTION).waitFor();
    expect(await page.locator('.ant-table-tbody').getByRole('button').count()).toBe(0);
  });
});
