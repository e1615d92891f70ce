/**
 * The Sync library files dialog (spec 3 §2.6, §9: 850 px): the cloud library
 * files not yet in the library (matched by url), with Name, Type and a checkbox
 * per row; Sync (enabled only with a selection) imports the chosen files
 * (`POST /library/files/sync`) and closes the dialog.
 */
import { useState } from 'react';
import { Button, Modal, Table, Tag } from 'antd';
import { LIBRARY_SYNC_DIALOG_WIDTH, type TCloudLibraryFile } from '@fleet/contracts';
import { useSyncLibraryFiles } from './api/mutations';
import { useCloudLibraryFiles } from './api/queries';

export function SyncLibraryFilesDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const cloud = useCloudLibraryFiles(open);
  const sync = useSyncLibraryFiles();
  const [selected, setSelected] = useState<string[]>([]);

  const close = () => {
    setSelected([]);
    onClose();
  };
  const onSync = () => sync.mutate(selected, { onSuccess: close });

  return (
    <Modal
      title="Sync library files"
      open={open}
      width={LIBRARY_SYNC_DIALOG_WIDTH}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          Cancel
        </Button>,
        <Button key="sync" type="primary" disabled={selected.length === 0} loading={sync.isPending} onClick={onSync}>
          Sync
        </Button>,
      ]}
    >
      <Table<TCloudLibraryFile>
        rowKey="url"
        size="small"
        loading={cloud.isFetching}
        dataSource={cloud.data ?? []}
        pagination={false}
        scroll={{ y: 400 }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        columns={[
          { title: 'Name', dataIndex: 'name', key: 'name' },
          { title: 'Type', dataIndex: 'type', key: 'type', width: 120, render: (type: string) => <Tag>{type}</Tag> },
        ]}
        locale={{ emptyText: cloud.isError ? 'Cloud library files could not be loaded' : 'Every cloud library file is already in the library' }}
      />
    </Modal>
  );
}
