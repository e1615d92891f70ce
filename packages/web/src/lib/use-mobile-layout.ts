/**
 * The mobile layout switch (spec 1 §2 Shell, §9): the layout is "mobile" when
 * the body is narrower than 1024 minus 3 px; "phone" below antd's `md` (768 px).
 *
 * The body's width is measured once and then followed by a ResizeObserver
 * (window resizes, and a scrollbar appearing or going). Reading it at every
 * render instead (`getBoundingClientRect`) forced a synchronous layout in each
 * component asking, about 70 ms of a page load with a machines table
 * (issue 23, the suite's time; issue 26).
 */
import { useSyncExternalStore } from 'react';

/** Widths below this are mobile, pixels. */
export const MOBILE_BREAKPOINT_PX = 1024 - 3;
/** Widths below this are phones, pixels (antd's `md` breakpoint). */
export const PHONE_BREAKPOINT_PX = 768;

/** The body's border-box width, pixels, as last observed; undefined before the first read. */
let bodyWidth: number | undefined;
const listeners = new Set<() => void>();
let observer: ResizeObserver | undefined;

/** The body's width, pixels: measured at the first call, then as the observer reports it. */
function currentBodyWidth(): number {
  bodyWidth ??= document.body.getBoundingClientRect().width;
  return bodyWidth;
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  if (!observer) {
    observer = new ResizeObserver(([entry]) => {
      const width = entry?.borderBoxSize[0]?.inlineSize ?? entry?.contentRect.width;
      if (width === undefined || width === bodyWidth) return;
      bodyWidth = width;
      for (const listener of listeners) listener();
    });
    observer.observe(document.body);
  }
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) {
      observer?.disconnect();
      observer = undefined;
      // Unobserved, the cached width would go stale: measure again at the next read.
      bodyWidth = undefined;
    }
  };
}

export function isMobileWidth(): boolean {
  return currentBodyWidth() < MOBILE_BREAKPOINT_PX;
}

function isPhoneWidth(): boolean {
  return currentBodyWidth() < PHONE_BREAKPOINT_PX;
}

/** True while the body is narrower than the breakpoint; follows its width. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileWidth);
}

/**
 * True while the body is narrower than a tablet: tables then scroll their
 * actions column with the rest (a pinned one would cover the name), and the
 * breadcrumb shows only the current page.
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, isPhoneWidth);
}

/**
 * The class of a pinned actions column (`app/accessibility.css`): its first
 * button keeps 24px clear of a control of the scrolled cells that ends at the
 * column's edge (a small switch cut by it), WCAG 2.2 SC 2.5.8 spacing.
 */
export const PINNED_ACTIONS_CLASS = 'pinned-actions';

/** Where a table pins its actions column: at the end, but not on a phone (see `useIsPhone`). */
export function useActionsColumnFixed(): 'end' | undefined {
  return useIsPhone() ? undefined : 'end';
}
