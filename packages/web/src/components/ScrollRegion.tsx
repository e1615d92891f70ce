/**
 * A wide table's horizontal scroll box (the viewers, the tasks drawer) that the keyboard can reach: a
 * focusable, named region (axe `scrollable-region-focusable`, WCAG 2.1.1).
 * antd's own scroll box (`scroll={{ x }}`) cannot take focus, and a table with
 * no link or button in its rows (Machines, States) offers nothing else to
 * focus, so the table goes in here without `scroll`; its columns still keep
 * their content on one line (scroll-region.css).
 */
import type { ReactNode } from 'react';
import './scroll-region.css';

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="viewer-scroll-region" role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </div>
  );
}
