/**
 * The 'Add channel' and 'Edit channel' dialog of the Notifications screen
 * (issue 28 point 3): kind (webhook, Slack-compatible incoming webhook, email;
 * fixed once added), name, and the URL or the address, validated on blur with
 * the contract's rules. A webhook's signing secret is shown once after it was
 * added (with a copy button); closing the dialog forgets it. Editing keeps the
 * secret and sends only what changed.
 */
import { useState } from 'react';
import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import {
  isHttpUrl,
  NOTIFICATION_CHANNEL_NAME_MAX,
  NOTIFICATION_URL_MAX,
  type TCreatedNotificationChannel,
  type TCreateNotificationChannelRequest,
  type TNotificationChannel,
  type TNotificationChannelKind,
  type TUpdateNotificationChannelRequest,
} from '@fleet/contracts';
import { useCreateNotificationChannel, useUpdateNotificationChannel } from '../api/mutations';
import { CHANNEL_KIND_LABELS } from './channel-kinds';


interface Values {
  kind: TNotificationChannelKind;
  name: string;
  url?: string;
  address?: string;
}

/** The form's values of an existing channel. */
const valuesOf = (c: TNotificationChannel): Values => ({ kind: c.kind, name: c.name, ...(c.kind === 'email' ? { address: c.target } : { url: c.target }) });

/** The edit of `channel` the form's values make: only what changed (nothing: an empty body). */
function changesOf(channel: TNotificationChannel, v: Values): TUpdateNotificationChannelRequest {
  const target = (channel.kind === 'email' ? v.address : v.url)?.trim() ?? channel.target;
  return {
    ...(v.name.trim() === channel.name ? {} : { name: v.name }),
    ...(target === channel.target ? {} : channel.kind === 'email' ? { address: target } : { url: target }),
  };
}

/** Adds a channel, or with `channel` edits it. */
export function AddChannelDialog({ channel, onClose }: { channel?: TNotificationChannel; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? channel?.kind ?? 'webhook';
  const [made, setMade] = useState<TCreatedNotificationChannel | null>(null);
  const create = useCreateNotificationChannel();
  const update = useUpdateNotificationChannel();

  const submit = async () => {
    // A field that fails shows its message; the dialog stays open.
    const v = await form.validateFields().catch(() => undefined);
    if (!v) return;
    if (channel) {
      const body = changesOf(channel, v);
      if (Object.keys(body).length === 0) return onClose();
      return update.mutate({ id: channel.id, body }, { onSuccess: onClose });
    }
    const body: TCreateNotificationChannelRequest = v.kind === 'email' ? { kind: 'email', name: v.name, address: v.address ?? '' } : { kind: v.kind, name: v.name, url: v.url ?? '' };
    create.mutate(body, { onSuccess: (added) => (added.secret ? setMade(added) : onClose()) });
  };

  return (
    <Modal
      open
      title={channel ? 'Edit channel' : 'Add channel'}
      width={600}
      okText={made ? 'Done' : channel ? 'Save' : 'Add channel'}
      cancelButtonProps={made ? { style: { display: 'none' } } : undefined}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => (made ? onClose() : void submit())}
      onCancel={onClose}
      destroyOnHidden
    >
      {made ? (
        <>
          <Alert type="warning" showIcon message="Copy the signing secret now: it is not shown again." />
          <Typography.Paragraph style={{ marginTop: 16 }}>
            Each request to {made.target} carries <Typography.Text code>X-Fleet-Signature: sha256=…</Typography.Text>, the HMAC-SHA256 of its body with this
            secret.
          </Typography.Paragraph>
          <Typography.Paragraph code copyable={{ text: made.secret ?? '', tooltips: ['Copy secret', 'Copied'] }} style={{ wordBreak: 'break-all' }}>
            {made.secret}
          </Typography.Paragraph>
        </>
      ) : (
        <Form form={form} layout="vertical" validateTrigger="onBlur" initialValues={channel ? valuesOf(channel) : { kind: 'webhook' }}>
          <Form.Item name="kind" label="Kind" rules={[{ required: true }]} extra={channel ? 'The kind of a channel stays as it was added.' : undefined}>
            <Select disabled={channel !== undefined} options={Object.entries(CHANNEL_KIND_LABELS).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
          <Form.Item
            name="name"
            label="Name"
            rules={[
              { required: true, whitespace: true, message: 'Name is required' },
              { max: NOTIFICATION_CHANNEL_NAME_MAX, message: `Name must have at most ${NOTIFICATION_CHANNEL_NAME_MAX} characters` },
            ]}
          >
            <Input />
          </Form.Item>
          {kind === 'email' ? (
            <Form.Item name="address" label="Address" rules={[{ required: true, type: 'email', message: 'Address must be an email address' }]}>
              <Input />
            </Form.Item>
          ) : (
            <Form.Item
              name="url"
              label="URL"
              rules={[
                { required: true, message: 'URL is required' },
                { max: NOTIFICATION_URL_MAX, message: `URL must have at most ${NOTIFICATION_URL_MAX} characters` },
                { validator: async (_, value?: string) => (!value || isHttpUrl(value) ? undefined : Promise.reject(new Error('URL must be an http(s) URL'))) },
              ]}
            >
              <Input placeholder={kind === 'slack' ? 'https://hooks.slack.com/services/…' : 'https://'} />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
