/**
 * The Edit MMA Class dialog (spec 3 §2.7, §9: 600 px): Name, Image (only
 * jump-start images, each shown with name, description and deployer version;
 * choosing one copies its jump-start deployer version), Deployer Version,
 * Standby, how the class runs its operations (issue 27 point 1: simulated in
 * the worker, or remote MMAs), Priority Group, CAA Target Machine and the
 * class's change windows (issue 25 point 5: `components/ChangeWindowsFields.tsx`); Save sends
 * `PUT /mma/classes/{id}` and closes on success.
 */
import { useMemo } from 'react';
import { Form, Input, InputNumber, Modal, Radio, Select, Switch, Typography } from 'antd';
import {
  HOST_NAME_MESSAGE,
  HOST_NAME_PATTERN,
  MMA_CLASS_DIALOG_WIDTH,
  type TChangeWindow,
  type TMmaClass,
  type TMmaInstanceMode,
  type TSaasImage,
  type TUpdateMmaClassRequest,
} from '@fleet/contracts';
import { useSaasImages } from '../catalogues/api/queries';
import { versionLabel } from '../software-versions/version-format';
import { useUpdateMmaClass } from './api/mutations';
import { ChangeWindowsFields } from './components/ChangeWindowsFields';

interface Values {
  name: string;
  image: string | null;
  deployerVersion: string;
  standby: boolean;
  priorityGroup: number;
  caaHost: string;
  changeWindows: TChangeWindow[];
  mode: TMmaInstanceMode;
}

/** Jump-start images, one per name (an image name is offered in several regions). */
function jumpStartImages(images: TSaasImage[] | undefined): TSaasImage[] {
  const byName = new Map<string, TSaasImage>();
  for (const image of images ?? []) if (image.jumpStart && !byName.has(image.name)) byName.set(image.name, image);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function EditMmaClassDialog({ mmaClass, onClose }: { mmaClass: TMmaClass; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const images = useSaasImages();
  const update = useUpdateMmaClass();
  const choices = useMemo(() => jumpStartImages(images.data), [images.data]);
  const instance = mmaClass.mmaInstance!;

  const onImage = (name: string | undefined) => {
    const deployer = choices.find((i) => i.name === name)?.jumpStartConfig?.deployer;
    if (deployer) form.setFieldValue('deployerVersion', deployer);
  };

  const onSave = (values: Values) => {
    const body: TUpdateMmaClassRequest = {
      name: values.name,
      image: values.image ?? null,
      deployerBranch: instance.deployerBranch,
      deployerVersion: values.deployerVersion,
      standby: values.standby,
      priorityGroup: values.priorityGroup ?? 0,
      caaHost: values.caaHost?.trim() ? values.caaHost.trim() : null,
      changeWindows: (values.changeWindows ?? []).map((w) => ({ ...w, days: [...w.days].sort((a, b) => a - b) })),
      mode: values.mode,
    };
    update.mutate({ id: mmaClass.id, body }, { onSuccess: onClose });
  };

  return (
    <Modal
      open
      title="Edit MMA Class"
      width={MMA_CLASS_DIALOG_WIDTH}
      okText="Save"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={update.isPending}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={onSave}
        initialValues={{
          name: mmaClass.name,
          image: mmaClass.image,
          deployerVersion: instance.deployerVer,
          standby: instance.standby,
          priorityGroup: instance.priorityGroup,
          caaHost: instance.caaHost ?? '',
          changeWindows: mmaClass.changeWindows,
          mode: instance.mode,
        }}
      >
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: '' }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="Image" name="image">
          <Select
            allowClear
            placeholder="None"
            loading={images.isLoading}
            onChange={onImage}
            optionLabelProp="value"
            options={choices.map((image) => ({
              value: image.name,
              label: (
                <div>
                  <div>{image.name}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {image.description || 'No description'} · deployer {versionLabel(image.jumpStartConfig?.deployer) || 'default'}
                  </Typography.Text>
                </div>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item label="Deployer Version" name="deployerVersion" rules={[{ required: true, whitespace: true, message: '' }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label="Standby" name="standby" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          label="Runs operations"
          name="mode"
          extra="Remote: the class's registered MMAs claim its operations; they wait while none is connected."
        >
          <Radio.Group
            options={[
              { value: 'simulated', label: 'Simulated, in the worker' },
              { value: 'remote', label: 'Remote MMAs' },
            ]}
          />
        </Form.Item>
        <Form.Item label="Priority Group" name="priorityGroup">
          <InputNumber min={0} max={1000} precision={0} />
        </Form.Item>
        <Form.Item label="CAA Target Machine" name="caaHost" rules={[{ pattern: HOST_NAME_PATTERN, message: HOST_NAME_MESSAGE }]}>
          <Input maxLength={253} />
        </Form.Item>
        <ChangeWindowsFields initial={mmaClass.changeWindows} />
      </Form>
    </Modal>
  );
}
