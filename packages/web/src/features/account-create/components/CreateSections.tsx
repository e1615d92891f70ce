/**
 * The settings cards of New Account (spec 1 §4 Create account: Account
 * Properties, Instance Settings with its template gate, License Settings,
 * Backup Settings, Idle Schedule), each its own memoized component: the page
 * renders again as the user types (it watches the class, the URL name, auto
 * test, the instance policy and the site count), and a card only when its own
 * props change (issue 26: every card rendered again at each of those changes,
 * 100 to 300 ms a time on a 2-core machine).
 *
 * Each card takes its section's form from the page (`useSectionForms`), so
 * Manage Templates and Next read and load them as before.
 */
import { memo, type Dispatch, type SetStateAction } from 'react';
import { Form, type FormInstance } from 'antd';
import { SCHEMA_VALUES } from '../../../lib/schema-values';
import { SectionCard } from '../../account-settings/shared/SectionCard';
import { PropertiesFields } from '../../account-settings/properties/PropertiesFields';
import { InstanceFields } from '../../account-settings/instance/InstanceFields';
import { InstanceTemplateGate, loadInstanceDefaults } from '../../account-settings/instance/InstanceTemplateGate';
import { LicenseFields } from '../../account-settings/license/LicenseFields';
import { BackupFields } from '../../account-settings/backup/BackupFields';
import { IdleFields } from '../../account-settings/idle/IdleFields';
import { TemplatePicker } from '../../templates/TemplatePicker';
import { generalTemplateToProperties } from '../../templates/template-values';

/** The properties of a new account before anything is typed (spec 1 §9): a general template's defaults, no parent, no name yet. */
const NEW_PROPERTIES = { ...generalTemplateToProperties(structuredClone(SCHEMA_VALUES.generalTemplateDefaults)), parentId: null, name: '', urlFriendlyName: '' };

export const PropertiesSection = memo(function PropertiesSection({ form }: { form: FormInstance }) {
  return (
    <SectionCard title="Account Properties">
      <Form form={form} name="create-properties" layout="vertical" initialValues={NEW_PROPERTIES}>
        <PropertiesFields mode="create" />
      </Form>
    </SectionCard>
  );
});

interface InstanceSectionProps {
  form: FormInstance;
  /** The fields are open: a template was chosen, or Customize, or Start from scratch. */
  open: boolean;
  setOpen: Dispatch<SetStateAction<boolean>>;
  /** The Account Properties form: the versions block shows its auto-test branch when auto test is on. */
  propertiesForm: FormInstance;
}

export const InstanceSection = memo(function InstanceSection({ form, propertiesForm, open, setOpen }: InstanceSectionProps) {
  const autoTest = Form.useWatch('autoTest', propertiesForm) as boolean | undefined;
  const autoTestBranch = (Form.useWatch('autoTestBranch', propertiesForm) as string | null | undefined) ?? null;
  return (
    <SectionCard title="Instance Settings">
      <InstanceTemplateGate
        open={open}
        onCustomize={() => {
          if (!form.getFieldValue('keyType')) loadInstanceDefaults(form);
          setOpen(true);
        }}
        onStartFromScratch={() => {
          loadInstanceDefaults(form);
          setOpen(true);
        }}
        templatePicker={<TemplatePicker kind="instance-settings" form={form} onPicked={() => setOpen(true)} />}
      />
      <Form form={form} name="create-instance" layout="vertical" disabled={!open}>
        <InstanceFields mode="create" disabled={!open} autoTestBranch={autoTest ? autoTestBranch : null} />
      </Form>
    </SectionCard>
  );
});

export const LicenseSection = memo(function LicenseSection({ form, addOn }: { form: FormInstance; addOn: boolean }) {
  return (
    <SectionCard title="License Settings" extra={<TemplatePicker kind="license-settings" form={form} />}>
      <Form form={form} name="create-license" layout="vertical">
        <LicenseFields mode="create" addOn={addOn} />
      </Form>
    </SectionCard>
  );
});

export const BackupSection = memo(function BackupSection({ form }: { form: FormInstance }) {
  return (
    <SectionCard title="Backup Settings">
      <BackupFields form={form} mode="create" />
    </SectionCard>
  );
});

export const IdleSection = memo(function IdleSection({ form }: { form: FormInstance }) {
  return (
    <SectionCard title="Idle Schedule">
      <IdleFields form={form} mode="create" />
    </SectionCard>
  );
});
