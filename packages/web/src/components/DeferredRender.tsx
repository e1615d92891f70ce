/**
 * Renders `children` in a background render, after what is around it has
 * painted (React's `useDeferredValue(true, false)`): its first render shows
 * `fallback`, then React renders `children` in slices it interrupts for input
 * and paint, so a screen's heavy lower part does not block the main thread as
 * one long task (issue 26: Total Blocking Time; the edit-account screen's
 * five settings forms took about 1 s of script at once).
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

/**
 * Renders `items` one after the other, each in its own background render
 * once the one before it is in the page ({@link DeferredRender} nested): the
 * work is cut into one commit per item instead of one for all. `fallback`
 * stands for the items not yet rendered.
 */
export function DeferredSequence({ items, fallback }: { items: readonly ReactNode[]; fallback: ReactNode }) {
  if (items.length === 0) return null;
  const [first, ...rest] = items;
  return (
    <>
      {first}
      {rest.length > 0 && (
        <DeferredRender fallback={fallback}>
          <DeferredSequence items={rest} fallback={fallback} />
        </DeferredRender>
      )}
    </>
  );
}
