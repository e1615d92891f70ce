/**
 * IRMN Versions (spec 3 §2.2, route /lists/irmn-versions): a table of name,
 * default tick and status; Create New; per row edit and delete. Delete (which
 * the specification's console left unwired) asks for confirmation and is refused
 * by the server while an image or a config uses the version (its reason shows in
 * the error toast). Without `write` the buttons are hidden (the server refuses
 * the calls too).
 */
import { Suspense, useState } from 'react';
import { Button, Card, Modal, Space, Table, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import { CheckOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { TIrmnVersion } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useIrmnVersions } from '../catalogues/api/queries';
import { useDeleteIrmnVersion } from './api/mutations';
import { LoadError } from './LoadError';
import { lazyNamed } from '../../lib/lazy-named';

/** Tag colour of a version status (display only, spec 3 §4). */
/** The create and edit dialog, loaded when first opened (its Form is not the list's: issue 26, script per route). */
const IrmnVersionDialog = lazyNamed(() => import('./IrmnVersionDialog'), 'IrmnVersionDialog');

export const STATUS_COLORS: Record<TIrmnVersion['status'], string> = { InDevelopment: 'orange', Planned: 'blue', Released: 'green' };

export default function IrmnVersionsPage() {
  const { canWrite } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const versions = useIrmnVersions();
  const remove = useDeleteIrmnVersion();
  /** The dialog: closed, a new version (null) or the version edited. */
  const [editing, setEditing] = useState<TIrmnVersion | null | undefined>(undefined);

  const confirmDelete = (v: TIrmnVersion) =>
    void modal.confirm({
      title: 'Delete IRMN version',
      content: `Are you sure you want to delete this IRMN version: ${v.name}`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => remove.mutateAsync(v.id).catch(() => undefined),
    });

  const columns: TableColumnsType<TIrmnVersion> = [
    { title: 'Name', dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }) },
    {
      title: 'Default',
      dataIndex: 'default',
      width: 100,
      align: 'center',
      render: (isDefault: boolean) => (isDefault ? <CheckOutlined aria-label="Default" /> : null),
    },
    { title: 'Status', dataIndex: 'status', width: 160, render: (s: TIrmnVersion['status']) => <Tag color={STATUS_COLORS[s]}>{s}</Tag> },
  ];
  if (canWrite) {
    columns.push({
      title: 'Actions',
      key: 'actions',
      width: 120,
      render: (_, v) => (
        <Space>
          <Tooltip title="Edit">
            <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${v.name}`} onClick={() => setEditing(v)} />
          </Tooltip>
          <Tooltip title="Delete">
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${v.name}`} onClick={() => confirmDelete(v)} />
          </Tooltip>
        </Space>
      ),
    });
  }

  return (
    <Card
      title="IRMN Versions"
      extra={
        canWrite && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            Create New
          </Button>
        )
      }
    >
      {versions.isError && <LoadError error={versions.error} what="IRMN versions" />}
      <Table<TIrmnVersion> rowKey="id" size="small" columns={columns} dataSource={versions.data ?? []} loading={versions.isLoading} pagination={false} />
      {editing !== undefined && (
        <Suspense fallback={null}>
          <IrmnVersionDialog version={editing} onClose={() => setEditing(undefined)} />
        </Suspense>
      )}
      {modalHolder}
    </Card>
  );
}
