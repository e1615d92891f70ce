/**
 * Notification dialog (spec 2 §2.3, §5, §8, §9), 750 px wide, with two tabs:
 *
 * - Send (write permission): title, body, priority (default Medium), target
 *   machines (the machines selected in the panel to start with) and accounts
 *   (the accounts `selectedAccountIds` names to start with, e.g. the Updater's).
 *   Machines or accounts, a title and a body are needed. Sends
 *   `POST /notification/send` ('Message queued for sending' / 'Error occurred
 *   sending message') and then shows Pending Messages.
 * - Pending Messages: see `PendingMessagesTable`.
 */
import { useState } from 'react';
import { Button, Flex, Form, Input, Modal, Select, Tabs } from 'antd';
import {
  DEFAULT_NOTIFICATION_PRIORITY,
  NOTIFICATION_DIALOG_WIDTH,
  NOTIFICATION_PRIORITIES,
  type TSendNotificationRequest,
} from '@fleet/contracts';
import { useAccountLookup } from '../../accounts/api/queries';
import { useSendNotification } from '../api/mutations';
import { PendingMessagesTable } from './PendingMessagesTable';

export const TARGET_REQUIRED = 'Choose at least one machine or account';

interface Props {
  /** Machines that can be chosen as targets (the panel's). */
  machines: { id: number; name: string }[];
  selectedIds: number[];
  /** Accounts chosen as targets to start with (the Updater's selection in account mode). */
  selectedAccountIds?: number[];
  canWrite: boolean;
  onClose(): void;
}

type FormValues = Required<Pick<TSendNotificationRequest, 'title' | 'body' | 'priority' | 'machines' | 'accounts'>>;

function SendForm({ machines, selectedIds, selectedAccountIds = [], onSent }: Pick<Props, 'machines' | 'selectedIds' | 'selectedAccountIds'> & { onSent(): void }) {
  const [form] = Form.useForm<FormValues>();
  const accounts = useAccountLookup();
  const send = useSendNotification();
  const initial: FormValues = { title: '', body: '', priority: DEFAULT_NOTIFICATION_PRIORITY, machines: selectedIds, accounts: selectedAccountIds };

  const onFinish = (values: FormValues) => {
    send.mutate(values, {
      onSuccess: () => {
        form.resetFields(['title', 'body']);
        onSent();
      },
    });
  };

  const needsTarget = ({ getFieldValue }: { getFieldValue(name: keyof FormValues): unknown }) => ({
    validator: () =>
      (getFieldValue('machines') as number[]).length > 0 || (getFieldValue('accounts') as number[]).length > 0
        ? Promise.resolve()
        : Promise.reject(new Error(TARGET_REQUIRED)),
  });

  return (
    <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={onFinish} validateTrigger="onBlur">
      <Form.Item label="Title" name="title" rules={[{ required: true, whitespace: true, message: 'Title is required' }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item label="Body" name="body" rules={[{ required: true, whitespace: true, message: 'Body is required' }]}>
        <Input.TextArea rows={4} maxLength={5000} />
      </Form.Item>
      <Form.Item label="Priority" name="priority">
        <Select options={NOTIFICATION_PRIORITIES.map((p) => ({ value: p, label: p }))} />
      </Form.Item>
      <Form.Item label="Machines" name="machines" dependencies={['accounts']} rules={[needsTarget]} validateTrigger={['onChange', 'onBlur']}>
        <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={machines.map((m) => ({ value: m.id, label: m.name }))} />
      </Form.Item>
      <Form.Item label="Accounts" name="accounts" validateTrigger={['onChange', 'onBlur']}>
        <Select
          mode="multiple"
          loading={accounts.isLoading}
          showSearch={{ optionFilterProp: 'label' }}
          options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
        />
      </Form.Item>
      <Flex justify="end">
        <Button type="primary" htmlType="submit" loading={send.isPending}>
          Send
        </Button>
      </Flex>
    </Form>
  );
}

/** Mounted per opening (the parent renders it only while open). */
export function NotificationDialog({ machines, selectedIds, selectedAccountIds, canWrite, onClose }: Props) {
  const [tab, setTab] = useState(canWrite ? 'send' : 'pending');
  const items = [
    ...(canWrite
      ? [{ key: 'send', label: 'Send', children: <SendForm machines={machines} selectedIds={selectedIds} selectedAccountIds={selectedAccountIds} onSent={() => setTab('pending')} /> }]
      : []),
    { key: 'pending', label: 'Pending Messages', children: <PendingMessagesTable active={tab === 'pending'} /> },
  ];
  return (
    <Modal open title="Notification" width={NOTIFICATION_DIALOG_WIDTH} footer={null} onCancel={onClose} destroyOnHidden>
      <Tabs activeKey={tab} onChange={setTab} items={items} />
    </Modal>
  );
}
