/**
 * An antd Tooltip mounted when the pointer first enters its child or the child
 * first takes focus (issue 26, Total Blocking Time). A table with a tooltip in
 * each row mounted a trigger per row (its hooks, its layout effects) before
 * anyone hovered anything: the Operations and States viewers spent a tenth of
 * their first render on them. Until then the child is drawn as it is; from then
 * on it is an antd Tooltip, open at once (the pointer is on it already), shown
 * on hover and on focus.
 *
 * `children`: one element that takes `onMouseEnter` and `onFocus` and a ref (a
 * `span`, a router `Link`), as antd's Tooltip needs.
 */
import { cloneElement, useState, type FocusEvent, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { Tooltip } from 'antd';

type Child = ReactElement<{ onMouseEnter?: (e: MouseEvent) => void; onFocus?: (e: FocusEvent) => void }>;

export function LazyTooltip({ title, children }: { title: ReactNode; children: Child }) {
  const [armed, setArmed] = useState(false);
  if (armed) {
    return (
      <Tooltip title={title} defaultOpen trigger={['hover', 'focus']}>
        {children}
      </Tooltip>
    );
  }
  return cloneElement(children, {
    onMouseEnter: (e: MouseEvent) => {
      children.props.onMouseEnter?.(e);
      setArmed(true);
    },
    onFocus: (e: FocusEvent) => {
      children.props.onFocus?.(e);
      setArmed(true);
    },
  });
}
