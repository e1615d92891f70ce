/**
 * A list's filter bar: its fields side by side, wrapping on a narrow screen,
 * each with its label above its control, as a vertical antd Form lays them out
 * (label 22 px high and 8 px above the control, the control's box 32 px
 * high at least, 12 px between rows and columns). Not an antd Form: a filter bar holds no form state, and antd's
 * Form brings rc-form and its validator to the screen (about 15 KB gzip of
 * script on the accounts list and Activity Logs; issue 26, script per route).
 *
 * `htmlFor` ties the label to its control (`getByLabel` finds the control); a
 * field without one shows its label as text, and its control names itself
 * (`aria-label`). A Select takes the field's width (`filter-bar.css`), as
 * antd widens it inside a Form.Item.
 */
import type { CSSProperties, ReactNode } from 'react';
import './filter-bar.css';

/** The filter bar: `alignEnd` lines the fields' bottoms up (a bar with a button but no label). */
export function FilterBar({ alignEnd, children }: { alignEnd?: boolean; children: ReactNode }) {
  return <div style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12, alignItems: alignEnd ? 'flex-end' : undefined }}>{children}</div>;
}

/** The label's box, as antd's vertical Form.Item draws it. */
const LABEL_STYLE: CSSProperties = { display: 'block', paddingBottom: 8, lineHeight: '22px' };
/** The control's box: a control's height (32 px) at least, a smaller control (a Switch) centred in it. */
const CONTROL_STYLE: CSSProperties = { display: 'flex', alignItems: 'center', minHeight: 32 };

/** A field of the bar: `label` above `children`; `style` sizes it in the bar (flex, maxWidth). */
export function FilterField({ label, htmlFor, style, children }: { label?: string; htmlFor?: string; style?: CSSProperties; children: ReactNode }) {
  return (
    <div style={{ marginBottom: 12, minWidth: 0, ...style }}>
      {label !== undefined &&
        (htmlFor ? (
          <label htmlFor={htmlFor} style={LABEL_STYLE}>
            {label}
          </label>
        ) : (
          <div style={LABEL_STYLE}>{label}</div>
        ))}
      <div className="filter-field-control" style={CONTROL_STYLE}>
        {children}
      </div>
    </div>
  );
}
