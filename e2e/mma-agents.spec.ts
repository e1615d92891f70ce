/**
 * Remote MMAs on the MMA screen (issue 27 point 1; DESIGN §17) in Chromium
 * against the real server: as admin, 'Register an MMA' for class Experimental
 * shows the registration token once with the address an MMA exchanges it at; an MMA
 * (the API call it makes) exchanges it, and the Registered MMAs table shows it
 * Connected; the class switched to 'Remote MMAs' in Edit MMA Class shows
 * 'Remote · 1 connected'; Revoke, after its confirmation, refuses the MMA's
 * next call. As operator: the list, and neither Register nor Revoke. The class
 * is put back to simulated after.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLASS_EXPERIMENTAL, type TMmaAgentRegisterResponse, type TMmaClass } from '@fleet/contracts';
import { adminToken, api, baseUrl, browser, chooseOption, expectAccessible, pagesPerTest, signIn, updateMmaClass, useBrowserAndAdmin } from './browser.js';

useBrowserAndAdmin();
const openPage = pagesPerTest(() => browser);
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();
const agentRow = (page: Page, host: string) => page.locator('.mma-agents-table .ant-table-tbody tr[data-row-key]').filter({ hasText: host });
const classRow = (page: Page, id: number) => page.locator(`.mma-classes-table .ant-table-tbody tr[data-row-key="${id}"]`);

afterAll(() => updateMmaClass(CLASS_EXPERIMENTAL, { mode: 'simulated' }));

/** What the MMA process does with the token: `POST /mma-agent/register`; the raw answer. */
async function registerAs(token: string, host: string) {
  return fetch(`${baseUrl()}/api/v1/mma-agent/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, host, version: '1.0.0' }),
  });
}
const whoami = (token: string) => fetch(`${baseUrl()}/api/v1/mma-agent/whoami`, { headers: { authorization: `Bearer ${token}` } });

describe('registered MMAs as admin', () => {
  it('registers an MMA with a token shown once, shows it connected, runs the class remote, and revokes it after a confirmation', async () => {
    const host = `e2e-${Date.now().toString(36)}.fleet.example`;
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/mma');
    await page.getByRole('button', { name: 'Register an MMA' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register an MMA' });
    await chooseOption(page, dialog.getByRole('combobox', { name: 'MMA class' }), 'Experimental', { exact: true });
    await dialog.getByRole('button', { name: 'Create registration token' }).click();
    await dialog.getByText('Copy the token now: it is not shown again.').waitFor();
    const token = (await dialog.locator('code').first().innerText()).trim();
    expect(token).toMatch(/^mmar_[A-Za-z0-9_-]{43}$/);
    expect(await dialog.locator('code').nth(1).innerText()).toBe(`${baseUrl()}/api/v1/mma-agent/register`);
    await expectAccessible(page, 'Register an MMA dialog', { within: '.ant-modal' });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The MMA exchanges the token (once): the table shows it Connected within its 10 s refresh.
    const registered = await registerAs(token, host);
    expect(registered.status).toBe(200);
    const agent = (await registered.json()) as TMmaAgentRegisterResponse;
    expect((await registerAs(token, `again-${host}`)).status).toBe(401);
    await expect.poll(() => agentRow(page, host).innerText(), { timeout: 20_000 }).toContain('Connected');
    const text = await agentRow(page, host).innerText();
    expect(text).toContain('Experimental');
    expect(text).toContain(`mmat_${agent.token.slice(5, 13)}`);
    expect(text).toContain('token by admin');

    // Edit MMA Class: runs operations on remote MMAs.
    await classRow(page, CLASS_EXPERIMENTAL).getByRole('button', { name: 'Edit Experimental' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit MMA Class' });
    await edit.getByRole('radio', { name: 'Remote MMAs' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'MMA class updated').waitFor();
    await expect.poll(() => classRow(page, CLASS_EXPERIMENTAL).innerText()).toContain('Remote · 1 connected');
    const saved = (await api<TMmaClass[]>('/mma/classes', adminToken)).find((c) => c.id === CLASS_EXPERIMENTAL)!;
    expect(saved.mmaInstance!.mode).toBe('remote');

    // Revoke: nothing happens on Cancel; after Revoke the MMA's next call is refused.
    await agentRow(page, host).getByRole('button', { name: `Revoke ${host}` }).click();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: `Revoke the credential of ${host}?` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await whoami(agent.token)).status).toBe(200);
    await agentRow(page, host).getByRole('button', { name: `Revoke ${host}` }).click();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await toast(page, `The credential of ${host} was revoked`).waitFor();
    await expect.poll(() => agentRow(page, host).innerText()).toContain('Revoked by admin');
    expect(await agentRow(page, host).getByRole('button', { name: `Revoke ${host}` }).count()).toBe(0);
    expect((await whoami(agent.token)).status).toBe(401);
    await expect.poll(() => classRow(page, CLASS_EXPERIMENTAL).innerText(), { timeout: 20_000 }).toContain('Remote · 0 connected');
  });
});

describe('registered MMAs as operator', () => {
  it('lists them without Register or Revoke (the server refuses both too)', async () => {
    const { page } = await openPage();
    await signIn(page, 'operator', 'operator', '/mma');
    await page.getByText('Registered MMAs').waitFor();
    await page.locator('.mma-agents-table .ant-table-tbody tr:not(.ant-table-measure-row)').first().waitFor();
    expect(await page.getByRole('button', { name: 'Register an MMA' }).count()).toBe(0);
    expect(await page.locator('.mma-agents-table').getByRole('button', { name: /^Revoke / }).count()).toBe(0);
    const refused = await page.evaluate(async (url) => {
      const token = localStorage.getItem('fleet.token');
      const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      return res.status;
    }, `${baseUrl()}/api/v1/mma/classes/${CLASS_EXPERIMENTAL}/registration-tokens`);
    expect(refused).toBe(403);
  });
});
