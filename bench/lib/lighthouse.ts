/**
 * One Lighthouse audit of a console screen for bench/web-vitals: Lighthouse
 * (the `lighthouse` package, pinned) drives the Chromium of `@sparticuz/chromium`
 * that the e2e tests use, launched through `puppeteer-core` (the copy Lighthouse
 * itself depends on, so that the page handed to it is of its own type), as a
 * desktop (1350×940, device scale 1) without any throttling: the load is as fast
 * as this machine serves and renders it.
 *
 * Signed in as the console's login form does (spec 1 §9): the token goes into
 * `localStorage['fleet.token']` from a same-origin JSON page before the audit.
 * Lighthouse's storage reset (`clearStorageTypes` below) clears the caches, the
 * service workers and the cache storage, not local storage, so every run loads
 * the screen's code cold and signed in. After the audit the page is asked where
 * it landed ({@link ScreenCheck}): a screen that the console sent to the login
 * page (or to `/` for a missing permission) is reported as such, not measured.
 *
 * Two choices that make the numbers differ from a plain `lighthouse` CLI run:
 *
 * - Lighthouse's trace also records style-invalidation tracking and a stack for
 *   every timeline event (`…timeline.invalidationTracking`, `…timeline.stack`),
 *   for the DevTools view of a trace and the root causes of layout shifts; no
 *   metric reads them. On the accounts list they made a 40 MB trace whose
 *   `Tracing.end` took 94 s on this 2-core machine (5 MB and under 1 s without
 *   them). {@link LeanTrace} leaves them out.
 * - Only the performance metrics, the network requests, the final screenshot
 *   and (when asked) the accessibility category are audited (`onlyAudits`): the
 *   performance score is the weighted mean of the five metrics alone, so it is
 *   the same, and the other diagnostics' gatherers (JS coverage, the debugger's
 *   source maps, CSS rule usage) would run during the load being timed.
 *
 * Known limitations: Lighthouse 12.2.3 cannot name the LCP element on this
 * Chromium (its TraceElements gatherer failed on Chromium 147's trace: "Cannot
 * read properties of undefined (reading 'frame_sequence')"), so the page
 * records it itself ({@link LCP_RECORDER}). The machine's other
 * work (two cores, often shared) makes single runs noisy: bench/web-vitals
 * takes medians.
 */
import { chromiumLaunch } from '../../e2e/chromium-args.js';
import puppeteer, { type Browser } from 'puppeteer-core';
import lighthouse, { defaultConfig, desktopConfig, type Config, type Result } from 'lighthouse';
import Trace from 'lighthouse/core/gather/gatherers/trace.js';

/** Lighthouse's trace categories that no metric reads (module docstring). */
const LEFT_OUT_TRACE_CATEGORIES = new Set(['disabled-by-default-devtools.timeline.invalidationTracking', 'disabled-by-default-devtools.timeline.stack']);

/** Lighthouse's trace gatherer without {@link LEFT_OUT_TRACE_CATEGORIES} (navigation mode only). */
class LeanTrace extends Trace {
  override async startSensitiveInstrumentation({ driver }: Parameters<Trace['startSensitiveInstrumentation']>[0]): Promise<void> {
    const categories = Trace.getDefaultTraceCategories().filter((c) => !LEFT_OUT_TRACE_CATEGORIES.has(c));
    await driver.defaultSession.sendCommand('Page.enable');
    // As Lighthouse's own gatherer starts it.
    await driver.defaultSession.sendCommand('Tracing.start', { categories: categories.join(','), options: 'sampling-frequency=10000' });
  }
}

/**
 * The audits whose numbers are reported: the performance category's five
 * weighted metrics among them, so that its score is Lighthouse's.
 */
const PERFORMANCE_AUDITS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'speed-index',
  'total-blocking-time',
  'cumulative-layout-shift',
  'network-requests',
  'final-screenshot',
];
const ACCESSIBILITY_AUDITS = defaultConfig.categories?.accessibility?.auditRefs.map((ref) => ref.id) ?? [];

/** The configuration of an audit, with the whole accessibility category or without it. */
function config(accessibility: boolean): Config {
  return {
    extends: 'lighthouse:default',
    artifacts: [{ id: 'Trace', gatherer: LeanTrace }],
    settings: {
      ...desktopConfig.settings,
      formFactor: 'desktop',
      screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false },
      throttlingMethod: 'provided',
      throttling: { rttMs: 0, throughputKbps: 0, requestLatencyMs: 0, downloadThroughputKbps: 0, uploadThroughputKbps: 0, cpuSlowdownMultiplier: 1 },
      // Each category keeps those of its audits named here.
      onlyAudits: [...PERFORMANCE_AUDITS, ...(accessibility ? ACCESSIBILITY_AUDITS : [])],
      // Lighthouse's default, written out: local storage (the token) is not cleared.
      clearStorageTypes: ['file_systems', 'shader_cache', 'service_workers', 'cache_storage'],
      disableFullPageScreenshot: true,
    },
  };
}

/** The e2e tests' Chromium, headless, for Lighthouse. */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, args } = await chromiumLaunch();
  // Puppeteer's `headless: 'shell'` sets the switch itself; @sparticuz/chromium's own spelling of it goes.
  return puppeteer.launch({ executablePath, args: args.filter((a) => a !== "--headless='shell'"), headless: 'shell', defaultViewport: null });
}

/**
 * Runs in every document of an audited page (before its own scripts): keeps the
 * last largest-contentful-paint candidate as it was when painted (`tag.class
 * "text"`, and its time in ms), since the element may be gone by the end (a
 * spinner replaced by the screen). A string, so that no helper of the bench's
 * compiler ends up in the page.
 */
const LCP_RECORDER = `new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const el = entry.element;
    const cls = el && typeof el.className === 'string' ? el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '';
    const text = el ? (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40) : '';
    const what = el ? el.tagName.toLowerCase() + (cls ? '.' + cls : '') + (text ? ' "' + text + '"' : '') : entry.url || '(element gone)';
    window.__benchLcp = { what, ms: Math.round(entry.startTime) };
  }
}).observe({ type: 'largest-contentful-paint', buffered: true });`;

/** Where the audited page was once Lighthouse had finished with it. */
export interface ScreenCheck {
  /** `location.hash` without its query, e.g. `#/activity`. */
  hash: string;
  title: string;
  /** A password field is shown (the login form; Account Settings has one too). */
  passwordField: boolean;
  /** A spinner, skeleton or busy region was still shown (the screen had not finished loading). */
  stillLoading: boolean;
  /** The last LCP candidate as the page saw it, `null` when none was painted. */
  lcp: { what: string; ms: number } | null;
}

/** One audit's numbers. */
export interface ScreenRun {
  lighthouseVersion: string;
  /** Lighthouse's fatal error (e.g. NO_FCP): then no metric. */
  error?: string;
  /** Performance and accessibility scores, 0–100 (accessibility `null` when not audited). */
  performance: number | null;
  accessibility: number | null;
  /** The accessibility audits that failed (`id: title (the first element's selector)`), when audited. */
  accessibilityFailures: string[];
  lcpMs: number | null;
  cls: number | null;
  tbtMs: number | null;
  /** Every script the page loaded: bytes on the wire (headers included) and decoded. */
  scripts: { url: string; transferBytes: number; resourceBytes: number }[];
  check: ScreenCheck;
}

/**
 * Audits `url` (a console route, `…/#/activity`) on a new page of `browser`,
 * signed in with `token` (or signed out with `null`); with `accessibility`, the
 * accessibility category too (axe runs once the load is measured: 3 to 9 s more
 * on this machine, no change to the metrics). `origin` is where the token is
 * stored from (`/api/v1/health` there).
 */
export async function auditScreen(browser: Browser, o: { origin: string; url: string; token: string | null; accessibility: boolean }): Promise<ScreenRun> {
  const page = await browser.newPage();
  try {
    await page.goto(`${o.origin}/api/v1/health`);
    await page.evaluate((token) => (token === null ? localStorage.removeItem('fleet.token') : localStorage.setItem('fleet.token', token)), o.token);
    await page.evaluateOnNewDocument(LCP_RECORDER);
    await page.bringToFront();
    const result = await lighthouse(o.url, { logLevel: 'error' }, config(o.accessibility), page);
    if (!result) throw new Error(`Lighthouse returned nothing for ${o.url}`);
    const check = (await page.evaluate(`({
      hash: location.hash.split('?')[0],
      title: document.title,
      passwordField: document.querySelector('input[type=password]') !== null,
      stillLoading: document.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]') !== null,
      lcp: window.__benchLcp ?? null,
    })`)) as ScreenCheck;
    return { ...numbers(result.lhr), check };
  } finally {
    await page.close();
  }
}

function numbers(lhr: Result): Omit<ScreenRun, 'check'> {
  const score = (id: string) => {
    const s = lhr.categories[id]?.score;
    return typeof s === 'number' ? Math.round(s * 100) : null;
  };
  const value = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const failed = ACCESSIBILITY_AUDITS.filter((id) => lhr.audits[id]?.score === 0).map((id) => {
    const audit = lhr.audits[id]!;
    const items = audit.details?.type === 'table' ? audit.details.items : [];
    const node = items[0]?.node as { selector?: string } | undefined;
    return `${id}: ${audit.title}${node?.selector ? ` (${node.selector})` : ''}`;
  });
  const details = lhr.audits['network-requests']?.details;
  const rows = details?.type === 'table' ? details.items : [];
  const scripts = rows
    .filter((r) => r.resourceType === 'Script')
    .map((r) => ({ url: String(r.url), transferBytes: Number(r.transferSize ?? 0), resourceBytes: Number(r.resourceSize ?? 0) }));
  return {
    lighthouseVersion: lhr.lighthouseVersion,
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined,
    performance: score('performance'),
    accessibility: score('accessibility'),
    accessibilityFailures: failed,
    lcpMs: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbtMs: value('total-blocking-time'),
    scripts,
  };
}
