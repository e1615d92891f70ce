/**
 * The form of each settings section of an account (spec 1 §2 cards, §3
 * Entities), owned by the page (Edit account or Create account) so that the
 * Manage Templates dialog can load a template's values into the cards and read
 * them back to save a template.
 *
 * Each form's values have the contract's shape of its section, so a section
 * from `GET /accounts/{id}`, a template or a draft is loaded with
 * `form.setFieldsValue(section)` and read with `form.getFieldsValue(true)`:
 *
 * - properties: `TPushAccountPropertiesRequest` without `version`
 * - license: `TLicenseConfigInput`
 * - instance: `TMachineConfigInput`
 * - backup: `TBackupConfig`
 * - idle: `{ idleSchedules: TIdleScheduleEntry[] }`
 *
 * Dates and times are kept as the contract's strings; pickers convert inside
 * their `Form.Item` (`getValueProps` / `normalize`).
 */
import { useMemo } from 'react';
import { Form, type FormInstance } from 'antd';

export interface SectionForms {
  properties: FormInstance;
  license: FormInstance;
  instance: FormInstance;
  backup: FormInstance;
  idle: FormInstance;
}

export type SectionKey = keyof SectionForms;

/** One antd form per section, for the page that shows the cards; the same object at every render (memoized cards keep it). */
export function useSectionForms(): SectionForms {
  const [properties] = Form.useForm();
  const [license] = Form.useForm();
  const [instance] = Form.useForm();
  const [backup] = Form.useForm();
  const [idle] = Form.useForm();
  return useMemo(() => ({ properties, license, instance, backup, idle }), [properties, license, instance, backup, idle]);
}
