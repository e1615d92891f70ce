/**
 * The Library Manager in the console (spec 3 §2.6, §5, §8, §9) in Chromium
 * against the real server and its object store (the demo seed fills the cloud
 * library): as admin, syncing a cloud library file through the Sync library
 * files dialog (850 px, Sync enabled only with a selection) and deleting it
 * after the S3 confirmation; as viewer, the read-only table.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TCloudLibraryFile, TListLibraryFilesResponse } from '@fleet/contracts';
import { adminToken, api, apiToken, expectAccessible, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

const FILE = 'Core_Dev_8.2.2.zip';
const cloudNames = async () => (await api<TCloudLibraryFile[]>('/library/cloud-files', adminToken)).map((f) => f.name);
const libraryNames = async () => (await api<TListLibraryFilesResponse>('/library/files?limit=1000', adminToken)).items.map((f) => f.name);
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();
/** The toolbar's Delete (the selected files). */
const deleteSelected = (page: Page) => page.locator('.ant-card-extra').getByRole('button', { name: /Delete/ });
const row = (page: Page, name: string) => page.locator('.ant-card .ant-table-tbody tr[data-row-key]').filter({ hasText: name });

describe('Library Manager as admin', () => {
  it('syncs a cloud library file, then deletes it with its object after the S3 confirmation', async () => {
    expect(await cloudNames()).toContain(FILE);
    const { page } = await openPage({ height: 900 });
    await signIn(page, 'admin', 'admin', '/library-manager');
    await page.locator('.ant-card .ant-table-tbody tr[data-row-key]').first().waitFor();
    // The table's body is at most the window's height minus 300 px.
    const region = page.getByRole('region', { name: 'Library files' });
    expect(await region.evaluate((el) => parseFloat(getComputedStyle(el).maxHeight))).toBe(600);
    expect(await deleteSelected(page).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Sync library files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sync library files' });
    await dialog.getByText(FILE).waitFor();
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(850);
    await expectAccessible(page, 'Sync library files dialog', { within: '.ant-modal' });
    const sync = dialog.getByRole('button', { name: 'Sync' });
    expect(await sync.isDisabled()).toBe(true);
    await dialog.locator('tr').filter({ hasText: FILE }).getByRole('checkbox').check();
    expect(await sync.isEnabled()).toBe(true);
    await sync.click();
    await toast(page, 'Library file(s) synced').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, FILE).waitFor();
    await expect.poll(cloudNames).not.toContain(FILE);
    expect(await row(page, FILE).innerText()).toContain('admin');

    await row(page, FILE).getByRole('checkbox').check();
    expect(await deleteSelected(page).innerText()).toContain('Delete (1)');
    await deleteSelected(page).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Deleting library file(s) will also delete files from S3. Are you sure you want to continue?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Library file(s) deleted').waitFor();
    await row(page, FILE).waitFor({ state: 'detached' });
    expect(await libraryNames()).not.toContain(FILE);
    // No library file has its url now: the cloud library offers it again.
    expect(await cloudNames()).toContain(FILE);
  });
});

describe('Library Manager as viewer', () => {
  it('shows the library read-only: no selection, sync or delete, and the server refuses a delete', async () => {
    const { page } = await openPage();
    await signIn(page, 'viewer', 'viewer', '/library-manager');
    await page.locator('.ant-card .ant-table-tbody tr[data-row-key]').first().waitFor();
    expect(await page.getByRole('button', { name: 'Sync library files' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    expect(await page.locator('.ant-card .ant-table-tbody').getByRole('checkbox').count()).toBe(0);
    await expectAccessible(page, 'Library Manager');
    const [first] = (await api<TListLibraryFilesResponse>('/library/files?limit=1', adminToken)).items;
    await expect(api(`/library/files/${first!.id}`, await apiToken('viewer'), { method: 'DELETE' })).rejects.toThrow(/: 403 /);
  });
});
