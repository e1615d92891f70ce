/**
 * Prints every failed attempt of an end-to-end test: a test that passes on its
 * retry (`retry: 1`, e2e/vitest.config.ts) otherwise leaves no trace of why it
 * failed first, and the flakes of a loaded runner (docs/architecture.md, Known
 * limitations) cannot be told apart. One line names the file, the test and the
 * attempt, then the error's message and the top of its stack.
 */
import { beforeEach } from 'vitest';

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    const error = task.result?.errors?.[0];
    const attempt = (task.result?.retryCount ?? 0) + 1;
    const stack = (error?.stack ?? '').split('\n').slice(1, 6).join('\n');
    console.error(`[e2e] attempt ${attempt} of ${task.file?.name ?? ''} > ${task.name} failed: ${error?.message ?? 'no error recorded'}\n${stack}`);
  });
});
