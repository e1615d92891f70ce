/**
 * The mobile layout switch (spec 1 §2 Shell, §9): the layout is "mobile" when
 * the body is narrower than 1024 minus 3 px.
 */
import { useSyncExternalStore } from 'react';

/** Widths below this are mobile, pixels. */
export const MOBILE_BREAKPOINT_PX = 1024 - 3;

export function isMobileWidth(): boolean {
  return document.body.getBoundingClientRect().width < MOBILE_BREAKPOINT_PX;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** True while the body is narrower than the breakpoint; follows window resizes. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileWidth);
}
