/**
 * One component's version picker bound to the surrounding Form's
 * `{component}VersionMode` and `{component}Version` fields (spec 1 §2 Component
 * Versions card, §4; machineConfig of spec 1 §3). A missing mode reads as Latest
 * (spec 1 §9 default).
 */
import { Form } from 'antd';
import { COMPONENT_LABELS, type TAccountVersionMode, type TConfigComponent } from '@fleet/contracts';
import { HiddenFields } from './form-binding';
import { VersionPicker, type VersionPickerProps } from './VersionPicker';

export interface ComponentVersionItemProps extends Pick<VersionPickerProps, 'modes' | 'noneLabel' | 'disabled'> {
  component: TConfigComponent;
}

export function ComponentVersionItem({ component, ...picker }: ComponentVersionItemProps) {
  const form = Form.useFormInstance();
  const modeName = `${component}VersionMode`;
  const versionName = `${component}Version`;
  const mode = (Form.useWatch(modeName, form) as TAccountVersionMode | undefined) ?? 'Latest';
  const version = (Form.useWatch(versionName, form) as string | undefined) ?? '';
  const label = COMPONENT_LABELS[component];
  return (
    <Form.Item label={label} style={{ marginBottom: 12 }}>
      <HiddenFields names={[modeName, versionName]} />
      <VersionPicker
        {...picker}
        software={component}
        label={label}
        value={{ mode, version }}
        onChange={(next) => form.setFieldsValue({ [modeName]: next.mode, [versionName]: next.version })}
      />
    </Form.Item>
  );
}
