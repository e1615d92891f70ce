/**
 * The Notifications screen (issue 28 point 3) in Chromium against the real
 * server and its worker: the admin adds a webhook channel pointing to a local
 * receiver started here, is shown its signing secret once, clicks 'Send test
 * message', and the receiver gets the signed test message while the recent
 * deliveries show it Sent; edits the channel to point at a path where the
 * receiver fails, and the deliveries show the next test message Retrying with
 * the receiver's error. The operator has no Notifications entry and is sent
 * away from the route. The channel is removed after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TNotificationChannel } from '@fleet/contracts';
import { signatureVerifies, startReceiver, type Receiver } from '../packages/server/test/notification-receiver.js';
import { adminToken, api, expectAccessible, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();
const sidebar = (page: Page) => page.locator('[aria-label="Main navigation"]');

/** The path the channel is edited to point at, where the receiver is told to fail. */
const FAILING_PATH = '/fleet-hook-broken';
let receiver: Receiver;
let receiverUrl: string;
/** The channels' names start with it (removed after); each attempt names its own, so that a retry never finds the first one's. */
const PREFIX = `E2E receiver ${process.pid}`;

beforeAll(async () => {
  receiver = await startReceiver();
  receiverUrl = `${receiver.url}/fleet-hook`;
});
afterAll(async () => {
  const channels = await api<TNotificationChannel[]>('/notification-channels', adminToken);
  for (const c of channels.filter((c) => c.name.startsWith(PREFIX))) await api(`/notification-channels/${c.id}`, adminToken, { method: 'DELETE' });
  await receiver.close();
});

describe('Notifications as admin', () => {
  it('adds a webhook channel, sends a test message, and shows it delivered', async () => {
    // A retried attempt starts from a receiver that answers 200 and has seen nothing.
    receiver.failWith(null);
    receiver.requests.length = 0;
    const NAME = `${PREFIX} ${Date.now()}`;
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/notifications');
    await sidebar(page).getByRole('link', { name: 'Notifications' }).waitFor();

    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add channel' });
    await dialog.getByLabel('Name').fill(NAME);
    await dialog.getByLabel('URL').fill('ftp://nowhere.example/');
    await dialog.getByLabel('Name').click();
    await expect.poll(() => dialog.getByText('URL must be an http(s) URL').isVisible()).toBe(true);
    await dialog.getByLabel('URL').fill(receiverUrl);
    await dialog.getByRole('button', { name: 'Add channel' }).click();
    await expect.poll(() => dialog.getByText('Copy the signing secret now: it is not shown again.').isVisible()).toBe(true);
    const secret = (await dialog.locator('.ant-typography code').last().innerText()).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.locator('.ant-table-tbody tr[data-row-key]').filter({ hasText: NAME });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getByText(receiverUrl).isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Send test message' }).click();

    await receiver.waitFor((requests) => requests.length === 1, 30_000);
    const [message] = receiver.requests;
    expect(signatureVerifies(message!, secret)).toBe(true);
    expect(JSON.parse(message!.body)).toMatchObject({ event: 'Test', title: 'Test message from Fleet Console' });

    const deliveries = page.locator('.ant-card').filter({ hasText: 'Recent deliveries' });
    const delivered = deliveries.locator('.ant-table-tbody tr[data-row-key]').filter({ hasText: NAME }).first();
    await expect.poll(() => delivered.getByText('Sent', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expectAccessible(page, 'Notifications');

    // Edited to a path where the receiver fails: renamed, the kind fixed, and the next message shown retrying with its error.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit channel' });
    expect(await edit.getByLabel('URL').inputValue()).toBe(receiverUrl);
    expect(await edit.getByLabel('Kind').isDisabled()).toBe(true);
    await edit.getByLabel('Name').fill(`${NAME} (broken)`);
    await edit.getByLabel('URL').fill(`${receiver.url}${FAILING_PATH}`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    const edited = page.locator('.ant-table-tbody tr[data-row-key]').filter({ hasText: `${NAME} (broken)` });
    await expect.poll(() => edited.getByText(`${receiver.url}${FAILING_PATH}`).isVisible()).toBe(true);
    receiver.failWith(500);
    await edited.getByRole('button', { name: 'Send test message' }).click();
    await receiver.waitFor((requests) => requests.some((r) => r.path === FAILING_PATH), 30_000);
    const failing = deliveries.locator('.ant-table-tbody tr[data-row-key]').filter({ hasText: `${NAME} (broken)` }).first();
    await expect.poll(() => failing.getByText('Retrying', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await failing.getByText('HTTP 500 Internal Server Error').isVisible()).toBe(true);
  });
});

describe('Notifications as operator', () => {
  it('is not offered, and its route sends the operator away', async () => {
    const { page } = await openPage();
    await signIn(page, 'operator');
    await sidebar(page).getByRole('link', { name: 'Activity Logs' }).waitFor();
    expect(await sidebar(page).getByRole('link', { name: 'Notifications' }).count()).toBe(0);
    await page.goto('/#/notifications');
    await page.waitForURL((url) => url.hash.startsWith('#/account/list'));
  });
});
