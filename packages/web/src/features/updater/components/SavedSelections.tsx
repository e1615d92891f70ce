/**
 * Saved selections of the Updater (issue 13 point 5; `GET`/`POST
 * /updater/selections`, `DELETE /updater/selections/{id}`):
 *
 * - Save selection: a name, and in account mode a choice between the selected
 *   ids and the current filter query (the accounts it matches when opened);
 *   machine mode saves ids.
 * - Saved selections: a drawer listing them (name, kind, what they hold,
 *   owner); Open puts a query into the URL (account mode) or selects the ids in
 *   their mode; Delete asks first (only the owner or an admin may, else the
 *   server answers 403 and the error toast shows).
 */
import { useState } from 'react';
import { Button, Drawer, Flex, Input, Modal, Popover, Radio, Table, Typography, type TableProps } from 'antd';
import { FolderOpenOutlined, SaveOutlined } from '@ant-design/icons';
import type { TSavedSelection } from '@fleet/contracts';
import { formatDateTime } from '../../../lib/format';
import { useDeleteSelection, useSaveSelection } from '../api/mutations';
import { useSavedSelections } from '../api/queries';
import { selectionQueryOf, type UpdaterMode, type UpdaterTargetQuery } from '../use-updater-params';

interface SaveProps {
  mode: UpdaterMode;
  ids: number[];
  query: UpdaterTargetQuery;
}

export function SaveSelectionButton({ mode, ids, query }: SaveProps) {
  const save = useSaveSelection();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [what, setWhat] = useState<'ids' | 'query'>('ids');
  const byQuery = mode === 'account' && what === 'query';
  const canSave = name.trim() !== '' && (byQuery || ids.length > 0);

  const submit = () => {
    if (!canSave) return;
    save.mutate(
      {
        name: name.trim(),
        kind: mode === 'machine' ? 'machines' : 'accounts',
        query: byQuery ? selectionQueryOf(query) : null,
        ids: byQuery ? [] : ids,
      },
      {
        onSuccess: () => {
          setOpen(false);
          setName('');
        },
      },
    );
  };

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title="Save selection"
      content={
        <Flex vertical gap={8} style={{ width: 300 }}>
          <Input aria-label="Selection name" placeholder="Selection name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} onPressEnter={submit} autoFocus />
          {mode === 'account' && (
            <Radio.Group value={what} onChange={(e) => setWhat(e.target.value as 'ids' | 'query')}>
              <Radio value="ids">The {ids.length} selected accounts</Radio>
              <Radio value="query">The filter (accounts matching it when opened)</Radio>
            </Radio.Group>
          )}
          <Button type="primary" disabled={!canSave} loading={save.isPending} onClick={submit}>
            Save
          </Button>
        </Flex>
      }
    >
      <Button icon={<SaveOutlined aria-hidden />}>Save selection</Button>
    </Popover>
  );
}

interface ListProps {
  onOpenSelection(selection: TSavedSelection): void;
}

export function SavedSelectionsButton({ onOpenSelection }: ListProps) {
  const [open, setOpen] = useState(false);
  const [modal, holder] = Modal.useModal();
  const selections = useSavedSelections();
  const remove = useDeleteSelection();

  const columns: TableProps<TSavedSelection>['columns'] = [
    { key: 'name', title: 'Name', dataIndex: 'name' },
    { key: 'kind', title: 'Kind', dataIndex: 'kind', width: 90 },
    {
      key: 'holds',
      title: 'Holds',
      render: (_, s) => (s.query !== null ? <Typography.Text code>{s.query || '(all)'}</Typography.Text> : `${s.ids.length} ids`),
    },
    { key: 'owner', title: 'Owner', dataIndex: 'owner', width: 120 },
    { key: 'created', title: 'Created', width: 150, render: (_, s) => formatDateTime(s.createdAt) },
    {
      key: 'actions',
      width: 140,
      render: (_, s) => (
        <Flex gap={4}>
          <Button
            size="small"
            onClick={() => {
              onOpenSelection(s);
              setOpen(false);
            }}
          >
            Open
          </Button>
          <Button
            size="small"
            danger
            onClick={() =>
              void modal.confirm({
                title: 'Delete selection',
                content: `Are you sure you want to delete the selection ${s.name}?`,
                okText: 'Delete',
                okButtonProps: { danger: true },
                cancelText: 'Cancel',
                onOk: () => remove.mutateAsync(s.id).catch(() => undefined),
              })
            }
          >
            Delete
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <>
      <Button icon={<FolderOpenOutlined aria-hidden />} onClick={() => setOpen(true)}>
        Saved selections
      </Button>
      <Drawer title="Saved selections" size="large" open={open} onClose={() => setOpen(false)}>
        <Table<TSavedSelection>
          size="small"
          rowKey="id"
          aria-label="Saved selections"
          columns={columns}
          dataSource={selections.data ?? []}
          loading={selections.isLoading}
          locale={{ emptyText: selections.isError ? 'The saved selections could not be loaded' : 'No saved selections' }}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
        />
      </Drawer>
      {holder}
    </>
  );
}
