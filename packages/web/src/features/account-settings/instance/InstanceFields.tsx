/**
 * The fields of the Instance Settings card (spec 1 §2 Instance Settings card,
 * §3 machineConfig, §5 'Image is required'), for the Create account form
 * (`mode: 'create'`) and the Edit account screen (`mode: 'edit'`). Render it
 * inside an antd `Form` whose values have the `TMachineConfigInput` shape
 * (`section-forms.ts`):
 *
 * region, image (the image picker), deployer version, encryption keys
 * (keyType Default / Unique / Generate new keys), show in Grafana, enable SSL,
 * use spare pool, include IRMO data, run smoke test, cloud DB for launcher /
 * site master / SQL export, sample data with its file, auto-stop time (ISO
 * string, entered and shown in UTC as the scheduler runs it, cleared for none),
 * marketing version; then the Component Versions
 * card (`ComponentVersionsFields`).
 *
 * Locks (mode 'edit', spec 1 §2 "Region, SSL, sample data and image are locked
 * for existing accounts"): SSL and sample data always; region and image once
 * the stored config has them, as the server decides (an account without an
 * image can be given one).
 *
 * Picking an image fills a blank region with the image's, and a jump-start
 * image sets SSL, monitoring, every component version and the main library
 * files from the image, with their modes Select (`jumpStartValues`). Changing
 * the region clears an image of another region.
 *
 * Each list and watched value is read by the control that shows it (region,
 * image, marketing version, sample data file), and the later stages are made
 * once per change of their inputs: an answer renders its control, not the
 * card and its component versions (about 1,400 components; issue 26).
 */
import { memo } from 'react';
import { AutoComplete, Card, Col, Form, Radio, Row, Select, Switch, type AutoCompleteProps, type SelectProps } from 'antd';
import { DatePicker } from '../../../components/LazyDatePicker';
import type { Dayjs } from 'dayjs';
import { fromUtcPickerValue, utcPickerValue } from '../../../lib/format';
import type { TMachineConfigInput, TSaasImage } from '@fleet/contracts';
import { ComponentVersionsFields } from '../../software-versions/ComponentVersionsFields';
import { useIrmnVersions, useSaasImages } from '../../catalogues/api/queries';
import { useRegions, useSampleDataFiles } from '../../catalogues/api/lookups';
import { DeployerVersionField, DeployerWarning } from './DeployerVersionField';
import { ImagePicker, type ImagePickerProps } from './ImagePicker';
import { imageBlock, jumpStartValues } from './image-picker';
import { StagedRender } from '../../../components/StagedRender';

export interface InstanceFieldsProps {
  mode: 'create' | 'edit';
  /** Every field disabled: no write permission, or (create) no template chosen yet. */
  disabled?: boolean;
  /** The stored config of an existing account (mode 'edit'): region and image lock once set. */
  stored?: Pick<TMachineConfigInput, 'region' | 'vmImageName'> | null;
  /** The account's auto test branch when auto test is on (the Component Versions banner). */
  autoTestBranch?: string | null;
  bundleVersion?: string | null;
}

const LOCKED_TOOLTIP = 'Locked for an existing account';

/** The tooltip of a field that is `locked` (spec 1 §2), else none. */
const lockedTooltip = (locked: boolean) => (locked ? LOCKED_TOOLTIP : undefined);

const KEY_TYPE_OPTIONS = [
  { value: 'Default', label: 'Default' },
  { value: 'Unique', label: 'Unique' },
  { value: 'GenerateNewKeys', label: 'Generate new keys' },
];

const AUTO_STOP_FORMAT = 'YYYY-MM-DD HH:mm';
const col = { xs: 24, md: 12, xl: 8 };
const switchCol = { xs: 12, md: 8, xl: 4 };
/** Height kept for the switches and the component versions until they render, pixels. */
const LATER_FIELDS_PLACEHOLDER_PX = 600;

/** Which fields are locked (spec 1 §2). */
function instanceLocks(mode: InstanceFieldsProps['mode'], stored: InstanceFieldsProps['stored']) {
  const edit = mode === 'edit';
  return {
    region: edit && Boolean(stored?.region),
    image: edit && Boolean(stored?.vmImageName),
    ssl: edit,
    sampleData: edit,
  };
}

/** The region select with the regions' options; a region of its own clears an image of another region. Form.Item's props pass through. */
function RegionSelect({ onChange, ...props }: SelectProps<string>) {
  const form = Form.useFormInstance<TMachineConfigInput>();
  const regions = useRegions();
  const images = useSaasImages();
  return (
    <Select<string>
      {...props}
      loading={regions.isLoading}
      placeholder="Choose a region"
      showSearch={{ optionFilterProp: 'label' }}
      onChange={(next, option) => {
        onChange?.(next, option);
        const image = images.data?.find((i) => i.name === form.getFieldValue('vmImageName'));
        if (image && imageBlock(image, next) === 'Other region') form.setFieldValue('vmImageName', '');
      }}
      options={(regions.data ?? []).map((r) => ({ value: r.cloudCode, label: `${r.name} (${r.cloudCode})` }))}
    />
  );
}

/** The image picker, with the form's region and the regions' list read here. Form.Item's props pass through. */
function ImageField(props: Omit<ImagePickerProps, 'region' | 'regions'>) {
  const region = Form.useWatch('region', Form.useFormInstance()) as string | undefined;
  const regions = useRegions();
  return <ImagePicker {...props} region={region} regions={regions.data ?? []} />;
}

/** The marketing version, with the IRMN versions as suggestions. Form.Item's props pass through. */
function MarketingVersionInput(props: AutoCompleteProps) {
  const irmnVersions = useIrmnVersions();
  return (
    <AutoComplete
      {...props}
      allowClear
      placeholder="e.g. 8.1"
      maxLength={50}
      options={(irmnVersions.data ?? []).map((v) => ({ value: v.name }))}
      showSearch={{ filterOption: (input, option) => String(option?.value ?? '').startsWith(input) }}
    />
  );
}

/** The sample data file: the files' list, off while Sample data is off. Form.Item's props pass through. */
function SampleDataFileSelect({ disabled, ...props }: SelectProps<string>) {
  const includeSampleData = Form.useWatch('includeSampleData', Form.useFormInstance()) as boolean | undefined;
  const sampleFiles = useSampleDataFiles();
  return (
    <Select<string>
      {...props}
      disabled={disabled || !includeSampleData}
      allowClear
      loading={sampleFiles.isLoading}
      placeholder={includeSampleData ? 'Choose a file' : 'No sample data'}
      showSearch={{ optionFilterProp: 'label' }}
      options={(sampleFiles.data ?? []).map((f) => ({ value: f, label: f }))}
    />
  );
}

/** One switch of the card (`locked`: disabled, with the tooltip saying why). */
function SwitchItem({ label, name, disabled, locked = false }: { label: string; name: keyof TMachineConfigInput; disabled?: boolean; locked?: boolean }) {
  return (
    <Col {...switchCol}>
      <Form.Item label={label} name={name} valuePropName="checked" tooltip={lockedTooltip(locked)}>
        <Switch disabled={disabled || locked} />
      </Form.Item>
    </Col>
  );
}

/** The card's switches and the sample data file: the first later stage of {@link InstanceFields}. */
const LaterSwitches = memo(function LaterSwitches({ disabled, sslLocked, sampleDataLocked }: { disabled?: boolean; sslLocked: boolean; sampleDataLocked: boolean }) {
  return (
    <>
      <Row gutter={16}>
        <SwitchItem label="Show in Grafana" name="showInGrafana" disabled={disabled} />
        <SwitchItem label="Enable SSL" name="enableSsl" disabled={disabled} locked={sslLocked} />
        <SwitchItem label="Use spare pool" name="useSparePool" disabled={disabled} />
        <SwitchItem label="Include IRMO data" name="includeIrmoData" disabled={disabled} />
        <SwitchItem label="Run smoke test" name="runSmokeTest" disabled={disabled} />
      </Row>
      <Row gutter={16}>
        <SwitchItem label="Cloud DB for launcher" name="launcherUseCloudDb" disabled={disabled} />
        <SwitchItem label="Cloud DB for site master" name="siteMasterUseCloudDb" disabled={disabled} />
        <SwitchItem label="Cloud DB for SQL export" name="sqlExportUseCloudDb" disabled={disabled} />
        <SwitchItem label="Sample data" name="includeSampleData" disabled={disabled} locked={sampleDataLocked} />
        <Col xs={24} md={16} xl={8}>
          <Form.Item label="Sample data file" name="sampleDataFile" tooltip={lockedTooltip(sampleDataLocked)}>
            <SampleDataFileSelect disabled={disabled || sampleDataLocked} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
});

/** The Component Versions card: the second later stage of {@link InstanceFields}. */
const VersionsCard = memo(function VersionsCard({ disabled, autoTestBranch, bundleVersion }: Pick<InstanceFieldsProps, 'disabled' | 'autoTestBranch' | 'bundleVersion'>) {
  return (
    <Card size="small" type="inner" title="Component Versions">
      <ComponentVersionsFields disabled={disabled} autoTestBranch={autoTestBranch} bundleVersion={bundleVersion} />
    </Card>
  );
});

export function InstanceFields({ mode, disabled, stored, autoTestBranch, bundleVersion }: InstanceFieldsProps) {
  const form = Form.useFormInstance<TMachineConfigInput>();
  const locks = instanceLocks(mode, stored);

  const onImagePicked = (image: TSaasImage) => {
    const values: Partial<TMachineConfigInput> = image.jumpStartConfig ? jumpStartValues(image.jumpStartConfig, { sslLocked: locks.ssl }) : {};
    if (!form.getFieldValue('region')) values.region = image.region;
    form.setFieldsValue(values);
    void form.validateFields(['vmImageName', 'region']).catch(() => undefined);
  };

  // The switches and the component versions render after the fields above, each in a background render of its
  // own (issue 26: the card took one task of about 250 ms on Edit Account), and again only when their props change.
  return (
    <>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item label="Region" name="region" tooltip={lockedTooltip(locks.region)} rules={[{ required: true, message: 'Region is required' }]}>
            <RegionSelect disabled={disabled || locks.region} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="Image"
            name="vmImageName"
            tooltip={lockedTooltip(locks.image)}
            rules={[{ required: true, whitespace: true, message: 'Image is required' }]}
            validateTrigger={['onChange', 'onBlur']}
          >
            <ImageField locked={locks.image} disabled={disabled} onPicked={onImagePicked} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <DeployerVersionField disabled={disabled} />
        </Col>
      </Row>
      <DeployerWarning />
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item label="Encryption keys" name="keyType">
            <Radio.Group disabled={disabled} optionType="button" options={KEY_TYPE_OPTIONS} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="Auto-stop time (UTC)"
            name="autoStopTime"
            getValueProps={(v?: string | null) => ({ value: utcPickerValue(v) })}
            normalize={(d: Dayjs | null) => fromUtcPickerValue(d)}
          >
            <DatePicker disabled={disabled} showTime={{ format: 'HH:mm' }} format={AUTO_STOP_FORMAT} placeholder="No auto-stop" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item label="Marketing version" name="marketingVersion" normalize={(v?: string) => (v?.trim() ? v : null)}>
            <MarketingVersionInput disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <StagedRender
        stages={[
          <LaterSwitches key="switches" disabled={disabled} sslLocked={locks.ssl} sampleDataLocked={locks.sampleData} />,
          <VersionsCard key="versions" disabled={disabled} autoTestBranch={autoTestBranch} bundleVersion={bundleVersion} />,
        ]}
        placeholderHeight={LATER_FIELDS_PLACEHOLDER_PX}
      />
    </>
  );
}
