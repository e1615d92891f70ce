/**
 * The Create or Edit Version dialog (spec 3 §2.2): name, default switch and
 * status (options from `GET /lookup/irmn-version-statuses`). Create mode without
 * an id, edit mode with one (spec 3 §4); saving a default takes the tick from
 * the previous default (the server's rule). Closes on success; the toasts are
 * the mutation's.
 */
import { Form, Input, Modal, Select, Switch } from 'antd';
import type { TIrmnVersion, TSaveIrmnVersionRequest } from '@fleet/contracts';
import { useSaveIrmnVersion } from './api/mutations';
import { useIrmnVersionStatuses } from './api/queries';

export function IrmnVersionDialog({ version, onClose }: { version: TIrmnVersion | null; onClose(): void }) {
  const [form] = Form.useForm<TSaveIrmnVersionRequest>();
  const statuses = useIrmnVersionStatuses();
  const save = useSaveIrmnVersion();
  const initial: TSaveIrmnVersionRequest = version ? { name: version.name, default: version.default, status: version.status } : { name: '', default: false, status: 'InDevelopment' };

  const onOk = async () => {
    const values = await form.validateFields();
    await save.mutateAsync({ id: version?.id, body: { ...values, name: values.name.trim() } });
    onClose();
  };

  return (
    <Modal
      open
      title="Create or Edit Version"
      okText="Save"
      onOk={() => void onOk().catch(() => undefined)}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} name="irmn-version">
        <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: '' }]} validateTrigger="onBlur">
          <Input autoFocus maxLength={50} />
        </Form.Item>
        <Form.Item name="default" label="Default" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="status" label="Status" rules={[{ required: true, message: '' }]}>
          <Select loading={statuses.isLoading} options={(statuses.data ?? []).map((s) => ({ value: s, label: s }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
