/**
 * Pending Messages tab of the Notification dialog (spec 2 §2.3, §3): messages
 * not yet delivered to their machines, newest first, from
 * `GET /notification/messages` (timestamp, machine name, title, body), 20 per page.
 */
import { useState } from 'react';
import { Table, Typography } from 'antd';
import { DEFAULT_PAGE_SIZE, type TPendingMessage } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { usePendingMessages } from '../api/queries';

const COLUMNS = [
  { key: 'timestamp', title: 'Timestamp', dataIndex: 'timestamp', render: (iso: string) => formatDateTime(iso, DATE_TIME_SECONDS_FORMAT) },
  { key: 'machine', title: 'Machine', dataIndex: ['machine', 'name'] },
  { key: 'title', title: 'Title', dataIndex: 'title' },
  { key: 'body', title: 'Body', dataIndex: 'body' },
];

export function PendingMessagesTable({ active }: { active: boolean }) {
  const [page, setPage] = useState(1);
  const messages = usePendingMessages({ startIndex: (page - 1) * DEFAULT_PAGE_SIZE, limit: DEFAULT_PAGE_SIZE }, active);
  return (
    <Table<TPendingMessage>
      rowKey="id"
      size="small"
      columns={COLUMNS}
      dataSource={messages.data?.items ?? []}
      loading={messages.isFetching}
      locale={{
        emptyText: messages.isLoading ? ' ' : <Typography.Text type="secondary">{messages.isError ? 'Messages could not be loaded' : 'No pending messages'}</Typography.Text>,
      }}
      pagination={{
        current: page,
        pageSize: DEFAULT_PAGE_SIZE,
        total: messages.data?.totalItems ?? 0,
        showSizeChanger: false,
        hideOnSinglePage: true,
        onChange: setPage,
      }}
    />
  );
}
