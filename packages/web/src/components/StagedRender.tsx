/**
 * Renders `stages` one after the other, each in a background render of its own
 * (a React transition, which React renders in slices it interrupts for input
 * and paint) started once the previous stage has committed; an empty block of
 * `placeholderHeight` pixels (`aria-busy`, which the e2e `settled()` waits
 * for) stands for the stages not rendered yet. So a screen's heavy lower part (Edit
 * Account's settings cards, New Account's sections) is not one long task of
 * the main thread but one short commit per stage (issue 26: Total Blocking
 * Time). A stage starts when the main thread is idle (`requestIdleCallback`,
 * at most {@link STAGE_WAIT_MS} later), so the screen's own data and its
 * deferred table rows render first. One `useDeferredValue` for the whole
 * block (as New Account had) commits it in one long task, and nested ones
 * render in the outer one's background render, so they commit as one too.
 *
 * Stages render in order and stay rendered; a stage added later (a prop that
 * changed) renders after those before it. Give `placeholderHeight` at least
 * the height of what it stands for in view, so nothing visible moves when it
 * is replaced.
 */
import { Fragment, startTransition, useEffect, useState, type ReactNode } from 'react';
import { whenIdle } from '../lib/when-idle';

/** Longest wait for an idle main thread before the next stage renders anyway, ms. */
const STAGE_WAIT_MS = 300;

export function StagedRender({ stages, placeholderHeight }: { stages: ReactNode[]; placeholderHeight: number }) {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown < stages.length) return whenIdle(() => startTransition(() => setShown((n) => n + 1)), STAGE_WAIT_MS);
  }, [shown, stages.length]);
  return (
    <>
      {stages.slice(0, shown).map((stage, i) => (
        <Fragment key={i}>{stage}</Fragment>
      ))}
      {shown < stages.length && <div aria-busy="true" style={{ minHeight: placeholderHeight }} />}
    </>
  );
}
