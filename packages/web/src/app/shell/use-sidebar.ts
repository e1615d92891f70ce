/**
 * Open state of the sidebar (spec 1 §2 Shell, §9): kept in the cookie
 * `fleet.sidebar` ('1' open, '0' closed; open when absent). Entering the mobile
 * layout closes the sidebar without changing the remembered choice, so a
 * desktop user who opens a narrow window once is not left with a closed sidebar.
 */
import { useState } from 'react';
import Cookies from 'js-cookie';
import { isMobileWidth, useIsMobile } from '../../lib/use-mobile-layout';

export const SIDEBAR_COOKIE = 'fleet.sidebar';

function rememberedOpen(): boolean {
  return Cookies.get(SIDEBAR_COOKIE) !== '0';
}

export interface SidebarState {
  open: boolean;
  isMobile: boolean;
  toggle(): void;
  close(): void;
}

export function useSidebar(): SidebarState {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(() => !isMobileWidth() && rememberedOpen());
  const [wasMobile, setWasMobile] = useState(isMobile);

  // Adjusting state to a changed input during render (not in an effect) avoids a
  // frame with the sidebar open over the mobile layout.
  if (wasMobile !== isMobile) {
    setWasMobile(isMobile);
    if (isMobile) setOpen(false);
  }

  const toggle = () => {
    const next = !open;
    Cookies.set(SIDEBAR_COOKIE, next ? '1' : '0', { expires: 365, sameSite: 'lax' });
    setOpen(next);
  };

  return { open, isMobile, toggle, close: () => setOpen(false) };
}
