/**
 * The Create or Edit SaaS Image dialog (spec 3 §2.3, §4, §5): name (locked once
 * the image has an id), region, description, IRMN version, official, active,
 * jump-start (read-only) and OS type (Windows or Linux); a jump-start image also
 * shows its jump-start config with the deployer version picker. The cloud image
 * (which the specification's dialog does not show, though an image needs one) is
 * picked from the cloud provider's images of the chosen region. Create and
 * duplicate save with `POST`, edit with `PUT`; the toasts are the mutation's.
 */
import { Divider, Flex, Form, Input, Modal, Radio, Select, Switch, Typography } from 'antd';
import { OS_TYPES, type TRegion } from '@fleet/contracts';
import { useIrmnVersions } from '../catalogues/api/queries';
import { VersionPicker } from '../software-versions/VersionPicker';
import { useSaveSaasImage } from './api/mutations';
import { useCloudImages } from './api/queries';
import { initialValues, toRequest, type SaasImageDialogMode, type SaasImageFormValues } from './saas-image-form';

export function SaasImageDialog({ mode, regions, onClose }: { mode: SaasImageDialogMode; regions: readonly TRegion[]; onClose(): void }) {
  const [form] = Form.useForm<SaasImageFormValues>();
  const region = Form.useWatch('region', form);
  const jumpStart = Form.useWatch('jumpStart', form);
  const versions = useIrmnVersions();
  const cloudImages = useCloudImages({ region }, !!region);
  const save = useSaveSaasImage();
  const source = mode.kind === 'create' ? undefined : mode.image;
  const initial = initialValues(mode, regions);

  const onOk = async () => {
    const values = await form.validateFields();
    await save.mutateAsync({ id: mode.kind === 'edit' ? mode.image.id : undefined, body: toRequest(values, source) });
    onClose();
  };

  const onValuesChange = (changed: Partial<SaasImageFormValues>) => {
    // A cloud image belongs to one region: choosing another region asks for another image.
    if ('region' in changed && changed.region !== initial.region) form.setFieldValue('cloudImage', undefined);
  };

  return (
    <Modal
      open
      title="Create or Edit SaaS Image"
      okText="Save"
      width={640}
      onOk={() => void onOk().catch(() => undefined)}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onValuesChange={onValuesChange} name="saas-image">
        <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: '' }]}>
          <Input disabled={mode.kind === 'edit'} maxLength={128} />
        </Form.Item>
        <Form.Item name="region" label="Region" rules={[{ required: true, message: '' }]}>
          <Select options={regions.map((r) => ({ value: r.cloudCode, label: `${r.name} (${r.cloudCode})` }))} />
        </Form.Item>
        <Form.Item name="description" label="Description">
          <Input.TextArea rows={2} maxLength={1000} />
        </Form.Item>
        <Form.Item name="irmnVersion" label="IRMN version">
          <Select allowClear placeholder="N/A" loading={versions.isLoading} options={(versions.data ?? []).map((v) => ({ value: v.name, label: v.name }))} />
        </Form.Item>
        <Form.Item name="cloudImage" label="Cloud image" rules={[{ required: true, message: '' }]}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={cloudImages.isFetching}
            placeholder="An image of the cloud provider in this region"
            options={(cloudImages.data ?? []).map((i) => ({ value: i.id, label: `${i.name} (${i.id})` }))}
          />
        </Form.Item>
        <Flex gap={32} wrap>
          <Form.Item name="official" label="Official" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="active" label="Active" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="jumpStart" label="Jump-start" valuePropName="checked">
            <Switch disabled />
          </Form.Item>
          <Form.Item name="osType" label="OS type">
            <Radio.Group optionType="button" options={OS_TYPES.map((o) => ({ value: o, label: o }))} />
          </Form.Item>
        </Flex>
        {jumpStart && (
          <>
            <Divider titlePlacement="start" plain>
              Jump-start config
            </Divider>
            <Typography.Paragraph type="secondary">
              The versions, library files and SSL and monitoring settings an account takes from this image; the deployer version is chosen here.
            </Typography.Paragraph>
            <Form.Item name="deployer" label="Deployer version">
              <DeployerPicker />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** The deployer version picker as a form control (Select a commit or build, or Default). */
function DeployerPicker({ value, onChange }: { value?: SaasImageFormValues['deployer']; onChange?(v: SaasImageFormValues['deployer']): void }) {
  return <VersionPicker software="deployer" label="Deployer" value={value ?? { mode: 'None', version: '' }} onChange={(v) => onChange?.(v)} modes={['Select', 'None']} noneLabel="Default" />;
}
