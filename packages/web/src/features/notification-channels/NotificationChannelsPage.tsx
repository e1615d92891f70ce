/**
 * The Notifications screen (issue 28 point 3; route `/notifications`, admins
 * only): the notification channels with their subscriptions — add a channel,
 * edit its name and where it sends, subscribe it to events, 'Send test message',
 * remove a subscription or the channel — and the recent deliveries of the worker's outbox, where a failing
 * receiver shows its retries and its last error.
 */
import { Suspense, useState } from 'react';
import { Alert, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { ACCOUNT_CLASSES, NOTIFICATION_EVENT_LABELS, type TNotificationChannel, type TNotificationSubscription } from '@fleet/contracts';
import { errorText } from '../../app/api-client';
import { useNotificationChannels } from './api/queries';
import { useDeleteNotificationChannel, useDeleteNotificationSubscription, useTestNotificationChannel } from './api/mutations';
import { CHANNEL_KIND_LABELS } from './components/channel-kinds';
import { DeliveriesCard } from './components/DeliveriesCard';
import { lazyNamed } from '../../lib/lazy-named';

// The dialogs load when first opened (their Forms are not the list's: issue 26, script per route).
const AddChannelDialog = lazyNamed(() => import('./components/AddChannelDialog'), 'AddChannelDialog');
const SubscribeDialog = lazyNamed(() => import('./components/SubscribeDialog'), 'SubscribeDialog');

const className = (id: number) => ACCOUNT_CLASSES.find((c) => c.id === id)?.name ?? `class ${id}`;

function SubscriptionLine({ channel, subscription }: { channel: TNotificationChannel; subscription: TNotificationSubscription }) {
  const remove = useDeleteNotificationSubscription();
  const filters = [subscription.classId !== null && `class ${className(subscription.classId)}`, subscription.accountId !== null && `account ${subscription.accountId}`].filter(Boolean);
  return (
    <div style={{ marginBottom: 4 }}>
      {subscription.events.map((event) => (
        <Tag key={event}>{NOTIFICATION_EVENT_LABELS[event]}</Tag>
      ))}
      {filters.length > 0 && <Typography.Text type="secondary">only {filters.join(', ')} </Typography.Text>}
      <Popconfirm title="Remove this subscription?" okText="Remove" onConfirm={() => remove.mutate({ channelId: channel.id, id: subscription.id })}>
        <Button type="link" size="small" danger>
          Unsubscribe
        </Button>
      </Popconfirm>
    </div>
  );
}

export default function NotificationChannelsPage() {
  const channels = useNotificationChannels();
  const test = useTestNotificationChannel();
  const remove = useDeleteNotificationChannel();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TNotificationChannel | null>(null);
  const [subscribing, setSubscribing] = useState<TNotificationChannel | null>(null);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title="Notification channels"
        size="small"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            Add channel
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          Fleet events (rollouts halted, completed or waiting for approval, operations pending approval, machines in Panic, class standby, issues opened) are
          sent to the channels subscribed to them. Every message links to the console page of what it is about.
        </Typography.Paragraph>
        {channels.isError && <Alert type="error" showIcon message={errorText(channels.error, 'Error occurred loading the notification channels')} style={{ marginBottom: 12 }} />}
        <Table<TNotificationChannel>
          size="small"
          rowKey="id"
          loading={channels.isLoading}
          dataSource={channels.data ?? []}
          pagination={false}
          locale={{ emptyText: 'No notification channel yet' }}
          columns={[
            { key: 'name', title: 'Name', dataIndex: 'name' },
            { key: 'kind', title: 'Kind', render: (_, c) => CHANNEL_KIND_LABELS[c.kind] },
            { key: 'target', title: 'Sends to', render: (_, c) => <Typography.Text style={{ wordBreak: 'break-all' }}>{c.target}</Typography.Text> },
            {
              key: 'subscriptions',
              title: 'Subscriptions',
              render: (_, c) =>
                c.subscriptions.length === 0 ? (
                  <Typography.Text type="secondary">None: it receives test messages only</Typography.Text>
                ) : (
                  c.subscriptions.map((s) => <SubscriptionLine key={s.id} channel={c} subscription={s} />)
                ),
            },
            {
              key: 'actions',
              title: 'Actions',
              width: 300,
              render: (_, c) => (
                <Space size={0} wrap>
                  <Button type="link" size="small" loading={test.isPending && test.variables === c.id} onClick={() => test.mutate(c.id)}>
                    Send test message
                  </Button>
                  <Button type="link" size="small" onClick={() => setSubscribing(c)}>
                    Subscribe
                  </Button>
                  <Button type="link" size="small" onClick={() => setEditing(c)}>
                    Edit
                  </Button>
                  <Popconfirm title={`Remove the channel ${c.name}?`} description="Messages not sent yet are dropped." okText="Remove" onConfirm={() => remove.mutate(c.id)}>
                    <Button type="link" size="small" danger>
                      Remove
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <DeliveriesCard />
      <Suspense fallback={null}>
        {adding && <AddChannelDialog onClose={() => setAdding(false)} />}
        {editing && <AddChannelDialog channel={editing} onClose={() => setEditing(null)} />}
        {subscribing && <SubscribeDialog channel={subscribing} onClose={() => setSubscribing(null)} />}
      </Suspense>
    </Space>
  );
}
