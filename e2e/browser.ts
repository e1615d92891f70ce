/**
 * Browser helpers of the e2e specs: one Chromium per worker, a page per test
 * (kept for the worker's next test once it passed: `kept-pages.ts`), sign-in
 * (through the real login form, or with a token as the form stores it), the axe
 * check of a screen and the Content-Security-Policy watch of a page.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { chromium as playwright, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import type { E2eServer } from './global-setup.js';
import { chromiumLaunch } from './chromium-args.js';
import { isKept, keptPages } from './kept-pages.js';
import { CONFIG_COMPONENTS, type TCreateAccountRequest, type TMachineLookup, type TMmaClass, type TUpdateMmaClassRequest } from '@fleet/contracts';

/** The e2e server of this worker (`global-setup.ts`: one per worker, so spec files running at once never share a fleet). */
export function server(): E2eServer {
  const servers = inject('servers');
  return servers[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % servers.length]!;
}

export const baseUrl = () => server().baseUrl;

/**
 * Switches for the tests' Chromium only (bench/web-vitals measures the browser as users run it): V8 and
 * rasterisation on the threads that ask for them. Background compilation, concurrent marking and extra raster
 * threads cost more CPU in all than they save the main thread: a page load took about a fifth less of the
 * 2-core runner's CPU, in the same wall time (2026-12-02; issue 23, the suite's time).
 */
const TEST_ONLY_FLAGS = ['--js-flags=--single-threaded', '--num-raster-threads=1'];

/**
 * Launches the Chromium of the spec file. A Chromium that dies as it starts (SIGSEGV seen once on a loaded 2-core
 * runner, 2026-11-30, failing a whole spec file before any test ran) is launched once more; a second failure fails.
 */
export async function launchBrowser(): Promise<Browser> {
  const launch = await chromiumLaunch();
  const options = { ...launch, args: [...launch.args, ...TEST_ONLY_FLAGS], headless: true };
  try {
    return await playwright.launch(options);
  } catch (err) {
    console.warn(`Chromium did not start (${(err as Error).message.split('\n')[0]}); launching it once more`);
    return playwright.launch(options);
  }
}

/** The spec file's Chromium (the worker's, {@link useBrowser}), set before its tests. */
export let browser: Browser;
/** The admin's bearer token for the spec file's API calls, set before its tests by {@link useBrowserAndAdmin}. */
export let adminToken: string;

/** The worker's Chromium, launched by its first spec file (spec files of a worker share its module cache). */
let workerChromium: Promise<Browser> | undefined;

/**
 * The worker's Chromium: launched once and kept for its next spec files (a launch and its first console load cost
 * Chromium about 2.6 s of CPU more than a load in one already running; issue 23, the suite's time); launched again
 * when it is gone (crashed).
 */
async function workerBrowser(): Promise<Browser> {
  const running = await workerChromium?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerChromium = launchBrowser();
  return workerChromium;
}

/**
 * Gives the spec file the worker's Chromium before its tests, and closes the contexts the file left open after
 * them, but for the pages kept for the next test ({@link pagesPerTest}); call it once, at the top level. A spec file
 * with fixtures of its own calls it first: its `beforeAll` then runs once the browser is there, and its `afterAll`
 * before the clean-up (Vitest runs after-hooks in reverse). Playwright closes the browser when the worker exits.
 */
export function useBrowser(): void {
  beforeAll(async () => {
    browser = await workerBrowser();
  });
  afterAll(async () => {
    const left = browser.contexts().filter((context) => !workerPages.holds(context));
    await Promise.all(left.map((context) => context.close().catch(() => undefined)));
  });
}

/** {@link useBrowser}, and signs the admin in for API calls ({@link adminToken}) before the tests. */
export function useBrowserAndAdmin(): void {
  useBrowser();
  beforeAll(async () => {
    adminToken = await apiToken('admin');
  });
}

/**
 * A fresh context and page of `browser` at 1440×900 (or `width` × `height`), in
 * this process's time zone or `timezoneId` (an IANA name such as `Europe/Paris`).
 */
export async function newPage(
  browser: Browser,
  opts: { width?: number; height?: number; timezoneId?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    timezoneId: opts.timezoneId,
    acceptDownloads: true,
    // The console honours reduced motion (no antd animations): no step races a fade.
    reducedMotion: 'reduce',
  });
  // Well under the test timeout, so that a stuck step names itself. 30 s: on the 2-core runner with the e2e stage's
  // CPU 0 % idle, an Edit page took over 15 s to draw in a full run (clicks and waits timed out on both attempts).
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  return { context, page };
}

/** The worker's pages kept between tests, of its spec files one after another (`kept-pages.ts`). */
const workerPages = keptPages(baseUrl);

/**
 * A page opener for the tests of a spec file (call it at the top level): each call lends a page of the worker's
 * {@link browser}: one kept from an earlier test of the worker (of this spec file or one before it) with the same
 * options (`kept-pages.ts`: reset to what a new page offers, for about half the CPU), else a fresh context's. After
 * each test its pages are kept, or closed when it failed or did what a reset cannot undo.
 */
export function pagesPerTest(): (opts?: Parameters<typeof newPage>[1]) => Promise<{ context: BrowserContext; page: Page }> {
  afterEach(async ({ task }) => {
    await workerPages.settle(task.result?.state !== 'fail');
  });
  return async (opts = {}) => {
    const key = JSON.stringify(opts);
    const kept = workerPages.take(key);
    if (kept) return kept;
    const opened = await newPage(browser, opts);
    workerPages.lend(key, opened);
    return opened;
  };
}

/** The path of the blank page {@link signIn} stores the token from: answered by Playwright, never asked of the server. */
const SIGN_IN_PAGE = '/e2e-sign-in';

/**
 * Opens `/#/login` (with `path` as its redirect), signs in through the form and
 * waits until the console has landed on `path` (or the accounts list for `/`).
 * The sign-in specs (`auth.spec.ts`) use it; the others use {@link signIn}.
 */
export async function signInWithForm(page: Page, username: string, password = username, path = '/') {
  await page.goto(`/#/login${path === '/' ? '' : `?redirect=${encodeURIComponent(path)}`}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /sign in|log in/i }).click();
  await landedOn(page, path);
}

/**
 * Signs in as the console's login form does (`POST /auth/login`, the token kept
 * in `localStorage['fleet.token']`, spec 1 §9) without drawing the login page,
 * then opens `path` and waits until the console has landed there (or on the
 * accounts list for `/`). A kept page (`kept-pages.ts`) waits on the console's
 * origin: the token is stored there before the console loads. A new page stores
 * it from a blank same-origin page that Playwright answers ({@link SIGN_IN_PAGE}),
 * so the console starts signed in (a JSON page of the server's cost Chromium's
 * JSON viewer 0.3 s of CPU per sign-in).
 */
export async function signIn(page: Page, username: string, password = username, path = '/') {
  const token = await apiToken(username, password);
  // A kept page already waits on the console's origin; a new one is given a blank page there.
  const kept = isKept(page, baseUrl());
  if (!kept) {
    await page.route(SIGN_IN_PAGE, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Signing in</title>' }));
    await page.goto(SIGN_IN_PAGE);
  }
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), ['fleet.token', token]);
  if (!kept) await page.unroute(SIGN_IN_PAGE);
  await page.goto(`/#${path}`);
  await landedOn(page, path);
}

async function landedOn(page: Page, path: string) {
  const landing = `#${path === '/' ? '/account/list' : path.split('?')[0]}`;
  await page.waitForURL((url) => url.hash.startsWith(landing));
}

/** A bearer token for API calls made by a test beside the browser. */
export async function apiToken(username: string, password = username): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { accessToken: { token: string } }).accessToken.token;
}

export async function api<T>(path: string, token: string, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl()}/api/v1${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The machine lookup entries (`GET /lookup/machines?ids`) of `ids` that the
 * token's user may see, asked 100 ids at a time (the call's bound).
 */
export async function lookupMachines(ids: Iterable<number>, token: string): Promise<TMachineLookup[]> {
  const unique = [...new Set(ids)];
  const found: TMachineLookup[] = [];
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100);
    found.push(...(await api<TMachineLookup[]>(`/lookup/machines?ids=${chunk.join(',')}&limit=100`, token)));
  }
  return found;
}

/** Waits until nothing on the page is loading (spinners, skeletons), at most 20 s. */
export const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]'), undefined, { timeout: 20_000 });

/** The visible dropdowns of antd Selects and AutoCompletes (normally the one just opened). */
export const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:visible');

/**
 * Waits until no dropdown is visible (one closed a moment ago fades out for a
 * while, and would be found before the one about to open), at most `ms`.
 */
export async function dropdownsClosed(page: Page, ms = 15_000) {
  await page.waitForFunction(() => ![...document.querySelectorAll('.ant-select-dropdown')].some((d) => (d as HTMLElement).offsetParent !== null), undefined, {
    timeout: ms,
  });
}

/**
 * Chooses `option` in an antd Select: opens it and clicks the first visible
 * option containing that text (or, with `exact`, whose text is exactly it).
 * With `search`, types the option's text first, as a user does in a long
 * list: a virtual list draws only the options in view (about ten), so one
 * further down is not there to click until the search brings it up.
 */
export async function chooseOption(page: Page, select: Locator, option: string, opts: { exact?: boolean; search?: boolean } = {}) {
  // A dropdown left open on purpose (a multiple select) does not block: after 3 s, go on.
  await dropdownsClosed(page, 3000).catch(() => undefined);
  await select.click();
  if (opts.search) await select.pressSequentially(option);
  const options = openDropdown(page).locator('.ant-select-item-option');
  await (opts.exact ? options.getByText(option, { exact: true }) : options.filter({ hasText: option })).first().click();
}

/** The antd Select (its whole box) within `scope` whose control is labelled exactly `label`. */
const selectOf = (scope: Locator, label: string) => scope.locator('.ant-select', { has: scope.page().getByLabel(label, { exact: true }) });

/** The text an antd Select shows (its chosen option or tags, or its placeholder). */
export const selectText = (scope: Locator, label: string) => selectOf(scope, label).innerText();

/** Clears an antd Select by its clear icon (shown on hover). */
export async function clearSelect(scope: Locator, label: string) {
  const select = selectOf(scope, label);
  await select.hover();
  await select.locator('.ant-select-clear').click();
}

/** Turns an antd Switch on or off (a no-op when it already is) and waits until it shows that state. */
export async function setSwitch(control: Locator, on: boolean) {
  if ((await control.getAttribute('aria-checked')) !== String(on)) await control.click();
  await control.and(control.page().locator(`[aria-checked="${on}"]`)).waitFor();
}

/** An ISO time as the console shows it (`YYYY-MM-DD HH:mm`) in the browser's (and this process's) time zone. */
export function localDateTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * The zone the console writes after a local time (issue 24 point 8): `UTC` at
 * offset 0, else the offset of `iso` in `timeZone` (default this process's, the
 * browser's unless a page sets its own) as `UTC+1`, `UTC-3`, `UTC+5:30`.
 */
export function shownZone(iso: string, timeZone?: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const offset = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!offset || (offset[2] === '00' && offset[3] === '00')) return 'UTC';
  return `UTC${offset[1]}${Number(offset[2])}${offset[3] === '00' ? '' : `:${offset[3]}`}`;
}

/** An ISO time as the console shows the scheduler's times (`YYYY-MM-DD HH:mm` in UTC): idle Stop at / Resume at, auto-stop time. */
export function utcDateTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Checks by the page's clock (`page.clock`, installed before the page loaded) that `shown`, on screen now, is
 * still there `stillAtMs` later and gone by `goneAtMs`, without waiting for either in real time. Leaving may take
 * its close animation, at most 5 real seconds on a busy runner: a toast or list kept seconds too long fails.
 */
export async function expectShownUntil(page: Page, shown: Locator, { stillAtMs, goneAtMs }: { stillAtMs: number; goneAtMs: number }) {
  await page.clock.runFor(stillAtMs);
  expect(await shown.isVisible()).toBe(true);
  await page.clock.runFor(goneAtMs - stillAtMs);
  await shown.waitFor({ state: 'detached', timeout: 5_000 });
}

/** The image of accounts made by {@link createAccount} (AllInOne, us-east-1, active). */
export const TEST_IMAGE = 'irmn-8.1.3-win2022-use1';

/**
 * The machine config of an account whose machines run no software: every
 * version mode None. A new machine desires its account's versions from its
 * creation, so the deploy controller installs them at once (18 components at
 * Latest: about a minute of the e2e server's simulated work, during which the
 * machine takes no other operation). A spec whose tests queue their own
 * operations, or watch a rollout's deploys alone, makes its accounts with this.
 */
export const NO_SOFTWARE = {
  vmImageName: TEST_IMAGE,
  ...Object.fromEntries(CONFIG_COMPONENTS.map((key) => [`${key}VersionMode`, 'None'])),
} as NonNullable<TCreateAccountRequest['machineConfig']>;
let created = 0;

/**
 * Edits MMA class `classId` as the admin (`PUT /mma/classes/{id}`): its fields
 * as they are now, with `patch` over them (change windows, mode, standby).
 */
export async function updateMmaClass(classId: number, patch: Partial<TUpdateMmaClassRequest>): Promise<TMmaClass> {
  const token = await apiToken('admin');
  const c = (await api<TMmaClass[]>('/mma/classes', token)).find((x) => x.id === classId)!;
  return api<TMmaClass>(`/mma/classes/${classId}`, token, { method: 'PUT', body: JSON.stringify({ ...mmaClassBody(c), ...patch }) });
}

/** The `PUT /mma/classes/{id}` body that leaves class `c` (as `GET /mma/classes` lists it) as it is. */
export function mmaClassBody(c: TMmaClass): TUpdateMmaClassRequest {
  const i = c.mmaInstance!;
  return {
    name: c.name,
    image: c.image,
    deployerBranch: i.deployerBranch,
    deployerVersion: i.deployerVer,
    standby: i.standby,
    priorityGroup: i.priorityGroup,
    caaHost: i.caaHost,
  };
}

/**
 * A new account made through the API as a user would through the console: a
 * draft (`POST /accounts`), then `POST /accounts/create-from-draft`. Its name is
 * `{prefix} {time} {n}` (unique per run); contact Casey; image {@link TEST_IMAGE}
 * unless an add-on (class 200); `extra` overrides any field of the creation
 * payload. Answers the new account's id.
 */
export async function createAccount(token: string, prefix: string, extra: Partial<TCreateAccountRequest> = {}): Promise<number> {
  created += 1;
  const body: TCreateAccountRequest = {
    name: `${prefix} ${Date.now() % 1_000_000} ${created}`,
    contactName: 'Casey Contact',
    contactEmail: 'casey@example.com',
    ...(extra.classId === 200 ? {} : { machineConfig: { vmImageName: TEST_IMAGE } }),
    ...extra,
  };
  const draft = await api<{ draftAccountId: number }>('/accounts', token, { method: 'POST', body: JSON.stringify(body) });
  const { accountId } = await api<{ accountId: number }>('/accounts/create-from-draft', token, {
    method: 'POST',
    body: JSON.stringify({ draftAccountId: draft.draftAccountId }),
  });
  return accountId;
}

/** Impacts of an axe violation that fail a screen (issue 9 §7); minor and moderate ones are left to review. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** The elements axe names beside a failing one (target size: the neighbours too close to it), for the failure message. */
function relatedTo(node: Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number]['nodes'][number]): string {
  const related = [...node.any, ...node.all, ...node.none].flatMap((check) => check.relatedNodes ?? []);
  return related.length === 0 ? '' : `\n    near: ${related.map((r) => `${r.target.join(' ')} ${r.html.slice(0, 160)}`).join('\n    near: ')}`;
}

/**
 * Runs axe on what `page` shows now (its default rules: WCAG 2.0 to 2.2 A and
 * AA and best practices, with target size switched on) and fails, naming
 * `screen`, with every serious or critical violation and the elements it found
 * it on. `within` (a CSS selector) limits the check to that part of the page,
 * e.g. an open dialog; `rules` switches on more of axe's rules (experimental
 * ones Lighthouse runs, such as `label-content-name-mismatch`).
 */
export async function expectAccessible(page: Page, screen: string, opts: { within?: string; rules?: string[] } = {}): Promise<void> {
  const rules = Object.fromEntries(['target-size', ...(opts.rules ?? [])].map((rule) => [rule, { enabled: true }]));
  // Only violations are read: axe then skips writing out selectors of every passing element (its documented speed-up).
  const builder = new AxeBuilder({ page }).options({ rules, resultTypes: ['violations'] });
  // axe.run in the page itself. The default (runPartial per frame, then finishRun
  // in a blank page) opens a new page, so a new renderer process, and injects axe
  // twice at every check: 3 to 5 times the CPU (the edit account page: 13 s of the
  // machine's CPU, 3 s this way) for the same violations. It exists for
  // cross-origin frames, and the console has no frames.
  builder.setLegacyMode(true);
  if (opts.within) builder.include(opts.within);
  const results = await builder.analyze();
  const failing = results.violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? ''));
  const report = failing
    .map((v) => [`${v.id} (${v.impact}): ${v.help}`, ...v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}${relatedTo(n)}`)].join('\n'))
    .join('\n');
  expect(failing.map((v) => v.id), `${screen}:\n${report}`).toEqual([]);
}

/**
 * Starts watching `page` for Content-Security-Policy violations before it loads
 * anything: the browser's `securitypolicyviolation` events (reported from every
 * document the page loads) and console messages about the policy. Answers a
 * function that lists what was seen so far.
 */
export async function watchCsp(page: Page): Promise<() => string[]> {
  const seen: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { reportCspViolation(text: string): Promise<void> }).reportCspViolation(
        `securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || e.documentURI}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/content[- ]security[- ]policy/i.test(message.text())) seen.push(`console ${message.type()}: ${message.text()}`);
  });
  return () => [...seen];
}
