import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './global-setup.js';
import { slowFirst } from '../vitest.sequencer.js';

/**
 * End-to-end tests (`npm run test:e2e`): the real server on a fresh demo-seeded
 * data folder, driven in headless Chromium (playwright-core with the Chromium of
 * @sparticuz/chromium: no browser download, no system package). `E2E_WORKERS`
 * spec files (default 2) run at once, each worker against a server of its own
 * (`global-setup.ts`). Three at once kept the 2-core runner's CPU 0 % idle
 * with a load average of 15, and pages took over 15 s to draw (2026-11-29).
 *
 * Spec files of a worker share its module cache (`isolate: false`): playwright,
 * axe and the contracts load once per worker, not once per file (the import
 * time went from about 100 s to 11 s). So a spec keeps its state in its own
 * module (browser.ts sets `browser` and `adminToken` again in each file's
 * `beforeAll`).
 */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.spec.ts'],
    globalSetup: ['./global-setup.ts'],
    // Every failed attempt is printed, the first of a test that passes on its retry too.
    setupFiles: ['./log-failed-attempts.ts'],
    maxWorkers: E2E_WORKERS,
    isolate: false,
    sequence: { sequencer: slowFirst(['accessibility.spec.ts', 'rollouts.spec.ts', 'accessibility-machine-menu.spec.ts']) },
    // A failed test runs once more. Some dialogs' steps race antd's animations on
    // a busy 2-core runner (see docs/architecture.md, Known limitations); a test
    // that fails twice fails the run.
    retry: 1,
    testTimeout: 120_000,
    // A state the console reaches "soon" on a busy runner: as long as a locator waits (browser.ts).
    expect: { poll: { timeout: 30_000, interval: 100 } },
    hookTimeout: 180_000,
  },
});
