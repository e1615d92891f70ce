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

/** Widths below this are phones, pixels (antd's `md` breakpoint). */
export const PHONE_BREAKPOINT_PX = 768;

function isPhoneWidth(): boolean {
  return document.body.getBoundingClientRect().width < PHONE_BREAKPOINT_PX;
}

/**
 * True while the body is narrower than a tablet: tables then scroll their
 * actions column with the rest (a pinned one would cover the name), and the
 * breadcrumb shows only the current page.
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, isPhoneWidth);
}

/** Where a table pins its actions column: at the end, but not on a phone (see `useIsPhone`). */
export function useActionsColumnFixed(): 'end' | undefined {
  return useIsPhone() ? undefined : 'end';
}
