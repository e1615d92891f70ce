/**
 * The config editor dialog (spec 3 §2.5, §4 "Config dialogs", §5), titled
 * 'Create Component Config' without an id and 'Edit Component Config' with one,
 * for deployer configs too (the specification's titles).
 *
 * - Root key, sub key and data type; locked once the record exists.
 * - Protected, Site Specific (component configs), Version and Deprecated At
 *   (IRMN versions), and the default values by data type (`ConfigValueInput`):
 *   SAAS, on-prem and the Linux override for component configs, one default for
 *   deployer configs.
 * - Changing the data type resets the defaults to the type's default (0, empty
 *   string, false, empty object); the Linux override checkbox sets the Linux
 *   value to the type's default and back to null when cleared.
 * - Save creates without an id, else updates with only protected, siteSpecific,
 *   the defaults, versionId and deprecatedAtVersionId. A value the server would
 *   refuse (a JSON parse error, a number that is not one) is shown under it and
 *   keeps Save disabled. The dialog closes on success and stays open on error.
 */
import { useMemo, useState } from 'react';
import { Checkbox, Col, Form, Input, Modal, Row, Select, Switch } from 'antd';
import {
  CONFIG_DATA_TYPES,
  CONFIG_ROOT_KEY,
  CONFIG_ROOT_KEY_MESSAGE,
  CONFIG_SUB_KEY,
  CONFIG_SUB_KEY_MESSAGE,
  type TConfigDataTypeName,
} from '@fleet/contracts';
import { useIrmnVersions } from '../../catalogues/api/queries';
import type { ConfigKind } from '../api/keys';
import { useSaveConfigDefinition, type TConfigDefinitionOf, type TConfigEditOf } from '../api/mutations';
import { ConfigValueInput } from './ConfigValueInput';
import { storedType, typeDefaultText, typeName, valueError, valueToSend } from './config-values';

interface FormValues {
  rootKey: string;
  subKey: string;
  dataType: TConfigDataTypeName;
  protected: boolean;
  siteSpecific: boolean;
  versionId: number | null;
  deprecatedAtVersionId: number | null;
  saasDefaultValue: string | null;
  onPremDefaultValue: string | null;
  linuxSpecificValue: string | null;
  defaultValue: string | null;
}

const VALUE_FIELDS: Record<ConfigKind, { name: keyof FormValues; label: string }[]> = {
  component: [
    { name: 'saasDefaultValue', label: 'SAAS default value' },
    { name: 'onPremDefaultValue', label: 'On-prem default value' },
  ],
  deployer: [{ name: 'defaultValue', label: 'Default value' }],
};

function initialValues(definition: TConfigDefinitionOf<ConfigKind> | null): FormValues {
  const d = definition as Partial<TConfigDefinitionOf<'component'> & TConfigDefinitionOf<'deployer'>> | null;
  return {
    rootKey: d?.rootKey ?? '',
    subKey: d?.subKey ?? '',
    dataType: typeName(d?.dataType ?? null),
    protected: d?.protected ?? false,
    siteSpecific: d?.siteSpecific ?? false,
    versionId: d?.version?.id ?? null,
    deprecatedAtVersionId: d?.deprecatedAtVersion?.id ?? null,
    saasDefaultValue: d ? (d.saasDefaultValue ?? null) : '',
    onPremDefaultValue: d ? (d.onPremDefaultValue ?? null) : '',
    linuxSpecificValue: d?.linuxSpecificValue ?? null,
    defaultValue: d ? (d.defaultValue ?? null) : '',
  };
}

/** The edit fields of the kind (spec 3 §5: only these are sent). */
function editOf<K extends ConfigKind>(kind: K, v: FormValues): TConfigEditOf<K> {
  const shared = { protected: v.protected, versionId: v.versionId ?? null, deprecatedAtVersionId: v.deprecatedAtVersionId ?? null };
  const edit =
    kind === 'component'
      ? {
          ...shared,
          siteSpecific: v.siteSpecific,
          saasDefaultValue: valueToSend(v.saasDefaultValue, v.dataType),
          onPremDefaultValue: valueToSend(v.onPremDefaultValue, v.dataType),
          linuxSpecificValue: valueToSend(v.linuxSpecificValue, v.dataType),
        }
      : { ...shared, defaultValue: valueToSend(v.defaultValue, v.dataType) };
  return edit as TConfigEditOf<K>;
}

interface Props<K extends ConfigKind> {
  kind: K;
  /** The definition to edit; null to create one. */
  definition: TConfigDefinitionOf<K> | null;
  onClose(): void;
}

export function ConfigDefinitionDialog<K extends ConfigKind>({ kind, definition, onClose }: Props<K>) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveConfigDefinition(kind);
  const versions = useIrmnVersions();
  const initial = useMemo(() => initialValues(definition), [definition]);
  const editing = definition !== null;
  const values = (Form.useWatch([], form) as FormValues | undefined) ?? initial;
  const dataType = values.dataType ?? initial.dataType;
  // Held apart from the form's value so that the checkbox answers at once.
  const [linuxOverride, setLinuxOverride] = useState(initial.linuxSpecificValue !== null);

  const valueFields = [...VALUE_FIELDS[kind], ...(kind === 'component' && linuxOverride ? [{ name: 'linuxSpecificValue' as const, label: 'Linux value' }] : [])];
  const errors = Object.fromEntries(valueFields.map((f) => [f.name, valueError(values[f.name] as string | null, dataType)]));
  const invalid = Object.values(errors).some((e) => e !== null);

  const versionOptions = (versions.data ?? []).map((v) => ({ value: v.id, label: `${v.name} (${v.status})` }));

  const onTypeChange = (next: TConfigDataTypeName) => {
    const reset = typeDefaultText(next);
    form.setFieldsValue({
      saasDefaultValue: reset,
      onPremDefaultValue: reset,
      defaultValue: reset,
      linuxSpecificValue: linuxOverride ? reset : null,
    });
  };

  const submit = (v: FormValues) => {
    const all = { ...initial, ...v };
    const edit = editOf(kind, all);
    const request = editing
      ? { id: definition.id, edit }
      : { rootKey: all.rootKey.trim(), subKey: all.subKey.trim(), dataType: storedType(all.dataType), edit };
    save.mutate(request, { onSuccess: onClose });
  };

  return (
    <Modal
      open
      title={editing ? 'Edit Component Config' : 'Create Component Config'}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="Save"
      okButtonProps={{ disabled: invalid, loading: save.isPending }}
      width={640}
      destroyOnHidden
    >
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={submit} requiredMark={false}>
        <Row gutter={12}>
          <Col span={9}>
            <Form.Item
              name="rootKey"
              label="Root Key"
              rules={editing ? [] : [{ required: true, message: 'Root key is required' }, { pattern: CONFIG_ROOT_KEY, message: CONFIG_ROOT_KEY_MESSAGE }]}
            >
              <Input disabled={editing} maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={9}>
            <Form.Item
              name="subKey"
              label="Sub Key"
              rules={editing ? [] : [{ required: true, message: 'Sub key is required' }, { pattern: CONFIG_SUB_KEY, message: CONFIG_SUB_KEY_MESSAGE }]}
            >
              <Input disabled={editing} maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="dataType" label="Data Type">
              <Select
                disabled={editing}
                aria-label="Data Type"
                options={CONFIG_DATA_TYPES.map((t) => ({ value: t, label: t }))}
                onChange={(next: TConfigDataTypeName) => onTypeChange(next)}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col span={5}>
            <Form.Item name="protected" label="Protected" valuePropName="checked">
              <Switch aria-label="Protected" />
            </Form.Item>
          </Col>
          {kind === 'component' && (
            <Col span={5}>
              <Form.Item name="siteSpecific" label="Site Specific" valuePropName="checked">
                <Switch aria-label="Site Specific" />
              </Form.Item>
            </Col>
          )}
          <Col span={7}>
            <Form.Item name="versionId" label="Version">
              <Select aria-label="Version" allowClear options={versionOptions} loading={versions.isLoading} />
            </Form.Item>
          </Col>
          <Col span={7}>
            <Form.Item name="deprecatedAtVersionId" label="Deprecated At">
              <Select aria-label="Deprecated At" allowClear options={versionOptions} loading={versions.isLoading} />
            </Form.Item>
          </Col>
        </Row>
        {VALUE_FIELDS[kind].map((f) => (
          <Form.Item
            key={f.name}
            name={f.name}
            label={f.label}
            validateStatus={errors[f.name] && dataType !== 'json' ? 'error' : undefined}
            help={dataType !== 'json' ? (errors[f.name] ?? undefined) : undefined}
          >
            <ValueField dataType={dataType} label={f.label} />
          </Form.Item>
        ))}
        {kind === 'component' && (
          <>
            <Checkbox
              checked={linuxOverride}
              onChange={(e) => {
                setLinuxOverride(e.target.checked);
                form.setFieldValue('linuxSpecificValue', e.target.checked ? typeDefaultText(dataType) : null);
              }}
              style={{ marginBottom: 8 }}
            >
              Linux override
            </Checkbox>
            <Form.Item
              name="linuxSpecificValue"
              hidden={!linuxOverride}
              validateStatus={errors.linuxSpecificValue && dataType !== 'json' ? 'error' : undefined}
              help={linuxOverride && dataType !== 'json' ? (errors.linuxSpecificValue ?? undefined) : undefined}
            >
              {linuxOverride ? <ValueField dataType={dataType} label="Linux value" /> : <Input hidden />}
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** A value input bound to its Form.Item (`value`/`onChange` injected); null shows as empty. */
function ValueField({ dataType, label, value, onChange }: { dataType: TConfigDataTypeName; label: string; value?: string | null; onChange?(next: string): void }) {
  return <ConfigValueInput dataType={dataType} label={label} value={value ?? ''} onChange={(next) => onChange?.(next)} />;
}
