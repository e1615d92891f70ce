/**
 * Runs `run` when the browser's main thread is idle (`requestIdleCallback`),
 * at most `timeoutMs` later; at the next task where the browser has no idle
 * callbacks. Answers a function that cancels it (for an effect's clean-up).
 */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
}
