import { defineConfig } from 'vitest/config';
import { slowFirst } from './vitest.sequencer.js';
import { consoleSchemaValues } from './packages/contracts/src/console-values.ts';

/**
 * Unit and API tests (`npm run test:unit`). API tests run the real Fastify app
 * against a real PostgreSQL: one embedded server (or `DATABASE_URL`) per run, a
 * migrated and demo-seeded template database, and a fresh copy per test file.
 * Files run `UNIT_WORKERS` at once (default 2; Vitest's own default is one
 * fewer than the cores, a single worker on this 2-core machine): an API test
 * spends most of its time waiting for PostgreSQL, and each file has a database
 * of its own. In `npm test`'s first stage on this 2-core machine (2026-11-30),
 * 2 workers took 7 min 35 s with the CPU 20 % idle, 3 took 6 min 24 s with it
 * 6 % idle, but at 3 the restart and crash-recovery tests failed once when
 * other work shared the machine: 2 keeps their headroom.
 *
 * Files of a worker share its process and module cache (`isolate: false`): the
 * server's modules are loaded once per worker instead of once per file (the
 * import time went from about 100 s to 13 s, the run from 5.5 to 4.4 minutes).
 * So a test file restores what it changes in the process: environment variables
 * (`afterAll`), fake timers (`vi.useRealTimers()`), spies (`mockRestore()`).
 */
export default defineConfig({
  // As the console's build defines it (packages/web/vite.config.ts, src/lib/schema-values.ts).
  define: { __CONSOLE_SCHEMA_VALUES__: JSON.stringify(consoleSchemaValues()) },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['packages/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    isolate: false,
    sequence: {
      sequencer: slowFirst([
        'test/restart.test.ts',
        'test/database-loss-external.test.ts',
        'test/database-loss-embedded.test.ts',
        'operations/crash-recovery.test.ts',
        'test/contract-fuzz.test.ts',
        'cli/src/cli.test.ts',
        'tasks/crash-recovery.test.ts',
      ]),
    },
    maxWorkers: Math.max(1, Number(process.env.UNIT_WORKERS ?? 2) || 1),
  },
});
