/**
 * Download Keys and Download CAA Key of the Instance Settings card (spec 1 §2,
 * §7 `/files/keys`, `/files/caa-key`, §8) in Chromium against the real server:
 * the keys zip holds a matching key pair, the CAA key file holds its key, a
 * failed download shows 'Error occurred downloading license keys', and a viewer
 * cannot download keys.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TAccountDetail } from '@fleet/contracts';
import { adminToken, api, apiToken, pagesPerTest, createAccount, signIn, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();

const instanceCard = (page: Page) => page.getByRole('region', { name: 'Instance Settings' });

async function openAccount(page: Page, user: string, id: number) {
  await signIn(page, user, user, `/account/edit/${id}`);
  await instanceCard(page).getByLabel('Marketing version').waitFor({ timeout: 40_000 });
}

describe('account keys', () => {
  it('downloads the keys zip with a matching key pair and the CAA key', async () => {
    const id = await createAccount(adminToken, 'Keys');
    const account = await api<TAccountDetail>(`/accounts/${id}`, adminToken);
    const { page } = await openPage();
    await openAccount(page, 'admin', id);
    const [zip] = await Promise.all([page.waitForEvent('download'), instanceCard(page).getByRole('button', { name: 'Download Keys' }).click()]);
    expect(zip.suggestedFilename()).toBe(`${account.urlFriendlyName} keys.zip`);
    const files = Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(await readFile((await zip.path())!)))).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
    expect(Object.keys(files).sort()).toEqual(['keys.json', 'private.pem', 'public.pem']);
    const derived = createPublicKey(createPrivateKey(files['private.pem']!)).export({ type: 'spki', format: 'pem' });
    expect(derived).toBe(createPublicKey(files['public.pem']!).export({ type: 'spki', format: 'pem' }));

    const [caa] = await Promise.all([page.waitForEvent('download'), instanceCard(page).getByRole('button', { name: 'Download CAA Key' }).click()]);
    expect(caa.suggestedFilename()).toBe(`${account.urlFriendlyName} caa-account.txt`);
    const text = await readFile((await caa.path())!, 'utf8');
    expect(text).toContain('-----BEGIN PRIVATE KEY-----');
    expect(text).toContain('-----BEGIN PUBLIC KEY-----');
  });

  it('shows the error toast when a download fails', async () => {
    const id = await createAccount(adminToken, 'Keys Fault');
    const { page } = await openPage();
    await openAccount(page, 'admin', id);
    await page.route(`**/api/v1/accounts/${id}/files/keys`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ status: 503, title: 'Service Unavailable' }) }),
    );
    await instanceCard(page).getByRole('button', { name: 'Download Keys' }).click();
    await page.getByText('Error occurred downloading license keys').waitFor();
  });

  it('offers a viewer no key download, and the server refuses it', async () => {
    const id = await createAccount(adminToken, 'Keys Viewer');
    const { page } = await openPage();
    await openAccount(page, 'viewer', id);
    const button = instanceCard(page).getByRole('button', { name: 'Download Keys' });
    expect((await button.count()) === 0 || (await button.isDisabled())).toBe(true);
    const viewerToken = await apiToken('viewer');
    await expect(api(`/accounts/${id}/files/keys`, viewerToken)).rejects.toThrow(/: 403 /);
  });
});
