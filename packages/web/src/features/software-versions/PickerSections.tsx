/**
 * The layout shared by the two forms that pick every component's version
 * (spec 1 §2 Component Versions card; spec 3 §2.8 the Updater's software
 * versions block): the core components' pickers, the Integrations pickers
 * under their divider, and the Main and Account Library fields under theirs.
 * The fields bind to the surrounding antd Form.
 */
import type { ReactNode } from 'react';
import { Col, Divider, Row } from 'antd';
import type { TConfigComponent } from '@fleet/contracts';
import { CORE_COMPONENTS, INTEGRATION_COMPONENTS } from './card-components';
import { ComponentVersionItem, type ComponentVersionItemProps } from './ComponentVersionItem';
import { LibraryFilesField, type LibraryFilesFieldProps } from './LibraryFilesField';

/** The columns of one picker: one a row on narrow screens, two from md, three from xxl. */
export const PICKER_COL = { xs: 24, md: 12, xxl: 8 } as const;

/** What every picker of a form is given besides its component (modes, None's label, disabled). */
type PickerProps = Omit<ComponentVersionItemProps, 'component'>;

function SectionDivider({ children }: { children: ReactNode }) {
  return (
    <Divider titlePlacement="start" plain style={{ marginTop: 4 }}>
      {children}
    </Divider>
  );
}

function PickerRow({ components, picker, children }: { components: readonly TConfigComponent[]; picker: PickerProps; children?: ReactNode }) {
  return (
    <Row gutter={16}>
      {components.map((c) => (
        <Col key={c} {...PICKER_COL}>
          <ComponentVersionItem component={c} {...picker} />
        </Col>
      ))}
      {children}
    </Row>
  );
}

/**
 * The core components' pickers, then the Integrations divider and their
 * pickers, each given `picker`. `extra` adds columns after the core pickers
 * (the Updater's deployer).
 */
export function ComponentPickers({ picker, extra }: { picker: PickerProps; extra?: ReactNode }) {
  return (
    <>
      <PickerRow components={CORE_COMPONENTS} picker={picker}>
        {extra}
      </PickerRow>
      <SectionDivider>Integrations</SectionDivider>
      <PickerRow components={INTEGRATION_COMPONENTS} picker={picker} />
    </>
  );
}

/** The Library files divider, then the Main and Account Library fields side by side. */
export function LibraryFilesSection(props: Omit<LibraryFilesFieldProps, 'kind'>) {
  return (
    <>
      <SectionDivider>Library files</SectionDivider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <LibraryFilesField kind="main" {...props} />
        </Col>
        <Col xs={24} md={12}>
          <LibraryFilesField kind="account" {...props} />
        </Col>
      </Row>
    </>
  );
}
