/**
 * Rollouts in the console (DESIGN §15; spec 3 §2.8, §7; issue 13 point 4) in
 * Chromium against the real server. Each test submits a software update from the
 * Updater in account mode with 'Roll out in waves' (a Select of a launcher
 * commit the targets do not desire yet, so every target's desired versions
 * change) and follows its rollout page:
 *
 * - waves advance one after the other: wave 1 Running while wave 2 waits, wave 1
 *   Succeeded, then wave 2 (at most 1 target at once: its two deploy one after
 *   the other), then Completed; the machines then run the commit;
 * - a wave whose target fails (the e2e server's simulated agent fails every
 *   operation of `{ROLLOUT_FAILING_ACCOUNT}-launcher`, e2e/global-setup.ts)
 *   halts the rollout at a threshold of 0 failed targets, later waves stay
 *   Pending; Abort (confirmed) makes them NotApplied;
 * - a wave whose machine's probes fail after its deploy (the e2e server fails
 *   every probe of `{ROLLOUT_PROBE_FAILING_ACCOUNT}-launcher`) fails its bake
 *   and halts the rollout before wave 2; its plan's 'Roll back by itself'
 *   starts the rollback, which puts wave 1's old version back;
 * - Roll back of the completed rollout shows the dry run, then a new rollout
 *   puts every machine back on the version it ran before;
 * - an admin freezes the fleet from the counters bar (a reason asked): a
 *   rollout started meanwhile releases nothing (its page says why) until
 *   Release on the banner; then a change window of its class, closed today,
 *   holds it (the page says when it opens) until the window is removed;
 *   an operator has no Freeze button;
 * - a rollout over Customer Production accounts waits for Approve wave at each
 *   wave (issue 25): the admin who started it sees why they may not approve
 *   (and the server answers 403), the second approver `lead` approves each wave
 *   on the rollout page in a context of its own; Pause before the approval
 *   holds wave 2 after wave 1 ends; Resume goes on.
 *
 * The targets are accounts this spec creates (class 1, Experimental: the demo
 * seed has class 2's MMA on standby, which holds every new operation of the
 * class, so its deploys would never run; a unique name prefix per set) running
 * no software (every version None, so no first deploy: a wave installs the
 * launcher alone); before a rollout, its targets' machines must be running, up
 * to date and idle, so that the only deploys are the rollout's. The rollouts
 * list and the activity log's link to a rollout are checked last.
 *
 * With `E2E_SHOTS` set to a folder, the rollout pages are saved there as PNGs.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  CLASS_CUSTOMER_PRODUCTION,
  CLASS_EXPERIMENTAL,
  type TChangeWindow,
  type TListCommitsResponse,
  type TListMachinesResponse,
    type TRollout,
  type TRolloutTarget,
  type TUpdaterAccount,
  type TUpdaterMachine,
  type TVersionState,
} from '@fleet/contracts';
import { adminToken, api, chooseOption, createAccount, expectAccessible, NO_SOFTWARE, pagesPerTest, signIn, updateMmaClass, useBrowserAndAdmin } from './browser.js';
import { ROLLOUT_FAILING_ACCOUNT, ROLLOUT_PROBE_FAILING_ACCOUNT } from './global-setup.js';

const PREFIX = `rllt${Date.now() % 100_000}`;
/**
 * The sets of target accounts, one per test: `waves` (3 accounts), `halt` (the failing one first, then 2), `pause` (2),
 * `bake` (the one whose probes fail first, then 1), `freeze` (1).
 */
const SETS = { waves: `${PREFIX}w`, halt: `${PREFIX}h`, pause: `${PREFIX}p`, bake: `${PREFIX}b`, freeze: `${PREFIX}f` } as const;
const accounts: Record<keyof typeof SETS, number[]> = { waves: [], halt: [], pause: [], bake: [], freeze: [] };
const openPage = pagesPerTest();

/** Longest wait for new machines to be created, and for a wave's deploys (the launcher alone: a few seconds each). */
const DEPLOY_TIMEOUT = 150_000;
const LONG = 300_000;

useBrowserAndAdmin();
beforeAll(async () => {
  const experimental = { classId: 1, machineConfig: NO_SOFTWARE };
  accounts.halt.push(await createAccount(adminToken, SETS.halt, { ...experimental, urlFriendlyName: ROLLOUT_FAILING_ACCOUNT }));
  for (let i = 0; i < 2; i++) accounts.halt.push(await createAccount(adminToken, SETS.halt, experimental));
  for (let i = 0; i < 3; i++) accounts.waves.push(await createAccount(adminToken, SETS.waves, experimental));
  accounts.bake.push(await createAccount(adminToken, SETS.bake, { ...experimental, urlFriendlyName: ROLLOUT_PROBE_FAILING_ACCOUNT }));
  accounts.bake.push(await createAccount(adminToken, SETS.bake, experimental));
  accounts.freeze.push(await createAccount(adminToken, SETS.freeze, experimental));
  for (let i = 0; i < 2; i++) accounts.pause.push(await createAccount(adminToken, SETS.pause, { classId: CLASS_CUSTOMER_PRODUCTION, machineConfig: NO_SOFTWARE }));
}, 120_000);

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();
const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, `${name}.png`), fullPage: true });
};
const status = (page: Page) => page.getByTestId('rollout-status').innerText();
const waveText = (page: Page, n: number) => page.getByRole('group', { name: `Wave ${n}`, exact: true }).innerText();
const rollout = (id: number) => api<TRollout>(`/rollouts/${id}`, adminToken);
const machinesOf = async (accountId: number) => (await api<TListMachinesResponse>(`/machines?accountId=${accountId}`, adminToken)).items;

/**
 * Signs `lead` (the demo's second approver) in on the rollout page in a context
 * of its own and approves wave `n` through the console: the banner names the
 * wave, the dialog refuses an empty reason, then 'Wave approved'.
 */
async function approveAsLead(id: number, n: number) {
  const { page } = await openPage();
  await signIn(page, 'lead', 'lead', `/rollouts/${id}`);
  const banner = page.getByRole('region', { name: 'Wave approval' });
  await banner.getByText(`Wave ${n} waits for approval: 1 target`).waitFor({ timeout: DEPLOY_TIMEOUT });
  await banner.getByRole('button', { name: 'Approve wave' }).click();
  const dialog = page.getByRole('dialog', { name: `Approve wave ${n}` });
  await dialog.getByRole('button', { name: 'Approve wave' }).click();
  await dialog.getByText('Say why').waitFor();
  await dialog.getByLabel('Reason').fill(`Wave ${n} checked`);
  await dialog.getByRole('button', { name: 'Approve wave' }).click();
  await toast(page, 'Wave approved').waitFor();
  await page.getByRole('group', { name: `Wave ${n}`, exact: true }).getByText('Approved by lead').waitFor();
  await page.context().close();
}

/**
 * What the rollout `id` (when given) and the machines of `accountIds` look like now: its status and waves, and each
 * machine's instance, unfinished tasks and operations. Added to a timed-out wait's message, so that a run that fails
 * on a busy runner says what the rollout waited for.
 */
async function stateOf(accountIds: number[], id?: number): Promise<string> {
  const r = id === undefined ? undefined : await rollout(id);
  const machines = (await Promise.all(accountIds.map(machinesOf))).flat();
  return JSON.stringify({
    rollout: r && { status: r.status, reason: r.reason, waves: r.waves },
    machines: machines.map((m) => ({ name: m.name, instance: m.instance?.status, tasks: m.tasks, operations: m.operations })),
  });
}

/** Runs `wait`; a failure is thrown again with {@link stateOf} the rollout and machines in its message. */
async function explained(wait: () => Promise<unknown>, accountIds: number[], id?: number): Promise<void> {
  try {
    await wait();
  } catch (error) {
    const state = await stateOf(accountIds, id).catch((e: Error) => `(state unreadable: ${e.message})`);
    (error as Error).message += `\nState at the timeout: ${state}`;
    throw error;
  }
}

/** Waits until the rollout page says Completed (at most {@link DEPLOY_TIMEOUT}). */
const completed = (page: Page, id: number, accountIds: number[]) =>
  explained(() => expect.poll(() => status(page), { timeout: DEPLOY_TIMEOUT }).toBe('Completed'), accountIds, id);

/**
 * Waits until every machine of `accountIds` has a running instance, runs its
 * desired versions (not obsolete) and has no unfinished task or operation: the
 * first deploy of a new account is over, so the rollout's deploys are the only ones.
 */
async function deployed(accountIds: number[]) {
  await explained(() => expect
    .poll(
      async () => {
        for (const accountId of accountIds) {
          const machines = await machinesOf(accountId);
          if (machines.length === 0 || machines.some((m) => m.instance?.status !== 'running' || m.tasks.length > 0 || m.operations.length > 0)) return false;
          const listed = (await api<{ items: TUpdaterMachine[] }>(`/updater/machines?accountIds=${accountId}`, adminToken)).items;
          if (listed.length !== machines.length || listed.some((m) => m.obsolete)) return false;
        }
        return true;
      },
      { timeout: DEPLOY_TIMEOUT, interval: 2000 },
    )
    .toBe(true), accountIds);
}

/** Waits until the account's machines exist with a running instance (their deploys may fail or go on). */
async function created(accountId: number) {
  await expect
    .poll(async () => (await machinesOf(accountId)).map((m) => m.instance?.status ?? 'none'), { timeout: DEPLOY_TIMEOUT, interval: 2000 })
    .toEqual(['running']);
}

/** Three days from today (ISO weekday, Monday 1, in Europe/Berlin within a day's margin): a change window on that day alone is closed now. */
const closedDay = ((new Date().getUTCDay() + 6 + 3) % 7) + 1;

/** Sets the change windows of class `classId` (PUT /mma/classes/{id}, its other fields as they are). */
const setWindows = (classId: number, changeWindows: TChangeWindow[]) => updateMmaClass(classId, { changeWindows });

/** The launcher each machine of `accountIds` runs (`branch|shortHash`, or 'none'), by machine id. */
async function runningLaunchers(accountIds: number[]): Promise<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const accountId of accountIds) {
    for (const machine of await machinesOf(accountId)) {
      const running = (await api<TVersionState>(`/machines/${machine.id}/state-info`, adminToken)).components.launcher;
      out[machine.id] = running ? `${running.branchName}|${running.shortHash}` : 'none';
    }
  }
  return out;
}

/** Follows the link to the rollback on rollout page `page` and waits for the rollback to complete: the machines of `accountIds` then run `before` again. */
async function rollbackCompletes(page: Page, id: number, accountIds: number[], before: Record<number, string>) {
  const link = page.locator('.ant-descriptions-item', { hasText: 'Rolled back by' }).getByRole('link');
  await link.waitFor({ timeout: DEPLOY_TIMEOUT });
  const rollbackId = (await rollout(id)).rolledBackBy!;
  expect(await link.innerText()).toBe(`Rollout ${rollbackId}`);
  await link.click();
  await page.waitForURL(new RegExp(`#/rollouts/${rollbackId}$`));
  await page.locator('.ant-descriptions-item', { hasText: 'Rolls back' }).getByRole('link', { name: `Rollout ${id}` }).waitFor();
  await completed(page, rollbackId, accountIds);
  await expect.poll(() => runningLaunchers(accountIds), { timeout: DEPLOY_TIMEOUT, interval: 2000 }).toEqual(before);
  return rollbackId;
}

/** A non-breaking launcher commit of release/8.1 that the machines of `accountId` do not desire now (`{branch}|{shortHash}`). */
async function newLauncherCommit(accountId: number): Promise<{ shortHash: string; fullHash: string; ref: string }> {
  const [machine] = await machinesOf(accountId);
  const desired = (await api<TVersionState>(`/machines/${machine!.id}/states/desired`, adminToken)).components.launcher;
  const commits = (await api<TListCommitsResponse>('/software/launcher/commits?branch=release%2F8.1&limit=20', adminToken)).items;
  const commit = commits.find((c) => !c.isBreaking && !(desired?.branchName === c.branch && desired.shortHash === c.shortHash));
  if (!commit) throw new Error('no release/8.1 launcher commit to roll out');
  return { shortHash: commit.shortHash, fullHash: commit.fullHash, ref: `${commit.branch}|${commit.shortHash}` };
}

/** Chooses Select for the launcher in the Updater's versions block and picks `commit` in the Select Version modal. */
async function selectLauncher(page: Page, commit: { shortHash: string; fullHash: string; ref: string }) {
  await chooseOption(page, page.getByLabel('Launcher version mode'), 'Select', { exact: true });
  const modal = page.getByRole('dialog', { name: /Select Version/ });
  await modal.getByRole('tab', { name: 'Commits' }).waitFor();
  await modal.getByLabel('Search commits').fill(commit.shortHash);
  const rows = modal.locator('.ant-table-tbody tr[data-row-key]');
  await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')))).toEqual([commit.fullHash]);
  await rows.first().click();
  // The modal names the chosen commit as people read it: `branch / hash` (spec 3 §2.8).
  await modal.getByText(`Chosen: ${commit.ref.replace('|', ' / ')}`).waitFor();
  await modal.getByRole('button', { name: 'Select' }).click();
  await modal.waitFor({ state: 'hidden' });
}

/**
 * Opens the Updater in account mode on the accounts of `set`, ticks `ids` in
 * this order (the rollout's waves take the targets in the request's order),
 * selects `commit` for the launcher, asks the dry run (the diff names every
 * account with the commit it resolves to), ticks 'Roll out in waves' with the
 * plan 1 target, then the rest (and `maxFailed` failed targets per wave when
 * given), confirms and answers the rollout id from the rollout page's URL.
 */
async function submitInWaves(
  page: Page,
  set: string,
  ids: number[],
  commit: { shortHash: string; fullHash: string; ref: string },
  opts: { maxFailed?: number; maxConcurrent?: number; bakeMinutes?: number; rollBackOnHalt?: boolean } = {},
): Promise<number> {
  const names = new Map((await api<{ items: TUpdaterAccount[] }>(`/updater/accounts?search=${set}&limit=50`, adminToken)).items.map((a) => [a.id, a.name]));
  await signIn(page, 'admin', 'admin', `/updater?mode=account&search=${set}`);
  for (const id of ids) {
    const box = page.getByRole('checkbox', { name: `Select ${names.get(id)}`, exact: true });
    await box.check();
  }
  await expect.poll(() => page.getByTestId('selected-count').innerText()).toContain(`${ids.length} accounts selected`);
  await selectLauncher(page, commit);
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /dry run/ });
  await dialog.getByRole('table').first().waitFor();
  const diff = await dialog.innerText();
  for (const id of ids) expect(diff).toContain(names.get(id));
  expect(diff).toContain(commit.shortHash);
  await dialog.getByRole('checkbox', { name: 'Roll out in waves' }).check();
  const plan = dialog.getByRole('group', { name: 'Rollout plan' });
  await plan.getByRole('button', { name: 'Remove wave 2' }).click();
  expect(await dialog.getByTestId('wave-sizes').innerText()).toContain(`For ${ids.length} targets: 1, ${ids.length - 1}`);
  // The console offers a bake of 5 minutes; these tests bake only when they say so.
  await plan.getByLabel('Bake each wave').fill(String(opts.bakeMinutes ?? 0));
  if (opts.maxFailed !== undefined) {
    await plan.getByLabel('Halt when more than').fill(String(opts.maxFailed));
    await expect.poll(() => plan.getByTestId('plan-threshold').innerText()).toContain(`Halts at the 1st failure of a wave`);
  }
  if (opts.maxConcurrent !== undefined) {
    await plan.getByLabel('At once, at most', { exact: true }).fill(String(opts.maxConcurrent));
    await expect.poll(() => plan.getByTestId('plan-threshold').innerText()).toContain('no more of it is released once it does');
  }
  if (opts.rollBackOnHalt) {
    await chooseOption(page, plan.getByLabel('When it halts'), 'Roll back by itself');
    await expect.poll(() => plan.getByTestId('plan-threshold').innerText()).toContain('A halt rolls the applied targets back to their previous versions by itself');
  }
  await shot(page, 'rollout-plan');
  await dialog.getByRole('button', { name: 'Update', exact: true }).click();
  await page.getByRole('dialog', { name: `Update ${ids.length} accounts?` }).getByRole('button', { name: 'Yes' }).click();
  await toast(page, 'Software update submitted').waitFor();
  await page.waitForURL(/#\/rollouts\/\d+/);
  const id = Number(/rollouts\/(\d+)/.exec(page.url())![1]);
  // The first wave is the first account ticked; the rest form wave 2.
  const targets = (await api<{ items: TRolloutTarget[] }>(`/rollouts/${id}/targets?limit=50`, adminToken)).items;
  expect(targets.filter((t) => t.wave === 0).map((t) => t.id)).toEqual([ids[0]]);
  expect(targets.filter((t) => t.wave === 1).map((t) => t.id).sort()).toEqual(ids.slice(1).sort());
  await page.getByRole('group', { name: 'Wave 2', exact: true }).waitFor();
  expect(await page.getByRole('group', { name: /^Wave \d$/ }).count()).toBe(2);
  return id;
}

describe('rollout page', () => {
  it('advances wave by wave to Completed, and the machines then run the new version', async () => {
    const ids = accounts.waves;
    await deployed(ids);
    const before = await runningLaunchers(ids);
    const commit = await newLauncherCommit(ids[0]!);
    const { page } = await openPage();
    const id = await submitInWaves(page, SETS.waves, ids, commit, { maxConcurrent: 1 });
    // The plan as the page shows it: the threshold as the failure that halts, and the cap.
    const planText = await page.locator('.ant-descriptions-item', { hasText: 'Plan' }).innerText();
    expect(planText).toContain('halts at the 2nd failure of a wave, or when more than 10 % of it fails');
    expect(planText).toContain('at most 1 target of a wave at once');
    expect((await rollout(id)).plan.maxConcurrent).toEqual({ kind: 'count', value: 1 });

    // Wave 1 deploys (about 15 s) while wave 2 waits.
    await expect.poll(() => waveText(page, 1), { timeout: 30_000 }).toContain('Deploying 1');
    expect(await waveText(page, 2)).toContain('Pending 2');
    expect(await waveText(page, 2)).toContain('not started');
    await shot(page, 'rollout');
    await expectAccessible(page, 'Rollout page');
    // Wave 1 succeeds, then wave 2 runs and succeeds: Completed.
    await expect.poll(() => waveText(page, 1), { timeout: DEPLOY_TIMEOUT }).toContain('Succeeded 1');
    await completed(page, id, ids);
    // The push event sets the status at once; the waves' counts come with the re-read it starts.
    await expect.poll(() => waveText(page, 2)).toContain('Succeeded 2');
    expect((await page.getByRole('table', { name: 'Rollout targets' }).innerText()).match(new RegExp(SETS.waves, 'g'))?.length).toBe(3);

    const done = await rollout(id);
    expect(done.waves.map((w) => w.status)).toEqual(['Succeeded', 'Succeeded']);
    // Wave 2 started only once wave 1 had ended; its two targets deployed one after the other (at most 1 at once).
    expect(Date.parse(done.waves[1]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(done.waves[0]!.finishedAt!));
    const { items: wave2 } = await api<{ items: TRolloutTarget[] }>(`/rollouts/${id}/targets?wave=1&limit=10`, adminToken);
    const releases = await Promise.all(
      wave2.map(async (t) => {
        const [machine] = await machinesOf(t.id);
        const ops = (await api<{ items: { typeName: string; timestamp: string; finishTime: string | null }[] }>(`/machines/${machine!.id}/operations?limit=20`, adminToken)).items;
        const update = ops.find((o) => o.typeName === 'UpdateSoftware')!;
        return { queued: Date.parse(update.timestamp), finished: Date.parse(update.finishTime!) };
      }),
    );
    releases.sort((a, b) => a.queued - b.queued);
    expect(releases[1]!.queued).toBeGreaterThanOrEqual(releases[0]!.finished);
    // Every machine of every target now runs the commit.
    expect(Object.values(await runningLaunchers(ids))).toEqual(ids.map(() => commit.ref));

    // Roll back: the dry run names each account going back to its old version, then a new rollout puts them back.
    await page.getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog', { name: `Roll back rollout ${id}` });
    await dialog.getByRole('table').first().waitFor();
    const diff = await dialog.innerText();
    expect(diff.match(new RegExp(SETS.waves, 'g'))?.length).toBe(3);
    expect(diff).toContain(commit.shortHash);
    expect(diff).toContain('in the same waves');
    await shot(page, 'rollout-rollback-dry-run');
    await dialog.getByRole('button', { name: 'Start rollback' }).click();
    await toast(page, 'Rollback started').waitFor();
    await page.waitForURL((url) => !url.hash.endsWith(`/rollouts/${id}`));
    await page.goto(page.url().replace(/#.*$/, `#/rollouts/${id}`));
    await rollbackCompletes(page, id, ids, before);
    await shot(page, 'rollout-rollback');
    // Once only: the rolled-back rollout offers no Roll back any more.
    await page.goto(page.url().replace(/#.*$/, `#/rollouts/${id}`));
    await page.locator('.ant-descriptions-item', { hasText: 'Rolled back by' }).waitFor();
    expect(await page.getByRole('button', { name: 'Roll back' }).count()).toBe(0);
  }, LONG);

  it('halts when wave 1 fails (injected failures, threshold 0), then Abort makes the later targets NotApplied', async () => {
    const [failing, ...rest] = accounts.halt;
    await created(failing!);
    expect((await machinesOf(failing!))[0]!.name).toBe(`${ROLLOUT_FAILING_ACCOUNT}-launcher`);
    const commit = await newLauncherCommit(failing!);
    const { page } = await openPage();
    const id = await submitInWaves(page, SETS.halt, [failing!, ...rest], commit, { maxFailed: 0 });

    await expect.poll(() => status(page), { timeout: DEPLOY_TIMEOUT }).toBe('Halted');
    const reason = (await rollout(id)).reason!;
    expect(reason).toContain('Wave 1: 1 of 1 targets failed, more than the threshold (0 targets');
    expect(reason).toContain(`${ROLLOUT_FAILING_ACCOUNT}-launcher`);
    await page.getByRole('alert').filter({ hasText: reason }).waitFor();
    expect(await waveText(page, 1)).toContain('Failed 1');
    expect(await waveText(page, 2)).toContain('Pending 2');
    await shot(page, 'rollout-halted');

    await page.getByRole('button', { name: 'Abort' }).click();
    const confirm = page.getByRole('dialog', { name: 'Abort rollout' });
    await confirm.getByText('Targets whose wave has not started will not be updated').waitFor();
    await confirm.getByRole('button', { name: 'Abort' }).click();
    await toast(page, 'Rollout aborted').waitFor();
    await expect.poll(() => status(page)).toBe('Aborted');
    await expect.poll(() => waveText(page, 2)).toContain('NotApplied 2');
    const table = page.getByRole('table', { name: 'Rollout targets' });
    await expect.poll(async () => ((await table.innerText()).match(/NotApplied/g) ?? []).length).toBe(2);
    const targets = (await api<{ items: TRolloutTarget[] }>(`/rollouts/${id}/targets?limit=50`, adminToken)).items;
    expect(targets.map((t) => [t.id, t.state]).sort()).toEqual([[failing!, 'Failed'], ...rest.map((r) => [r, 'NotApplied'])].sort());
  }, LONG);

  it('waits for a second user to approve each wave of production machines; pauses and resumes between them', async () => {
    const ids = accounts.pause;
    await deployed(ids);
    const commit = await newLauncherCommit(ids[0]!);
    const { page } = await openPage();
    const id = await submitInWaves(page, SETS.pause, ids, commit);
    expect((await rollout(id)).plan.approval).toBe('perWave');

    // Wave 1's deploy waits for approval (Customer Production): the admin who started it may not approve it.
    const banner = page.getByRole('region', { name: 'Wave approval' });
    await banner.getByText('Wave 1 waits for approval: 1 target').waitFor({ timeout: DEPLOY_TIMEOUT });
    await banner.getByText('You started this rollout: another user with write permission approves or rejects its waves.').waitFor();
    expect(await banner.getByRole('button', { name: 'Approve wave' }).isDisabled()).toBe(true);
    expect(await waveText(page, 1)).toContain('AwaitingApproval 1');
    expect(await waveText(page, 1)).toContain('Needs approval');
    await shot(page, 'rollout-awaiting-approval');
    await expectAccessible(page, 'Rollout page awaiting approval');
    const refused = await fetch(`${page.url().split('#')[0]}api/v1/rollouts/${id}/waves/1/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'my own' }),
    });
    expect(refused.status).toBe(403);

    // Paused, the wave approved by lead still deploys and ends; wave 2 does not start, over several engine passes (1 s each).
    await page.getByRole('button', { name: 'Pause' }).click();
    await toast(page, 'Rollout paused').waitFor();
    await expect.poll(() => status(page)).toBe('Paused');
    await approveAsLead(id, 1);
    await explained(() => expect.poll(async () => (await rollout(id)).waves[0]!.status, { timeout: DEPLOY_TIMEOUT }).toBe('Succeeded'), ids, id);
    await expect.poll(() => waveText(page, 1)).toContain('Approved by lead');
    await new Promise((r) => setTimeout(r, 4000));
    const paused = await rollout(id);
    expect(paused.status).toBe('Paused');
    expect(paused.waves[1]).toMatchObject({ status: 'Pending', startedAt: null });
    await expect.poll(() => waveText(page, 1)).toContain('Succeeded 1');
    expect(await waveText(page, 2)).toContain('Pending 1');
    await shot(page, 'rollout-paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await toast(page, 'Rollout resumed').waitFor();
    await approveAsLead(id, 2);
    await completed(page, id, ids);
    const done = await rollout(id);
    expect(done.waves.map((w) => [w.counts.Succeeded, w.approval.decision, w.approval.decidedBy])).toEqual([
      [1, 'Approved', 'lead'],
      [1, 'Approved', 'lead'],
    ]);
  }, LONG);

  it("fails a wave's bake when its machine's probes fail after the deploy, and halts before the next wave", async () => {
    const [failing, other] = accounts.bake;
    await created(failing!);
    expect((await machinesOf(failing!))[0]!.name).toBe(`${ROLLOUT_PROBE_FAILING_ACCOUNT}-launcher`);
    await deployed([other!]);
    const before = await runningLaunchers([failing!, other!]);
    const commit = await newLauncherCommit(failing!);
    const { page } = await openPage();
    const id = await submitInWaves(page, SETS.bake, [failing!, other!], commit, { bakeMinutes: 2, rollBackOnHalt: true });
    expect((await page.locator('.ant-descriptions-item', { hasText: 'Plan' }).innerText())).toContain('each wave bakes 2 min (probes at least 95 %)');

    // Deployed, the wave bakes; its machine's probe fails every 10 s (SIM_PROBE_FAIL_MACHINES), which fails the target at once.
    await expect.poll(() => status(page), { timeout: DEPLOY_TIMEOUT }).toBe('Halted');
    const halted = await rollout(id);
    expect(halted.reason).toMatch(/^Wave 1: 1 of 1 targets failed, more than the threshold/);
    expect(halted.waves[0]!.bake).toMatchObject({ result: 'Failed', unhealthy: 1 });
    await expect.poll(() => waveText(page, 1)).toContain('Bake failed: 1 unhealthy');
    expect(await waveText(page, 2)).toContain('Pending 1');
    const table = page.getByRole('table', { name: 'Rollout targets' });
    await expect.poll(() => table.innerText()).toContain(`Unhealthy after deploy: ${ROLLOUT_PROBE_FAILING_ACCOUNT}-launcher: probe:`);
    await shot(page, 'rollout-bake-failed');
    // onHalt 'rollback': the halt started the rollback by itself (user Rollout); wave 1's machine gets its old version back.
    const rollbackId = await rollbackCompletes(page, id, [failing!, other!], before);
    const back = await rollout(rollbackId);
    expect(back).toMatchObject({ createdBy: 'Rollout', rollbackOf: id, counts: { Succeeded: 1 } });
  }, LONG);

  it('holds a rollout while an admin has frozen the fleet, then while its change window is closed, and goes on once both allow it', async () => {
    const [account] = accounts.freeze;
    await deployed([account!]);
    const commit = await newLauncherCommit(account!);
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/rollouts');
    await page.getByRole('button', { name: 'Freeze fleet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Freeze the fleet' });
    await dialog.getByRole('button', { name: 'Freeze' }).click();
    await dialog.getByText('Say why').waitFor();
    await dialog.getByLabel('Reason').fill('Quarterly close');
    await dialog.getByRole('button', { name: 'Freeze' }).click();
    await toast(page, 'Fleet frozen').waitFor();
    const banner = page.getByRole('region', { name: 'Fleet freeze' });
    await banner.getByText(/^Fleet frozen by admin since .+: Quarterly close$/).waitFor();
    try {
      const started = await api<{ rolloutId: number }>('/software-update/update-accounts', adminToken, {
        method: 'POST',
        body: JSON.stringify({ accounts: [account], launcherVersionMode: 'Select', launcherVersion: commit.ref, rollout: { waves: [] } }),
      });
      await page.goto(`/#/rollouts/${started.rolloutId}`);
      await banner.waitFor();
      // The rollout page says what its wave waits for.
      const waiting = page.getByTestId('rollout-waiting');
      await waiting.getByText('Waiting for the fleet freeze to be released: frozen by admin: Quarterly close').waitFor();
      expect((await rollout(started.rolloutId)).waves[0]).toMatchObject({ status: 'Pending', startedAt: null });
      await shot(page, 'rollout-frozen');

      // A change window of the account's class (Experimental), closed today: released from the freeze, the wave waits for it.
      await setWindows(CLASS_EXPERIMENTAL, [{ days: [closedDay], start: '10:00', end: '12:00', timeZone: 'Europe/Berlin' }]);
      await banner.getByRole('button', { name: 'Release' }).click();
      await page.getByRole('dialog', { name: 'Release the fleet freeze' }).getByRole('button', { name: 'Release' }).click();
      await toast(page, 'Fleet released').waitFor();
      await banner.waitFor({ state: 'hidden' });
      await page.reload();
      const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][closedDay - 1];
      await waiting.getByText(`Waiting for the change window (opens ${weekday} 10:00 Europe/Berlin)`).waitFor();
      expect((await rollout(started.rolloutId)).waves[0]).toMatchObject({ status: 'Pending', startedAt: null });
      await shot(page, 'rollout-change-window');
      await setWindows(CLASS_EXPERIMENTAL, []);
      await completed(page, started.rolloutId, [account!]);
      await waiting.waitFor({ state: 'hidden' });
    } finally {
      await setWindows(CLASS_EXPERIMENTAL, []);
      await fetch(`${page.url().split('#')[0]}api/v1/fleet/freeze`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ frozen: false }),
      });
    }
    // An operator sees no Freeze fleet button.
    const { page: operatorPage } = await openPage();
    const freezeRead = operatorPage.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/fleet/freeze');
    await signIn(operatorPage, 'operator', 'operator', '/rollouts');
    await freezeRead;
    await operatorPage.getByRole('region', { name: 'Fleet counters' }).waitFor();
    expect(await operatorPage.getByRole('button', { name: 'Freeze fleet' }).count()).toBe(0);
  }, LONG);

  it('lists rollouts and links the starting activity to its rollout', async () => {
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', '/rollouts');
    const table = page.getByRole('table', { name: 'Rollouts' });
    await table.getByRole('link').first().waitFor();
    const first = await api<{ items: TRollout[] }>('/rollouts?limit=1', adminToken);
    const latest = first.items[0]!;
    expect(await table.innerText()).toContain(`Rollout ${latest.id}`);
    await shot(page, 'rollouts-list');
    expect(latest.activityId).not.toBeNull();
    await page.goto(`/#/rollouts/${latest.id}`);
    await page.getByRole('link', { name: `Activity ${latest.activityId}` }).click();
    await page.waitForURL(/#\/activity/);
    await page.locator('[aria-label="Activity details"]').getByRole('link', { name: `Rollout ${latest.id}` }).click();
    await page.waitForURL(new RegExp(`#/rollouts/${latest.id}$`));
  });
});
