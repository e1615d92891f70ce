/**
 * Renders `children` in a background render, after what is around it has
 * painted (React's `useDeferredValue(true, false)`): its first render shows
 * `fallback`, then React renders `children` in slices it interrupts for input
 * and paint, so a screen's heavy lower part does not block the main thread as
 * one long task (issue 26: Total Blocking Time; New Account's cards).
 *
 * The cost: what it holds appears later, the more so the busier the page
 * (React renders it only when nothing more urgent waits). On edit account
 * the settings cards appeared 0.4 to 0.9 s later this way, so they render
 * at once there.
 *
 * Mount it where its content is known (after the data it shows arrived): the
 * deferred render starts when it mounts. Give `fallback` at least the height
 * of what it stands for in view, so nothing visible moves when it is replaced.
 */
import { useDeferredValue, type ReactNode } from 'react';

export function DeferredRender({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : fallback;
}

