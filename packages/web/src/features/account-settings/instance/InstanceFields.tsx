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
 */
import { Fragment } from 'react';
import { AutoComplete, Card, Col, DatePicker, Form, Radio, Row, Select, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { fromUtcPickerValue, utcPickerValue } from '../../../lib/format';
import type { TMachineConfigInput, TSaasImage } from '@fleet/contracts';
import { ComponentVersionsFields } from '../../software-versions/ComponentVersionsFields';
import { useIrmnVersions, useSaasImages } from '../../catalogues/api/queries';
import { useRegions, useSampleDataFiles } from '../../catalogues/api/lookups';
import { DeployerVersionField, DeployerWarning } from './DeployerVersionField';
import { ImagePicker } from './ImagePicker';
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

export function InstanceFields({ mode, disabled, stored, autoTestBranch, bundleVersion }: InstanceFieldsProps) {
  const form = Form.useFormInstance<TMachineConfigInput>();
  const locks = instanceLocks(mode, stored);
  const regions = useRegions();
  const images = useSaasImages();
  const irmnVersions = useIrmnVersions();
  const sampleFiles = useSampleDataFiles();
  const region = Form.useWatch('region', form) as string | undefined;
  const includeSampleData = Form.useWatch('includeSampleData', form) as boolean | undefined;
  const tooltip = (locked: boolean) => (locked ? LOCKED_TOOLTIP : undefined);

  const onRegionChange = (next: string | undefined) => {
    const image = images.data?.find((i) => i.name === form.getFieldValue('vmImageName'));
    if (image && imageBlock(image, next) === 'Other region') form.setFieldValue('vmImageName', '');
  };

  const onImagePicked = (image: TSaasImage) => {
    const values: Partial<TMachineConfigInput> = image.jumpStartConfig ? jumpStartValues(image.jumpStartConfig, { sslLocked: locks.ssl }) : {};
    if (!form.getFieldValue('region')) values.region = image.region;
    form.setFieldsValue(values);
    void form.validateFields(['vmImageName', 'region']).catch(() => undefined);
  };

  // The switches and the component versions render after the fields above, each in a background render of its
  // own (issue 26: the card took one task of about 250 ms on Edit Account).
  return (
    <>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item label="Region" name="region" tooltip={tooltip(locks.region)} rules={[{ required: true, message: 'Region is required' }]}>
            <Select
              disabled={disabled || locks.region}
              loading={regions.isLoading}
              placeholder="Choose a region"
              showSearch={{ optionFilterProp: 'label' }}
              onChange={onRegionChange}
              options={(regions.data ?? []).map((r) => ({ value: r.cloudCode, label: `${r.name} (${r.cloudCode})` }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="Image"
            name="vmImageName"
            tooltip={tooltip(locks.image)}
            rules={[{ required: true, whitespace: true, message: 'Image is required' }]}
            validateTrigger={['onChange', 'onBlur']}
          >
            <ImagePicker region={region} regions={regions.data ?? []} locked={locks.image} disabled={disabled} onPicked={onImagePicked} />
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
            <AutoComplete
              disabled={disabled}
              allowClear
              placeholder="e.g. 8.1"
              maxLength={50}
              options={(irmnVersions.data ?? []).map((v) => ({ value: v.name }))}
              showSearch={{ filterOption: (input, option) => String(option?.value ?? '').startsWith(input) }}
            />
          </Form.Item>
        </Col>
      </Row>
      <StagedRender
        stages={[
          <Fragment key="switches">
          <Row gutter={16}>
            <Col {...switchCol}>
              <Form.Item label="Show in Grafana" name="showInGrafana" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Enable SSL" name="enableSsl" valuePropName="checked" tooltip={tooltip(locks.ssl)}>
                <Switch disabled={disabled || locks.ssl} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Use spare pool" name="useSparePool" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Include IRMO data" name="includeIrmoData" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Run smoke test" name="runSmokeTest" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col {...switchCol}>
              <Form.Item label="Cloud DB for launcher" name="launcherUseCloudDb" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Cloud DB for site master" name="siteMasterUseCloudDb" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Cloud DB for SQL export" name="sqlExportUseCloudDb" valuePropName="checked">
                <Switch disabled={disabled} />
              </Form.Item>
            </Col>
            <Col {...switchCol}>
              <Form.Item label="Sample data" name="includeSampleData" valuePropName="checked" tooltip={tooltip(locks.sampleData)}>
                <Switch disabled={disabled || locks.sampleData} />
              </Form.Item>
            </Col>
            <Col xs={24} md={16} xl={8}>
              <Form.Item label="Sample data file" name="sampleDataFile" tooltip={tooltip(locks.sampleData)}>
                <Select
                  disabled={disabled || locks.sampleData || !includeSampleData}
                  allowClear
                  loading={sampleFiles.isLoading}
                  placeholder={includeSampleData ? 'Choose a file' : 'No sample data'}
                  showSearch={{ optionFilterProp: 'label' }}
                  options={(sampleFiles.data ?? []).map((f) => ({ value: f, label: f }))}
                />
              </Form.Item>
            </Col>
          </Row>
          </Fragment>,
          <Card key="versions" size="small" type="inner" title="Component Versions">
            <ComponentVersionsFields disabled={disabled} autoTestBranch={autoTestBranch} bundleVersion={bundleVersion} />
          </Card>,
        ]}
        placeholderHeight={LATER_FIELDS_PLACEHOLDER_PX}
      />
    </>
  );
}
