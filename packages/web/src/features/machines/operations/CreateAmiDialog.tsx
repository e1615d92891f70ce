/**
 * Create Jump-start AMI (spec 2 §2.3, §8): name (required), description and an
 * IRMN version from the catalogue (`GET /irmn-versions`, the default version
 * chosen first), then `POST /machines/{id}/create-ami` ('Jump-start AMI
 * creation from this machine has been started' / 'Error occurred creating
 * jump-start AMI from machine').
 */
import { useEffect } from 'react';
import { Form, Input, Select } from 'antd';
import { IMAGE_NAME_MESSAGE, IMAGE_NAME_PATTERN, type TCreateAmiRequest } from '@fleet/contracts';
import { useIrmnVersions } from '../../catalogues/api/queries';
import { useCreateAmi } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

interface Values {
  name: string;
  description?: string;
  irmnVersion: string;
}

export function CreateAmiDialog({ machine, onClose }: MachineDialogProps) {
  const create = useCreateAmi();
  const versions = useIrmnVersions();
  const [form] = Form.useForm<Values>();
  const defaultVersion = versions.data?.find((v) => v.default)?.name;

  useEffect(() => {
    if (defaultVersion && !form.getFieldValue('irmnVersion')) form.setFieldValue('irmnVersion', defaultVersion);
  }, [defaultVersion, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    const body: TCreateAmiRequest = { name: values.name.trim(), description: values.description?.trim() ?? '', irmnVersion: values.irmnVersion };
    create.mutate({ machine, body }, { onSuccess: onClose });
  };

  return (
    <OperationDialog title="Create Jump-start AMI" machine={machine} loading={create.isPending} onOk={() => void submit()} onClose={onClose}>
      <Form form={form} layout="vertical" validateTrigger="onBlur">
        <Form.Item
          name="name"
          label="Name"
          rules={[
            { required: true, whitespace: true, message: 'Name is required' },
            { min: 3, message: 'Name must have at least 3 characters' },
            { max: 128 },
            { pattern: IMAGE_NAME_PATTERN, message: IMAGE_NAME_MESSAGE },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="description" label="Description" rules={[{ max: 1000 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="irmnVersion" label="IRMN version" rules={[{ required: true, message: 'IRMN version is required' }]} style={{ marginBottom: 0 }}>
          <Select
            loading={versions.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={(versions.data ?? []).map((v) => ({ value: v.name, label: `${v.name} (${v.status})` }))}
          />
        </Form.Item>
      </Form>
    </OperationDialog>
  );
}
