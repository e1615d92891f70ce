/**
 * The 'Subscribe' dialog of a channel on the Notifications screen (issue 28
 * point 3): the events the channel receives (at least one), optionally only those
 * of one class or of one account (by its id).
 */
import { Checkbox, Form, InputNumber, Modal, Select } from 'antd';
import { ACCOUNT_CLASSES, NOTIFICATION_EVENT_KINDS, NOTIFICATION_EVENT_LABELS, type TNotificationChannel, type TNotificationEventKind } from '@fleet/contracts';
import { useCreateNotificationSubscription } from '../api/mutations';

interface Values {
  events: TNotificationEventKind[];
  classId?: number;
  accountId?: number | null;
}

export function SubscribeDialog({ channel, onClose }: { channel: TNotificationChannel; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const create = useCreateNotificationSubscription();

  const submit = async () => {
    // A field that fails shows its message; the dialog stays open.
    const v = await form.validateFields().catch(() => undefined);
    if (!v) return;
    create.mutate({ channelId: channel.id, body: { events: v.events, classId: v.classId ?? null, accountId: v.accountId ?? null } }, { onSuccess: onClose });
  };

  return (
    <Modal open title={`Subscribe ${channel.name}`} okText="Subscribe" confirmLoading={create.isPending} onOk={() => void submit()} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ events: [...NOTIFICATION_EVENT_KINDS] }}>
        <Form.Item name="events" label="Events" rules={[{ required: true, type: 'array', min: 1, message: 'Choose at least one event' }]}>
          <Checkbox.Group
            style={{ display: 'grid', gap: 4 }}
            options={NOTIFICATION_EVENT_KINDS.map((kind) => ({ value: kind, label: NOTIFICATION_EVENT_LABELS[kind] }))}
          />
        </Form.Item>
        <Form.Item name="classId" label="Only of class" extra="Rollout events have no class: a subscription filtered by class or account does not receive them.">
          <Select allowClear placeholder="Any class" options={ACCOUNT_CLASSES.map((c) => ({ value: c.id, label: c.name }))} />
        </Form.Item>
        <Form.Item name="accountId" label="Only of account (id)" extra="Class standby events have no account: a subscription filtered by account does not receive them.">
          <InputNumber min={1} max={2147483647} precision={0} placeholder="Any account" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
