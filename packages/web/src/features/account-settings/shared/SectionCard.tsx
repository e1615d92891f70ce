/**
 * A collapsible settings card (spec 1 §2: Account Properties, Instance Settings,
 * License Settings, Backup Settings, Idle Schedule are each "collapsible"):
 * a titled panel, open by default, with its buttons in a footer row. Used by
 * the edit screen and by the create form alike.
 */
import type { ReactNode } from 'react';
import { Collapse, Flex } from 'antd';

export interface SectionCardProps {
  /** Title, also the accessible name of the region, e.g. 'License Settings'. */
  title: string;
  /** Extra element at the right of the header (e.g. a template picker). */
  extra?: ReactNode;
  /** Buttons below the fields (Push …, downloads). */
  footer?: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}

export function SectionCard({ title, extra, footer, defaultOpen = true, children }: SectionCardProps) {
  return (
    <section aria-label={title}>
      <Collapse
        // The title (and its arrow) is the toggle, not the whole header: the header
        // also holds `extra` controls, and a control inside a button is unreachable
        // for a screen reader (axe: nested-interactive).
        collapsible="header"
        defaultActiveKey={defaultOpen ? ['section'] : []}
        items={[
          {
            key: 'section',
            label: <strong>{title}</strong>,
            extra,
            children: (
              <>
                {children}
                {footer && (
                  <Flex gap={8} wrap justify="end" style={{ marginTop: 12 }}>
                    {footer}
                  </Flex>
                )}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
