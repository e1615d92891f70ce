/**
 * bench/web-vitals (issue 26 point 1): Lighthouse on every screen of the
 * console's router table, signed in as `admin`, as a desktop (1350×940) with no
 * throttling, three runs of each (rounds: every screen once, then again), and
 * per screen the median of each number:
 *
 * | number | budget |
 * |---|---|
 * | Largest Contentful Paint | ≤ 1.5 s |
 * | Cumulative Layout Shift | ≤ 0.05 |
 * | Total Blocking Time | ≤ 200 ms |
 * | script loaded by the screen, gzip | ≤ 300 KB (the login page ≤ 200 KB) |
 *
 * and the performance score (median) and the accessibility score (first round
 * only; no budget here, the issue keeps accessibility at 100). Script bytes are
 * the gzip -9 size (as bench/web-bundle measures) of every script Lighthouse saw
 * the page load, read from the build; the bytes on the wire are printed beside
 * them, and the run says whether the server compressed them (it did not when
 * this was written).
 *
 * How (bench/lib/lighthouse.ts for the audit itself, and where its numbers may
 * differ from a plain `lighthouse` run):
 * 1. Builds the console into `.bench-data/web-vitals-console/dist`, away from
 *    `packages/web/dist`, which the e2e runs of other work rebuild at any time
 *    (the server registers the files of its `WEB_DIST` at start: a rebuild under
 *    a running server leaves it answering index.html for the new chunks).
 * 2. Starts the server on the demo seed (bench/lib/server.ts, `.bench-data/web-vitals`)
 *    with that build. The routes with an id get one: the first account with
 *    machines, the newest operation, the newest rollout (made through
 *    `POST /software-update/update-accounts` when there is none).
 * 3. One audit of the accounts list first, not counted (the server's and the
 *    browser's first start), then the rounds.
 * 4. A run counts only when Lighthouse reported no fatal error (NO_FCP,
 *    PAGE_HUNG) and the page ended on its own route (`location.hash`), titled
 *    as a signed-in screen (the login page: titled Login, with its password
 *    field); the others are named under the table, and a screen without a
 *    counted run is not measured.
 *
 * The routes: every page of `packages/web/src/app/routes.tsx` (`consoleRoutes`
 * of bench/web-bundle) but `/viewer`, which only redirects to `/viewer/issues`.
 * `BENCH_WEB_VITALS_ROUTES=/login,/activity` audits only those (route patterns
 * as in the table), `BENCH_WEB_VITALS_RUNS` sets the runs (default 3).
 *
 * Known limitations: the two cores are shared with the server, PostgreSQL and
 * whatever else runs, so a median of three is still noisy (LCP by tenths of a
 * second); compare runs made on a quiet machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TBatchResult, TListAccountsResponse, TListCommitsResponse, TOperationsPage, TRolloutsResponse, TUpdateAccountsRequest } from '@fleet/contracts';
import { apiClient, root, startServer, token, type BenchServer } from './lib/server.js';
import { percentile } from './lib/load.js';
import type { ScreenRun } from './lib/lighthouse.js';
import { consoleRoutes } from './web-bundle.js';

const RUNS = Number(process.env.BENCH_WEB_VITALS_RUNS ?? 3);
const ONLY = process.env.BENCH_WEB_VITALS_ROUTES?.split(',').filter(Boolean);
const dist = join(root, '.bench-data/web-vitals-console/dist');

const BUDGET = { lcpMs: 1500, cls: 0.05, tbtMs: 200, scriptKB: 300, loginScriptKB: 200 };

/** A screen to audit: its route pattern (`/account/edit/:id`) and the path audited (`/account/edit/60`). */
export interface Screen {
  route: string;
  path: string;
}

function buildConsole(): void {
  const build = spawnSync('npm', ['run', 'build', '-w', 'packages/web', '--', '--outDir', dist, '--emptyOutDir'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
}

/** The routes of the router table with an id, which {@link routeIds} fills. */
export const ROUTES_WITH_IDS = ['/account/edit/:id', '/operations/:id', '/rollouts/:id'] as const;

/** The ids of {@link ROUTES_WITH_IDS} on the bench server (module docstring, step 2). */
async function routeIds(server: BenchServer): Promise<Record<(typeof ROUTES_WITH_IDS)[number], number>> {
  const { get, post } = await apiClient(server.baseUrl);
  const account = (await get<TListAccountsResponse>('/accounts?limit=50')).items.find((a) => !a.restricted && a.machineStats.machines > 0);
  if (!account) throw new Error('the demo seed has no account with machines');
  const operation = (await get<TOperationsPage>('/operations?limit=1')).items[0];
  if (!operation) throw new Error('the demo seed has no operation');
  let rolloutId = (await get<TRolloutsResponse>('/rollouts?limit=1')).items[0]?.id;
  // The launcher of one account to a commit it does not run yet, as a rollout with the default plan.
  const commits = (await get<TListCommitsResponse>('/software/launcher/commits?branch=release%2F8.1&limit=20')).items.filter((c) => !c.isBreaking);
  for (const commit of commits) {
    if (rolloutId !== undefined) break;
    const update: TUpdateAccountsRequest = { accounts: [account.id], launcherVersionMode: 'Select', launcherVersion: `${commit.branch}|${commit.shortHash}`, rollout: {} };
    rolloutId = (await post<TBatchResult>('/software-update/update-accounts', update)).rolloutId ?? undefined;
  }
  if (rolloutId === undefined) throw new Error(`no rollout could be made for account ${account.id}`);
  return { '/account/edit/:id': account.id, '/operations/:id': operation.id, '/rollouts/:id': rolloutId };
}

/**
 * The screens to audit: the routes of the router table but `/viewer` (or those
 * of `only`), the login page first, with the ids of `ids` filled in.
 */
export function screensOf(ids: Record<string, number>, only?: string[]): Screen[] {
  const routes = consoleRoutes()
    .map(([route]) => route)
    .filter((route) => route !== '/viewer' && (!only || only.includes(route)));
  if (only && routes.length !== only.length) throw new Error(`BENCH_WEB_VITALS_ROUTES names routes the router table does not have: ${only.join(', ')}`);
  // The login page first, then the router table's order.
  routes.sort((a, b) => Number(b === '/login') - Number(a === '/login'));
  return routes.map((route) => {
    if (!route.includes(':')) return { route, path: route };
    const id = ids[route];
    if (id === undefined) throw new Error(`route ${route} has a parameter bench/web-vitals cannot fill: add it to ROUTES_WITH_IDS and routeIds()`);
    return { route, path: route.replace(/:[a-z]+/i, String(id)) };
  });
}

/** Why a run does not count (module docstring, step 4), or null. */
function notCounted(screen: Screen, run: ScreenRun): string | null {
  if (run.error) return run.error;
  const c = run.check;
  if (c.hash !== `#${screen.path}`) return `ended on ${c.hash || 'no route'} ("${c.title}")`;
  // The route is right; the login page is also the only page titled Login.
  const login = c.title.startsWith('Login |');
  if (screen.route === '/login' ? !login || !c.passwordField : login) return `ended on the login page's title or without its form ("${c.title}")`;
  return null;
}

const median = (values: (number | null)[]) => {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  return sorted.length === 0 ? null : percentile(sorted, 50);
};

/** Gzip -9 bytes of each served script file, read from the build (bench/web-bundle's measure). */
const gzipCache = new Map<string, number>();
function gzipBytes(url: string): number {
  const file = join(dist, decodeURIComponent(new URL(url).pathname));
  if (!gzipCache.has(file)) {
    if (!existsSync(file)) throw new Error(`${url} is not a file of the build in ${dist}`);
    gzipCache.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
  }
  return gzipCache.get(file)!;
}

interface Row {
  screen: Screen;
  counted: ScreenRun[];
  /** Reasons of the runs that did not count. */
  dropped: string[];
}

function verdict(value: number, budget: number): string {
  return value <= budget ? 'PASS' : 'FAIL';
}

/** Prints the table, the summary line and the notes; answers how many screens are within every budget. */
function report(rows: Row[]): void {
  console.log('| screen | perf score | LCP (≤ 1.5 s) | CLS (≤ 0.05) | TBT (≤ 200 ms) | script KB gzip (≤ 300, login ≤ 200) | script KB as served | accessibility | runs |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  let within = 0;
  for (const { screen, counted } of rows) {
    if (counted.length === 0) {
      console.log(`| ${screen.path} | not measured: no run ended on the screen (below) | | | | | | | 0 of ${RUNS} |`);
      continue;
    }
    const lcp = median(counted.map((r) => r.lcpMs))!;
    const cls = median(counted.map((r) => r.cls))!;
    const tbt = median(counted.map((r) => r.tbtMs))!;
    // Every counted run loads the same files; the first run's list is the screen's.
    const scripts = counted[0]!.scripts;
    const gzipKB = scripts.reduce((s, f) => s + gzipBytes(f.url), 0) / 1024;
    const servedKB = median(counted.map((r) => r.scripts.reduce((s, f) => s + f.transferBytes, 0)))! / 1024;
    const scriptBudget = screen.route === '/login' ? BUDGET.loginScriptKB : BUDGET.scriptKB;
    const verdicts = [verdict(lcp, BUDGET.lcpMs), verdict(cls, BUDGET.cls), verdict(tbt, BUDGET.tbtMs), verdict(gzipKB, scriptBudget)];
    if (verdicts.every((v) => v === 'PASS')) within += 1;
    console.log(
      `| ${screen.path} | ${median(counted.map((r) => r.performance)) ?? '—'} | ${(lcp / 1000).toFixed(2)} s ${verdicts[0]} | ${cls.toFixed(3)} ${verdicts[1]} ` +
        `| ${Math.round(tbt)} ms ${verdicts[2]} | ${gzipKB.toFixed(1)} (${scripts.length} files) ${verdicts[3]} | ${servedKB.toFixed(1)} ` +
        `| ${counted.find((r) => r.accessibility !== null)?.accessibility ?? '—'} | ${counted.length} of ${RUNS} |`,
    );
  }
  console.log(`\n${within} of ${rows.length} screens within every budget`);

  console.log('\n| screen | LCP element (last candidate, its run with the median LCP) | at the end of the audit |');
  console.log('|---|---|---|');
  for (const { screen, counted, dropped } of rows) {
    const lcp = median(counted.map((r) => r.lcpMs));
    const run = counted.find((r) => r.lcpMs === lcp);
    const element = run?.check.lcp ? `${run.check.lcp.what.replace(/\|/g, '\\|')} at ${run.check.lcp.ms} ms${/ant-spin/.test(run.check.lcp.what) ? ' (a spinner)' : ''}` : '—';
    const loading = counted.filter((r) => r.check.stillLoading).length;
    const failures = [...new Set(counted.flatMap((r) => r.accessibilityFailures))];
    const notes = [
      ...(failures.length > 0 ? [`accessibility audits failed: ${failures.join('; ').replace(/\|/g, '\\|')}`] : []),
      ...(loading > 0 ? [`a spinner or skeleton still shown in ${loading} of ${counted.length} runs`] : []),
      ...dropped.map((why) => `not counted: ${why.replace(/\|/g, '\\|')}`),
    ];
    console.log(`| ${screen.path} | ${element} | ${notes.join('; ') || `"${run?.check.title ?? ''}"`} |`);
  }
}

async function benchWebVitals(): Promise<void> {
  const started = Date.now();
  // Imported here: bench-lists.test.ts reads screensOf() without loading Lighthouse.
  const { auditScreen, launchChromium } = await import('./lib/lighthouse.js');
  buildConsole();
  const server = await startServer({ name: 'web-vitals', seed: 'demo', env: { WEB_DIST: dist } });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  try {
    const screens = screensOf(await routeIds(server), ONLY);
    const audit = async (screen: Screen, accessibility: boolean) =>
      auditScreen(browser, {
        origin: server.baseUrl,
        url: `${server.baseUrl}/#${screen.path}`,
        token: screen.route === '/login' ? null : await token(server.baseUrl),
        accessibility,
      });
    const warmUp = await audit({ route: '/account/list', path: '/account/list' }, false);
    console.log(
      `bench/web-vitals: Lighthouse ${warmUp.lighthouseVersion}, ${await browser.version()}, desktop 1350×940, no throttling; ` +
        `${screens.length} screens × ${RUNS} runs, medians`,
    );
    const rows: Row[] = screens.map((screen) => ({ screen, counted: [], dropped: [] }));
    for (let round = 1; round <= RUNS; round += 1) {
      const roundStarted = Date.now();
      for (const row of rows) {
        // Accessibility in the first round only: axe finds the same every time, and it costs seconds.
        const run = await audit(row.screen, round === 1);
        const why = notCounted(row.screen, run);
        if (why) row.dropped.push(`run ${round}: ${why}`);
        else row.counted.push(run);
      }
      console.log(`  (round ${round} of ${RUNS}: ${((Date.now() - roundStarted) / 1000).toFixed(0)} s)`);
    }
    console.log('');
    report(rows);
    const served = rows.flatMap((r) => r.counted.flatMap((run) => run.scripts));
    const compressed = served.reduce((s, f) => s + f.transferBytes, 0) < 0.9 * served.reduce((s, f) => s + f.resourceBytes, 0);
    console.log(
      `\nScript KB gzip: gzip -9 of the scripts each screen loaded (Lighthouse's network requests, resource type Script); ` +
        `as served: their bytes on the wire, which the server sent ${compressed ? 'compressed' : 'uncompressed'}.`,
    );
    console.log(`bench/web-vitals took ${((Date.now() - started) / 60_000).toFixed(1)} minutes`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWebVitals();
