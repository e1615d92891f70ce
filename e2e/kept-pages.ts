/**
 * Pages kept between the tests of a worker, of one spec file and the next
 * (issue 23, the suite's time).
 *
 * A page load in a new context costs Chromium 3.1–3.6 s of CPU on the 2-core
 * runner; a load in a page whose renderer already ran the console 1.7–1.9 s
 * (its isolate skips the background parse and most lazy compilation; see
 * docs/architecture.md, "The suite's time"). So a page a test passed on is
 * kept for the worker's next test that asks for the same options, reset
 * to what a new page offers:
 * - no route, no listener of the test's, no other page of its context;
 * - no console running: it waits on the server's health answer
 *   ({@link KEPT_PATH}, same origin, not the console), so a previous test's
 *   console cannot write its URL or its storage after the reset, and the
 *   test's first `page.goto('/#/…')` is a real load;
 * - no local or session storage, no cookie (the sidebar's state is one).
 * `signIn` (browser.ts) stores the token there and opens the console: a new
 * page's sign-in goes through a page `page.route` answers, which turns
 * Chromium's cache off and loses the warm renderer.
 * A page is closed instead when its test failed (its retry starts afresh),
 * when the test closed it or its context, or when the test changed what a
 * reset cannot undo: an init script, the page's clock, its emulated media or
 * its viewport ({@link markDirtyOnUse}).
 */
import type { BrowserContext, Page } from 'playwright-core';

/** What a test was given: the context and page, and whether a reset could not undo what it did. */
interface Lent {
  context: BrowserContext;
  page: Page;
  key: string;
  dirty: boolean;
  /** The listeners the page and the context had when first lent (Playwright's own): a reset removes only the others. */
  ownPageListeners: Listeners;
  ownContextListeners: Listeners;
}

/** An emitter's listeners per event. */
type Listeners = Map<string | symbol, Set<unknown>>;

/** A page or context as the event emitter it is at run time (its declared type leaves these out). */
interface Emitter {
  eventNames(): (string | symbol)[];
  listeners(name: string | symbol): unknown[];
  removeListener(name: string | symbol, listener: (...args: unknown[]) => void): unknown;
}
const emitter = (target: Page | BrowserContext) => target as unknown as Emitter;

/** The listeners `target` has now, per event. */
function listenersOf(target: Emitter): Listeners {
  return new Map(target.eventNames().map((name) => [name, new Set<unknown>(target.listeners(name))]));
}

/**
 * Removes the listeners a test added to `target` (those not in `own`).
 * `removeAllListeners` would also remove Playwright's own, and a context
 * without them never finishes closing.
 */
function removeAddedListeners(target: Emitter, own: Listeners): void {
  for (const name of target.eventNames()) {
    for (const listener of target.listeners(name)) {
      if (!own.get(name)?.has(listener)) target.removeListener(name, listener as (...args: unknown[]) => void);
    }
  }
}

/** Where a kept page waits for the next test: the server's health answer, a small same-origin page that is not the console. */
const KEPT_PATH = '/api/v1/health';

/**
 * Page and context methods whose effect outlives a reset: using one makes the
 * page unfit to keep. (`page.clock` is wrapped as a whole.)
 */
const PAGE_DIRTYING = ['addInitScript', 'exposeFunction', 'exposeBinding', 'emulateMedia', 'setViewportSize', 'setExtraHTTPHeaders'] as const;
const CONTEXT_DIRTYING = ['addInitScript', 'exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'setOffline', 'grantPermissions', 'setGeolocation'] as const;

/** Wraps the methods of `target` named in `names` so that a call marks `lent` dirty first. */
function wrapDirtying(target: object, names: readonly string[], lent: Lent): void {
  const methods = target as Record<string, unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = (...args: unknown[]) => {
      lent.dirty = true;
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
}

/** Marks `lent` dirty when its test uses a method whose effect a reset cannot undo (module docstring). */
function markDirtyOnUse(lent: Lent): void {
  wrapDirtying(lent.page, PAGE_DIRTYING, lent);
  wrapDirtying(lent.context, CONTEXT_DIRTYING, lent);
  const clock = lent.page.clock as unknown as Record<string, unknown>;
  wrapDirtying(clock, Object.getOwnPropertyNames(Object.getPrototypeOf(clock) as object).filter((name) => name !== 'constructor'), lent);
}

/**
 * Resets a page its test passed on (module docstring); answers false when it
 * cannot be kept (closed, or a step of the reset failed).
 */
async function reset({ context, page, ownPageListeners, ownContextListeners }: Lent, origin: string): Promise<boolean> {
  if (page.isClosed()) return false;
  try {
    await Promise.all([page.unrouteAll({ behavior: 'ignoreErrors' }), context.unrouteAll({ behavior: 'ignoreErrors' })]);
    removeAddedListeners(emitter(page), ownPageListeners);
    removeAddedListeners(emitter(context), ownContextListeners);
    await Promise.all(context.pages().filter((p) => p !== page).map((p) => p.close()));
    if (!page.url().startsWith(origin)) return false;
    await page.goto(KEPT_PATH);
    await Promise.all([
      page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      }),
      context.clearCookies(),
    ]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pages of one worker: `take` lends a kept page for `key` (or undefined),
 * `lend` records what a test was given, `settle` (after each test) keeps or
 * closes what it was lent, `holds` says whether a context is one of them
 * (lent or kept). The kept ones close with the worker's browser.
 */
export function keptPages(origin: () => string) {
  const kept: Lent[] = [];
  const lent: Lent[] = [];
  return {
    take(key: string): { context: BrowserContext; page: Page } | undefined {
      // A page of a browser that is gone (it crashed and was launched again) is no use.
      kept.splice(0, kept.length, ...kept.filter((k) => !k.page.isClosed()));
      const index = kept.findIndex((k) => k.key === key);
      if (index === -1) return undefined;
      const [entry] = kept.splice(index, 1);
      lent.push(entry!);
      return entry;
    },
    lend(key: string, opened: { context: BrowserContext; page: Page }): void {
      const entry: Lent = {
        ...opened,
        key,
        dirty: false,
        ownPageListeners: listenersOf(emitter(opened.page)),
        ownContextListeners: listenersOf(emitter(opened.context)),
      };
      markDirtyOnUse(entry);
      lent.push(entry);
    },
    async settle(passed: boolean): Promise<void> {
      await Promise.all(
        lent.splice(0).map(async (entry) => {
          if (passed && !entry.dirty && (await reset(entry, origin()))) kept.push(entry);
          else await entry.context.close().catch(() => undefined);
        }),
      );
    },
    holds(context: BrowserContext): boolean {
      return [...kept, ...lent].some((entry) => entry.context === context);
    },
  };
}

/** Whether `page` is a kept page waiting for its test (at {@link KEPT_PATH} of `origin`). */
export const isKept = (page: Page, origin: string) => page.url() === `${origin}${KEPT_PATH}`;
