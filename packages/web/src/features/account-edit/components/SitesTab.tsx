/**
 * Sites tab of the edit-account screen (spec 1 §2 Edit account): name,
 * URL-friendly name, domain name and port of each site from
 * `GET /accounts/{id}/sites`, with an Edit button (write permission) opening the
 * Edit Site dialog.
 */
import { useState } from 'react';
import { Button, Table, Typography, type TableProps } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { TSite } from '@fleet/contracts';
import { useSites } from '../api/queries';
import { EditSiteDialog } from './EditSiteDialog';

interface Props {
  accountId: number;
  canWrite: boolean;
}

export function SitesTab({ accountId, canWrite }: Props) {
  const sites = useSites(accountId);
  const [editing, setEditing] = useState<TSite | undefined>(undefined);

  const columns: NonNullable<TableProps<TSite>['columns']> = [
    { key: 'name', title: 'Name', dataIndex: 'name' },
    { key: 'urlFriendlyName', title: 'URL-friendly name', dataIndex: 'urlFriendlyName' },
    { key: 'domainName', title: 'Domain name', dataIndex: 'domainName' },
    { key: 'port', title: 'Port', dataIndex: 'port' },
  ];
  if (canWrite) {
    columns.push({
      key: 'edit',
      title: 'Actions',
      render: (_, site) => (
        <Button size="small" icon={<EditOutlined aria-hidden />} aria-label={`Edit site ${site.name}`} onClick={() => setEditing(site)}>
          Edit
        </Button>
      ),
    });
  }

  return (
    <>
      <Table<TSite>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={sites.data ?? []}
        loading={sites.isLoading}
        pagination={false}
        locale={{
          emptyText: sites.isLoading ? ' ' : <Typography.Text type="secondary">{sites.isError ? 'Sites could not be loaded' : 'This account has no sites'}</Typography.Text>,
        }}
      />
      {editing && <EditSiteDialog accountId={accountId} site={editing} onClose={() => setEditing(undefined)} />}
    </>
  );
}
