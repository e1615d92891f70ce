/**
 * Remote MMAs on the MMA screen (issue 27; DESIGN §17) in Chromium against the
 * real server and a real reference MMA process (`packages/mma`): as admin,
 * 'Register an MMA' for class Experimental shows the registration token once
 * with the address an MMA exchanges it at; the MMA started with it registers
 * (the token works once) and the Registered MMAs table shows it Connected; the
 * class switched to 'Remote MMAs' in Edit MMA Class shows 'Remote · 1
 * connected'; a SmokeTest queued on a machine of the class is run by the MMA's
 * script, its output growing on the operation's page while it runs; Revoke,
 * after its confirmation, refuses the MMA's next call and the process exits.
 * As operator: the list, and neither Register nor Revoke. The class is put
 * back to simulated after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLASS_EXPERIMENTAL, type TMmaAgentsResponse, type TMmaClass } from '@fleet/contracts';
import { adminToken, api, baseUrl, chooseOption, expectAccessible, pagesPerTest, signIn, updateMmaClass, useBrowserAndAdmin } from './browser.js';
import { finished, LONG, newMachine, queue } from './operations-fixtures.js';

useBrowserAndAdmin();
const openPage = pagesPerTest();
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();
const agentRow = (page: Page, host: string) => page.locator('.mma-agents-table .ant-table-tbody tr[data-row-key]').filter({ hasText: host });
const classRow = (page: Page, id: number) => page.locator(`.mma-classes-table .ant-table-tbody tr[data-row-key="${id}"]`);
const root = new URL('..', import.meta.url).pathname;

let dir: string | undefined;
let mma: ChildProcess | undefined;
afterAll(async () => {
  if (mma && mma.exitCode === null) mma.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
  await updateMmaClass(CLASS_EXPERIMENTAL, { mode: 'simulated' });
});

/**
 * The MMA's configuration: its host name, and a SmokeTest script whose lines
 * come a second apart (about 10 s); while the file `slow` exists beside it, the
 * script waits two minutes first (an operation to cancel while it runs).
 */
const mmaConfig = (host: string, folder: string) => `
host: ${host}
heartbeatSeconds: 2
executors:
  SmokeTest:
    kind: script
    shell: bash
    env:
      SLOW_FLAG: ${join(folder, 'slow')}
    command: |
      echo "remote smoke on $FLEET_MACHINE_NAME"
      if [ -f "$SLOW_FLAG" ]; then echo "waiting for the slow check"; sleep 120; fi
      for step in $(seq 1 10); do echo "check $step of 10 passed"; echo "::deployer:: step $step"; sleep 1; done
      echo "remote smoke done"
`;

/** The reference MMA process, started with `token`; its output, and its exit code once it ends. */
async function startMma(token: string, host: string) {
  dir = await mkdtemp(join(tmpdir(), 'fleet-e2e-mma-'));
  await writeFile(join(dir, 'mma.yaml'), mmaConfig(host, dir));
  const output: string[] = [];
  mma = spawn(process.execPath, ['--import', 'tsx', 'packages/mma/src/cli.ts', '--server', baseUrl(), '--token', token, '--config', join(dir, 'mma.yaml'), '--state', join(dir, 'state.json')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  mma.stdout!.on('data', (d) => output.push(String(d)));
  mma.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => mma!.once('exit', (code) => resolve(code)));
  return { output, exited, credential: async () => (JSON.parse(await readFile(join(dir!, 'state.json'), 'utf8')) as { token: string }).token };
}
const whoami = (token: string) => fetch(`${baseUrl()}/api/v1/mma-agent/whoami`, { headers: { authorization: `Bearer ${token}` } });

describe('registered MMAs as admin', () => {
  it('registers a real MMA with a token shown once, shows it connected, runs an operation on it with its output live, and revokes it', async () => {
    // A retry starts clean: the first attempt's MMA stopped and revoked.
    if (mma && mma.exitCode === null) mma.kill('SIGKILL');
    const { items } = await api<TMmaAgentsResponse>('/mma/agents', adminToken);
    for (const a of items.filter((x) => x.mmaClassId === CLASS_EXPERIMENTAL && !x.revokedAt)) {
      await api(`/mma/agents/${a.id}/revoke`, adminToken, { method: 'POST' });
    }
    const host = `e2e-${Date.now().toString(36)}.fleet.example`;
    // A machine of the class, made while the class still runs its operations simulated (its launch and first deploy).
    const machine = await newMachine('MMA Remote', CLASS_EXPERIMENTAL);
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
    const process = await startMma(token, host);
    await expect.poll(() => agentRow(page, host).innerText(), { timeout: 30_000 }).toContain('Connected');
    const credential = await process.credential();
    const text = await agentRow(page, host).innerText();
    expect(text).toContain('Experimental');
    expect(text).toContain(`mmat_${credential.slice(5, 13)}`);
    expect(text).toContain('token by admin');
    const again = await fetch(`${baseUrl()}/api/v1/mma-agent/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, host: `again-${host}`, version: '1.0.0' }),
    });
    expect(again.status).toBe(401);

    // Edit MMA Class: runs operations on remote MMAs.
    await classRow(page, CLASS_EXPERIMENTAL).getByRole('button', { name: 'Edit Experimental' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit MMA Class' });
    await edit.getByRole('radio', { name: 'Remote MMAs' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'MMA class updated').waitFor();
    await expect.poll(() => classRow(page, CLASS_EXPERIMENTAL).innerText()).toContain('Remote · 1 connected');
    const saved = (await api<TMmaClass[]>('/mma/classes', adminToken)).find((c) => c.id === CLASS_EXPERIMENTAL)!;
    expect(saved.mmaInstance!.mode).toBe('remote');

    // An operation of the class runs on the MMA: its page shows the script's lines as they come.
    const [smoke] = await queue(machine, ['SmokeTest']);
    const opPage = await page.context().newPage();
    await opPage.goto(page.url().replace(/#.*$/, `#/operations/${smoke!.id}`));
    const output = opPage.locator('pre[aria-label="Output"]');
    // Some lines shown while the script still runs: the output is live, not written at the end.
    await expect
      .poll(async () => {
        const shown = (await output.count()) > 0 ? await output.innerText() : '';
        return shown.includes(`remote smoke on ${machine.name}`) && shown.includes('check 1 of 10 passed') && !shown.includes('remote smoke done');
      }, { timeout: 30_000 })
      .toBe(true);
    await expect.poll(() => output.innerText(), { timeout: 30_000 }).toContain('remote smoke done');
    const done = await finished(machine.id, smoke!.id);
    expect(done.status).toBe('SUCCESS');
    await opPage.getByRole('tab', { name: 'Deployer Log' }).click();
    await expect.poll(() => opPage.locator('pre[aria-label="Deployer Log"]').innerText()).toContain('step 10');

    // A running operation cancelled from its page: CANCELLING, then the MMA kills the script within its heartbeat.
    await writeFile(join(dir!, 'slow'), '');
    const [slow] = await queue(machine, ['SmokeTest']);
    await opPage.goto(page.url().replace(/#.*$/, `#/operations/${slow!.id}`));
    await expect.poll(() => opPage.locator('pre[aria-label="Output"]').innerText(), { timeout: 30_000 }).toContain('waiting for the slow check');
    await opPage.getByRole('button', { name: `Cancel operation ${slow!.id}` }).click();
    const confirmCancel = opPage.locator('.ant-popconfirm');
    await confirmCancel.getByText('Its agent stops it within 5 seconds').waitFor();
    const cancelledAt = Date.now();
    await confirmCancel.getByRole('button', { name: 'Cancel operation' }).click();
    await opPage.getByText('Operation has been cancelled').waitFor();
    await opPage.locator('.ant-descriptions').getByText('CANCELLING', { exact: true }).or(opPage.locator('.ant-descriptions').getByText('FAILURE', { exact: true })).first().waitFor();
    const cancelled = await finished(machine.id, slow!.id);
    expect(Date.now() - cancelledAt).toBeLessThan(15_000);
    expect(cancelled).toMatchObject({ status: 'FAILURE', decision: 'CANCEL', decidedBy: 'admin', failCounter: 0 });
    await expect.poll(() => opPage.locator('pre[aria-label="Output"]').innerText()).toMatch(/Cancelled by admin\s*$/);
    await opPage.locator('.ant-descriptions').getByText('FAILURE', { exact: true }).waitFor();
    await opPage.close();

    // Revoke: nothing happens on Cancel; after Revoke the MMA's next call is refused and the process stops.
    await agentRow(page, host).getByRole('button', { name: `Revoke ${host}` }).click();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: `Revoke the credential of ${host}?` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await whoami(credential)).status).toBe(200);
    await agentRow(page, host).getByRole('button', { name: `Revoke ${host}` }).click();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await toast(page, `The credential of ${host} was revoked`).waitFor();
    await expect.poll(() => agentRow(page, host).innerText()).toContain('Revoked by admin');
    expect(await agentRow(page, host).getByRole('button', { name: `Revoke ${host}` }).count()).toBe(0);
    expect((await whoami(credential)).status).toBe(401);
    expect(await process.exited).toBe(1);
    expect(process.output.join('')).toMatch(/refused|revoked/i);
    await expect.poll(() => classRow(page, CLASS_EXPERIMENTAL).innerText(), { timeout: 20_000 }).toContain('Remote · 0 connected');
  }, LONG);
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
