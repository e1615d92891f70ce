/**
 * Services tab of the edit-account screen (spec 1 §2 Edit account, §3 Service):
 * name and status of each service of `GET /accounts/{id}/software-status`,
 * with the version the account runs when there is one.
 */
import { Table, Tag, Typography } from 'antd';
import type { TAccountService } from '@fleet/contracts';
import { useSoftwareStatus } from '../api/queries';

const STATUS_COLORS: Record<TAccountService['status'], string> = {
  Running: 'success',
  Outdated: 'warning',
  Degraded: 'error',
  Stopped: 'default',
  Pending: 'processing',
};

const COLUMNS = [
  { key: 'name', title: 'Name', dataIndex: 'name' },
  {
    key: 'status',
    title: 'Status',
    dataIndex: 'status',
    render: (status: TAccountService['status']) => <Tag color={STATUS_COLORS[status]}>{status}</Tag>,
  },
  { key: 'version', title: 'Version', dataIndex: 'version', render: (v: string | null) => v ?? <Typography.Text type="secondary">—</Typography.Text> },
];

export function ServicesTab({ accountId }: { accountId: number }) {
  const services = useSoftwareStatus(accountId);
  return (
    <Table<TAccountService>
      rowKey="component"
      size="small"
      columns={COLUMNS}
      dataSource={services.data ?? []}
      loading={services.isLoading}
      pagination={false}
      locale={{
        emptyText: services.isLoading ? ' ' : <Typography.Text type="secondary">{services.isError ? 'Services could not be loaded' : 'This account runs no services'}</Typography.Text>,
      }}
    />
  );
}
