/**
 * The machines panel of the edit-account screen (spec 2 §2.2–2.4, §4, §5, §8) in
 * Chromium against the real server, its task engine and the simulated cloud
 * (default delays): stop (after its confirmation: Cancel and Escape make no
 * call) and start followed live through the push channel, terminate with its
 * confirmation, creating the machine again, cancelling a New
 * task, switches (success and an injected failure that reverts), reset failure,
 * change instance type and notifications.
 *
 * Each test takes machines of an account no other test of this file uses.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type {
  TAccountListItem,
  TCreatableMachine,
  TFullAccountsPage,
  TListMachinesResponse,
  TMachine,
  TPendingMessagesResponse,
  TTask,
  TTaskListResponse,
} from '@fleet/contracts';
import { adminToken, api, pagesPerTest, signIn, useBrowserAndAdmin } from './browser.js';

/** Longest wait for a simulated cloud transition to show on the screen. */
const LIVE_TIMEOUT = 30_000;

const usedAccounts = new Set<number>();

useBrowserAndAdmin();
const openPage = pagesPerTest();

const machinesOf = async (accountId: number) => (await api<TListMachinesResponse>(`/accounts/${accountId}/machines?limit=100`, adminToken)).items;
const idle = (m: TMachine) => !m.tasks.some((t) => t.status === 'New' || t.status === 'Running');

/** An account of `classIds` not used yet by this file, and its first machine matching `accept`. */
async function pick(
  accept: (m: TMachine) => boolean,
  { classIds = '1,3', policy }: { classIds?: string; policy?: TAccountListItem['instancePolicy'] } = {},
): Promise<{ account: TAccountListItem; machine: TMachine }> {
  const accounts = await api<TFullAccountsPage>(`/accounts?classIds=${classIds}&limit=200`, adminToken);
  for (const account of accounts.items) {
    if (usedAccounts.has(account.id) || (policy && account.instancePolicy !== policy)) continue;
    const machine = (await machinesOf(account.id)).find((m) => idle(m) && accept(m));
    if (machine) {
      usedAccounts.add(account.id);
      return { account, machine };
    }
  }
  throw new Error('no machine fits this test');
}

const running = (m: TMachine) => m.instance?.status === 'running' && !m.needsAdmin;
const row = (page: Page, machine: { id: number }) => page.locator(`.ant-table-tbody tr[data-row-key="${machine.id}"]`);

async function openAccount(page: Page, user: string, accountId: number) {
  // From before the sign-in to the push channel's connection: the whole sign-in and the page's load on a loaded
  // runner (15 s was missed once, on the test's first attempt).
  const hub = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/taskHub'), timeout: 60_000 });
  await signIn(page, user, user, `/account/edit/${accountId}`);
  await page.locator('.ant-table-tbody tr[data-row-key]').first().waitFor();
  return hub;
}

/** Text of a row with its whitespace folded. */
const rowText = async (page: Page, machine: { id: number }) => (await row(page, machine).innerText()).replace(/\s+/g, ' ');

describe('machine lifecycle, live', () => {
  it('asks before stopping (Cancel and Escape make no call), stops after OK and follows the task without a reload, then starts it again', async () => {
    const { account, machine } = await pick(running);
    const { page } = await openPage();
    const hub = await openAccount(page, 'admin', account.id);
    expect(hub.isClosed()).toBe(false);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const r = row(page, machine);
    expect(await r.innerText()).toContain('running');
    // Pushed events, not list reloads, move the row: count the list calls from here on; and the stop calls.
    const listCalls: string[] = [];
    const stopCalls: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes(`/api/v1/accounts/${account.id}/machines`)) listCalls.push(req.url());
      if (req.method() === 'POST' && req.url().includes(`/api/v1/machines/${machine.id}/stop`)) stopCalls.push(req.url());
    });

    // Stop asks first, naming the machine and what stopping does to its sites; Cancel (or Escape) leaves it running.
    // Asked with the mouse and left with Cancel; then asked from the keyboard (Enter) and left with Escape.
    const confirm = page.getByRole('dialog', { name: 'Stop machine' });
    const stopButton = r.getByRole('button', { name: `Stop ${machine.name}` });
    const ways = [
      { ask: () => stopButton.click(), leave: () => confirm.getByRole('button', { name: 'Cancel' }).click() },
      { ask: () => stopButton.press('Enter'), leave: () => page.keyboard.press('Escape') },
    ];
    for (const { ask, leave } of ways) {
      await ask();
      await confirm.getByText(`This will stop machine ${machine.name} and its cloud instance.`).waitFor();
      expect(await confirm.innerText()).toMatch(/cannot be reached until the machine is started again/);
      await leave();
      await confirm.waitFor({ state: 'hidden' });
    }
    expect(await r.getByRole('button', { name: `Stop ${machine.name}` }).isEnabled()).toBe(true);
    expect(await rowText(page, machine)).toContain('running');

    await r.getByRole('button', { name: `Stop ${machine.name}` }).click();
    await confirm.getByRole('button', { name: 'Stop' }).click();
    await confirm.waitFor({ state: 'hidden' });
    // The task shows at once: the status is its description and the power button waits.
    await r.getByText(`Stop machine ${machine.name}`).waitFor({ timeout: LIVE_TIMEOUT });
    expect(await r.locator('button', { hasText: /Start|Stop/ }).isDisabled()).toBe(true);

    await r.getByRole('button', { name: `— Tasks of ${machine.name}`, exact: false }).click();
    const drawer = page.getByRole('dialog', { name: `Tasks of ${machine.name}` });
    const taskRow = drawer.locator('.ant-table-tbody tr', { hasText: 'StopMachine' }).first();
    await expect.poll(() => taskRow.innerText(), { timeout: LIVE_TIMEOUT }).toContain('Completed');
    expect(await taskRow.getByRole('button', { name: /Cancel task/ }).isDisabled()).toBe(true);
    await drawer.getByRole('button', { name: 'Close' }).click();

    const start = r.getByRole('button', { name: `Start ${machine.name}` });
    await expect.poll(() => start.isEnabled(), { timeout: LIVE_TIMEOUT }).toBe(true);
    await expect.poll(() => rowText(page, machine)).toContain('stopped');
    expect(await rowText(page, machine)).toContain('Stable');

    await start.click();
    await r.getByText(`Start machine ${machine.name}`).waitFor({ timeout: LIVE_TIMEOUT });
    const stop = r.getByRole('button', { name: `Stop ${machine.name}` });
    await expect.poll(() => stop.isEnabled().catch(() => false), { timeout: LIVE_TIMEOUT }).toBe(true);
    expect(await rowText(page, machine)).toContain('running');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(listCalls).toEqual([]);
    // One stop call: the OK's (none from the two confirmations left without it).
    expect(stopCalls).toHaveLength(1);
    const after = (await machinesOf(account.id)).find((m) => m.id === machine.id)!;
    expect(after.instance?.status).toBe('running');
  });

  it('without the push channel, polls every 2 s while a task is unfinished, and stops polling once none is', async () => {
    const { account, machine } = await pick(running);
    const { page } = await openPage();
    // The page's own clock: it runs as the real one, and the test stops it to count the polls by it.
    await page.clock.install();
    await page.route('**/taskHub/**', (route) => route.abort());
    let pushed = false;
    page.on('websocket', (ws) => (pushed ||= ws.url().includes('/taskHub')));
    const listUrl = `/api/v1/accounts/${account.id}/machines`;
    const isList = (url: string, method: string) => method === 'GET' && url.includes(listUrl);
    let listCalls = 0;
    page.on('request', (req) => {
      if (isList(req.url(), req.method())) listCalls += 1;
    });
    /** A later request of the page: a list call the clock's timers started went out before it. */
    const barrier = () => page.evaluate(async () => (await fetch('/api/v1/health')).status);
    await signIn(page, 'admin', 'admin', `/account/edit/${account.id}`);
    const r = row(page, machine);
    await r.getByRole('button', { name: `Stop ${machine.name}` }).waitFor();

    await r.getByRole('button', { name: `Stop ${machine.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Stop machine' });
    await confirm.getByRole('button', { name: 'Stop' }).waitFor();
    // Stopped clock (a few seconds on, so that the time given is not past by the time it is set): the action's answers
    // (the task, the machine) wait in the query cache's notifications until it moves.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
    const stopped = page.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith(`/api/v1/machines/${machine.id}/stop`));
    const refreshed = page.waitForResponse((res) => res.request().method() === 'GET' && res.url().endsWith(`/api/v1/machines/${machine.id}`));
    await confirm.getByRole('button', { name: 'Stop' }).click();
    await Promise.all([stopped, refreshed]);
    // Each poll comes 2 s (by the page's clock) after the last change of the list, none before, while the task is unfinished.
    let polls = 0;
    for (let unfinished = true; unfinished; ) {
      const before = listCalls;
      await page.clock.runFor(1_900);
      expect(await barrier()).toBe(200);
      expect(listCalls, `poll ${polls + 1} came before 2 s`).toBe(before);
      const answer = page.waitForResponse((res) => isList(res.url(), res.request().method()));
      await page.clock.runFor(100);
      const listed = (await (await answer).json()) as TListMachinesResponse;
      polls += 1;
      expect(listCalls, `poll ${polls}: one call`).toBe(before + 1);
      unfinished = listed.items.find((m) => m.id === machine.id)!.tasks.some((t) => t.status === 'New' || t.status === 'Running');
      if (polls > 60) throw new Error('the stop task did not finish within 60 polls');
    }
    // None unfinished: ten more seconds of the page's clock bring no call.
    const afterLast = listCalls;
    await page.clock.runFor(10_000);
    expect(await barrier()).toBe(200);
    expect(listCalls, 'calls after the last unfinished task').toBe(afterLast);
    expect(polls).toBeGreaterThanOrEqual(1);

    // And with the clock running again, a start is followed to its end by the polls alone.
    await page.clock.resume();
    const start = r.getByRole('button', { name: `Start ${machine.name}` });
    await expect.poll(() => start.isEnabled().catch(() => false), { timeout: LIVE_TIMEOUT }).toBe(true);
    expect(await rowText(page, machine)).toContain('stopped');
    await start.click();
    const stop = r.getByRole('button', { name: `Stop ${machine.name}` });
    await expect.poll(() => stop.isEnabled().catch(() => false), { timeout: LIVE_TIMEOUT }).toBe(true);
    expect(await rowText(page, machine)).toContain('running');
    expect(pushed).toBe(false);
  });

  it('terminates after the confirmation, then creates the machine again', async () => {
    const { account, machine } = await pick(running, { policy: 'AllInOne', classIds: '1' });
    const { page } = await openPage();
    await openAccount(page, 'operator', account.id);
    await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
    await page.getByRole('menuitem', { name: /Terminate/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Terminate machine' });
    await confirm.getByText(`This will terminate machine ${machine.name} and its cloud instance.`).waitFor();
    const queued = page.waitForResponse((res) => res.url().endsWith(`/api/v1/machines/${machine.id}/terminate`));
    await confirm.getByRole('button', { name: 'Terminate' }).click();
    await page.getByText('Machine termination has been initiated').waitFor();
    // The task the click queued. With the e2e server's 1 s transitions it may end before the row
    // draws its text (the row then is already gone), so the row's text is not waited for here.
    const task = (await (await queued).json()) as TTask;
    expect(task).toMatchObject({ machineId: machine.id, type: 'TerminateMachine', description: `Terminate machine ${machine.name}` });
    await expect.poll(() => row(page, machine).count(), { timeout: LIVE_TIMEOUT }).toBe(0);
    await page.getByText('This account has no machines').waitFor();

    // An AllInOne account's one machine is its launcher and site master: the one to create again.
    const creatables = await api<TCreatableMachine[]>(`/accounts/${account.id}/creatable-machines`, adminToken);
    expect(creatables).toEqual([expect.objectContaining({ name: machine.name, isLauncher: true, isSiteMaster: true })]);
    const [creatable] = creatables;
    await page.getByRole('button', { name: 'Create Machine' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Machine' });
    const create = dialog.getByRole('button', { name: 'Create' });
    await dialog.getByText(creatable!.name).click();
    await create.click();
    const newRow = page.locator('.ant-table-tbody tr[data-row-key]', { hasText: creatable!.name });
    await newRow.waitFor({ timeout: LIVE_TIMEOUT });
    await expect.poll(async () => (await newRow.innerText()).replace(/\s+/g, ' '), { timeout: LIVE_TIMEOUT }).toContain('running');
  });

  it('cancels a New task from the drawer; a running one cannot be cancelled', { timeout: 150_000 }, async () => {
    const { account, machine } = await pick(running);
    const { page } = await openPage();
    await openAccount(page, 'admin', account.id);
    // Eight tasks at once: the first runs while the others wait as New. The one
    // cancelled is the seventh, six transitions (1 s each in the e2e server)
    // behind the first, so that it is still New when the drawer shows it on a
    // loaded runner (the third, two transitions of 2 s behind the first, had
    // started by the click in a run where the drawer took that long).
    const queued: TTask[] = [];
    for (const action of ['stop', 'start', 'stop', 'start', 'stop', 'start', 'stop', 'start']) {
      queued.push(await api<TTask>(`/machines/${machine.id}/${action}`, adminToken, { method: 'POST' }));
    }
    const victim = queued[6]!;
    await row(page, machine).getByRole('button', { name: `— Tasks of ${machine.name}`, exact: false }).click();
    const drawer = page.getByRole('dialog', { name: `Tasks of ${machine.name}` });
    const victimRow = drawer.locator(`.ant-table-tbody tr[data-row-key="${victim.id}"]`);
    await victimRow.getByText('New', { exact: true }).waitFor();
    await victimRow.getByRole('button', { name: `Cancel task ${victim.id}` }).click();
    await victimRow.getByText('Cancelled', { exact: true }).waitFor();
    const firstRow = drawer.locator(`.ant-table-tbody tr[data-row-key="${queued[0]!.id}"]`);
    expect(await firstRow.getByRole('button', { name: `Cancel task ${queued[0]!.id}` }).isDisabled()).toBe(true);

    const tasks = await api<TTaskListResponse>(`/machines/${machine.id}/tasks`, adminToken);
    expect(tasks.items.find((t) => t.id === victim.id)?.status).toBe('Cancelled');
    // The last task still runs after the cancelled one: the drawer follows it to the end.
    const lastRow = drawer.locator(`.ant-table-tbody tr[data-row-key="${queued.at(-1)!.id}"]`);
    await expect.poll(() => lastRow.innerText(), { timeout: 2 * LIVE_TIMEOUT }).toContain('Completed');
  });
});

describe('machine switches', () => {
  it('updates a switch: Machine has been updated, and the server has it', async () => {
    const { account, machine } = await pick((m) => !m.manualMaintenance);
    const { page } = await openPage();
    await openAccount(page, 'operator', account.id);
    const toggle = page.getByRole('switch', { name: `Maintenance for ${machine.name}` });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await page.getByText('Machine has been updated').waitFor();
    // The row takes the server's answer in a deferred render, which may wait a moment behind the settings cards
    // still rendering below (components/StagedRender.tsx): the switch turns on soon after the toast, not with it.
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 5_000 }).toBe('true');
    expect((await machinesOf(account.id)).find((m) => m.id === machine.id)?.manualMaintenance).toBe(true);
    await toggle.click();
    await expect.poll(async () => (await machinesOf(account.id)).find((m) => m.id === machine.id)?.manualMaintenance).toBe(false);
  });

  it('reverts a switch whose update fails, with Error occurred updating machine', async () => {
    const { account, machine } = await pick((m) => !m.turbo);
    const { page } = await openPage();
    await page.route('**/api/v1/accounts/*/machines/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 500,
            contentType: 'application/problem+json',
            body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }),
          })
        : route.continue(),
    );
    await openAccount(page, 'admin', account.id);
    const toggle = page.getByRole('switch', { name: `Turbo for ${machine.name}` });
    await toggle.click();
    await page.getByText('Error occurred updating machine').waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    expect((await machinesOf(account.id)).find((m) => m.id === machine.id)?.turbo).toBe(false);
  });
});

describe('machine dialogs', () => {
  it('resets the failure state of a panicking machine', async () => {
    const { account, machine } = await pick((m) => m.needsAdmin, { classIds: '1,3,4' });
    const { page } = await openPage();
    await openAccount(page, 'admin', account.id);
    const r = row(page, machine);
    expect(await r.getAttribute('class')).toContain('machine-row-error');
    await r.getByText('Panic', { exact: true }).waitFor();
    await r.getByRole('button', { name: `Reset failure for ${machine.name}` }).click();
    await page.getByText('Failure state has been reset for machine').waitFor();
    await expect.poll(() => r.getByText('Panic', { exact: true }).count()).toBe(0);
    expect(await r.getAttribute('class')).not.toContain('machine-row-error');
    expect((await machinesOf(account.id)).find((m) => m.id === machine.id)).toMatchObject({ needsAdmin: false, failCounter: 0 });
  });

  it('changes the instance type: Submit waits for a change, a smaller disk warns', async () => {
    const { account, machine } = await pick((m) => running(m) && (m.cloudInstanceType?.storageSize ?? 0) > 50);
    const { page } = await openPage();
    await openAccount(page, 'admin', account.id);
    await row(page, machine).getByRole('button', { name: `Actions for ${machine.name}` }).click();
    await page.getByRole('menuitem', { name: 'Change instance type' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Instance Type' });
    const submit = dialog.getByRole('button', { name: 'Submit' });
    await dialog.getByLabel('Instance type').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Instance type').click();
    await page.locator('.ant-select-dropdown:visible').getByText('t2.small (50 GB)').click();
    await dialog.getByText('The instance type you select has a smaller storage size than the current instance type').waitFor();
    await dialog.getByLabel('Instance type').click();
    await page.locator('.ant-select-dropdown:visible').getByText('m5.2xlarge (300 GB)').click();
    expect(await dialog.getByText(/smaller storage size/).count()).toBe(0);
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByText('Instance type changed for machine').waitFor();
    // The row names the task only while it runs (a stop, a change and a start: about 3 s with the e2e server's 1 s
    // transitions, and it once ended before a busy runner drew it), so the task is read from the server.
    await expect.poll(() => rowText(page, machine), { timeout: LIVE_TIMEOUT }).toContain('m5.2xlarge (300 GB)');
    const changeTask = async () => {
      const tasks = await api<TTaskListResponse>(`/machines/${machine.id}/tasks`, adminToken);
      return tasks.items.find((t) => t.description === `Change instance type of ${machine.name} to m5.2xlarge`)?.status;
    };
    await expect.poll(changeTask, { timeout: LIVE_TIMEOUT }).toBe('Completed');
  });

  it('sends a notification to the selected machines and lists it as pending', async () => {
    // An unmanaged machine: the agent delivers a managed running machine's messages at its next pass, so
    // the message would leave the pending list while the test reads it.
    const { account, machine } = await pick((m) => !m.managed);
    const { page } = await openPage();
    await openAccount(page, 'operator', account.id);
    const notify = page.getByRole('button', { name: 'Notification' });
    expect(await notify.isDisabled()).toBe(true);
    await row(page, machine).getByRole('checkbox', { name: `Select ${machine.name}` }).check();
    await notify.click();
    const dialog = page.getByRole('dialog', { name: 'Notification' });
    const priority = dialog.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: 'Priority' }) });
    expect(await priority.innerText()).toContain('Medium');
    const title = `Maintenance window ${Date.now()}`;
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Body').fill('The machine restarts tonight at 22:00.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Message queued for sending').waitFor();
    await dialog.getByRole('tab', { name: 'Pending Messages', selected: true }).waitFor();
    await dialog.getByText(title).waitFor();
    const pending = await api<TPendingMessagesResponse>('/notification/messages?limit=100', adminToken);
    expect(pending.items.find((m) => m.title === title)?.machine.id).toBe(machine.id);
  });
});
