/**
 * Library Manager (spec 3 §2.6, §5): the library files (name, url, package,
 * type, inS3, addedBy, date, actions) in a table at most the window's height
 * minus 300 px tall (a scroll region whose header row stays at its top: CSS `position: sticky`,
 * not antd's `sticky`, whose separate header table left the body's cells without
 * headers, axe td-has-header), with row selection; Delete removes the selected files
 * after 'Deleting library file(s) will also delete files from S3. Are you sure
 * you want to continue?' (disabled while nothing is selected), a row's delete
 * button removes that file after the same question, and the cloud-download
 * button opens the Sync library files dialog. Without `write` the table is
 * read-only (no selection, sync or delete).
 */
import { useEffect, useState } from 'react';
import { Button, Card, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { CloudDownloadOutlined, DeleteOutlined } from '@ant-design/icons';
import { LIBRARY_TABLE_HEIGHT_OFFSET, type TLibraryFile } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { formatDateTime } from '../../lib/format';
import { useActionsColumnFixed } from '../../lib/use-mobile-layout';
import { useDeferredRows } from '../../lib/use-deferred-rows';
import { useDeleteLibraryFiles } from './api/mutations';
import { useLibraryTable } from './api/queries';
import { SyncLibraryFilesDialog } from './SyncLibraryFilesDialog';
import './library-manager.css';

export const DELETE_LIBRARY_FILES_CONFIRM = 'Deleting library file(s) will also delete files from S3. Are you sure you want to continue?';

/** The window's height minus 300 px, following resizes (spec 3 §2.6). */
function useTableHeight(): number {
  const read = () => Math.max(window.innerHeight - LIBRARY_TABLE_HEIGHT_OFFSET, 200);
  const [height, setHeight] = useState(read);
  useEffect(() => {
    const onResize = () => setHeight(read());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
}

export default function LibraryManagerPage() {
  const { canWrite } = useAuth();
  const files = useLibraryTable();
  // The 60 files of the demo in one render blocked the main thread for 250 ms (issue 26, TBT).
  const { rows, pending } = useDeferredRows(files.data?.items, files.isLoading);
  const remove = useDeleteLibraryFiles();
  const [selected, setSelected] = useState<number[]>([]);
  const [syncOpen, setSyncOpen] = useState(false);
  const [modal, modalHolder] = Modal.useModal();
  const height = useTableHeight();
  const actionsFixed = useActionsColumnFixed();

  const confirmDelete = (ids: number[]) => {
    if (ids.length === 0) return;
    void modal.confirm({
      title: 'Delete library file(s)',
      content: DELETE_LIBRARY_FILES_CONFIRM,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove.mutateAsync(ids).then(
          () => setSelected((s) => s.filter((id) => !ids.includes(id))),
          () => undefined,
        ),
    });
  };

  const columns: ColumnsType<TLibraryFile> = [
    { title: 'Name', dataIndex: 'name', key: 'name', width: 240, ellipsis: true },
    // A long url is cut; the cell's title shows it whole (a tooltip per row cost the load a tenth of its blocking time).
    { title: 'Url', dataIndex: 'url', key: 'url', ellipsis: true },
    { title: 'Package', dataIndex: 'package', key: 'package', width: 120 },
    { title: 'Type', dataIndex: 'type', key: 'type', width: 90, render: (type: string) => <Tag>{type}</Tag> },
    {
      title: 'In S3',
      dataIndex: 'inS3',
      key: 'inS3',
      width: 80,
      render: (inS3: boolean) => (inS3 ? <Tag color="green">Yes</Tag> : <Tag>No</Tag>),
    },
    { title: 'Added By', dataIndex: 'addedBy', key: 'addedBy', width: 120 },
    { title: 'Date', dataIndex: 'date', key: 'date', width: 170, render: (date: string) => formatDateTime(date) },
    {
      title: 'Actions',
      key: 'actions',
      width: 90,
      fixed: actionsFixed,
      render: (_, file) =>
        canWrite ? (
          <Tooltip title="Delete">
            <Button aria-label={`Delete ${file.name}`} size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete([file.id])} />
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <Card
      title="Library Manager"
      extra={
        canWrite && (
          <Space>
            <Tooltip title="Sync library files">
              <Button aria-label="Sync library files" icon={<CloudDownloadOutlined />} onClick={() => setSyncOpen(true)} />
            </Tooltip>
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmDelete(selected)}>
              Delete{selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
          </Space>
        )
      }
    >
      {modalHolder}
      {/* The scroll box is a focusable, named region so that the keyboard can scroll it (axe scrollable-region-focusable). */}
      <div className="library-files" role="region" aria-label="Library files" tabIndex={0} style={{ maxHeight: height, overflow: 'auto' }}>
        <Table<TLibraryFile>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={rows}
          loading={files.isLoading}
          pagination={false}
          rowSelection={canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) } : undefined}
          locale={{
            emptyText: pending ? ' ' : <Typography.Text type="secondary">{files.isError ? 'Library files could not be loaded' : 'No library files'}</Typography.Text>,
          }}
        />
      </div>
      <SyncLibraryFilesDialog open={syncOpen} onClose={() => setSyncOpen(false)} />
    </Card>
  );
}
