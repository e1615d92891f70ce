/**
 * The recent deliveries of the Notifications screen (issue 28 point 3): the
 * newest 50 of the worker's outbox with their status (Sent; Pending, 'Retrying'
 * once an attempt failed; Failed after the last attempt), attempts and last
 * error, refreshed every 2 s.
 */
import { Alert, Card, Table, Tag, Tooltip, Typography } from 'antd';
import { NOTIFICATION_EVENT_LABELS, type TNotificationDelivery } from '@fleet/contracts';
import { errorText } from '../../../app/api-client';
import { formatDateTime } from '../../../lib/format';
import { useNotificationDeliveries } from '../api/queries';

/** The status tag of a delivery: what a user checks first. */
export function DeliveryStatus({ delivery }: { delivery: TNotificationDelivery }) {
  if (delivery.status === 'Sent') return <Tag color="success">Sent</Tag>;
  if (delivery.status === 'Failed') return <Tag color="error">Failed</Tag>;
  if (delivery.lastError) {
    return (
      <Tooltip title={`Next attempt ${formatDateTime(delivery.nextAttemptAt)}`}>
        <Tag color="warning">Retrying</Tag>
      </Tooltip>
    );
  }
  return <Tag color="processing">Pending</Tag>;
}

export function DeliveriesCard() {
  const deliveries = useNotificationDeliveries();
  return (
    <Card title="Recent deliveries" size="small">
      {deliveries.isError && <Alert type="error" showIcon message={errorText(deliveries.error, 'Error occurred loading the deliveries')} style={{ marginBottom: 12 }} />}
      <Table<TNotificationDelivery>
        size="small"
        rowKey="id"
        loading={deliveries.isLoading}
        dataSource={deliveries.data ?? []}
        pagination={false}
        locale={{ emptyText: 'No message sent yet' }}
        columns={[
          { key: 'createdAt', title: 'Queued', render: (_, d) => formatDateTime(d.createdAt), width: 180 },
          { key: 'channel', title: 'Channel', dataIndex: 'channelName' },
          { key: 'event', title: 'Event', render: (_, d) => NOTIFICATION_EVENT_LABELS[d.event] },
          { key: 'status', title: 'Status', render: (_, d) => <DeliveryStatus delivery={d} />, width: 110 },
          { key: 'attempts', title: 'Attempts', dataIndex: 'attempts', width: 90 },
          {
            key: 'lastError',
            title: 'Last error',
            render: (_, d) => (d.lastError ? <Typography.Text type="danger">{d.lastError}</Typography.Text> : d.sentAt ? `Sent ${formatDateTime(d.sentAt)}` : ''),
          },
        ]}
      />
    </Card>
  );
}
