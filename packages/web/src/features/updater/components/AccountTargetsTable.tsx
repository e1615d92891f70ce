/**
 * The Updater's targets in account mode (spec 3 §2.8, §3 Account for the
 * updater): `GET /updater/accounts` (name with class tag, managed, auto test,
 * machines), 20 a page. Rows are selected with a checkbox; the selection is
 * kept across pages and filters (see `use-target-selection`), with the
 * `SelectionBar` above. A failed load shows an alert with Retry. (Machine mode
 * embeds the machines panel instead: `MachineTargets`.)
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Table, Typography, type TableProps } from 'antd';
import type { TUpdaterAccount } from '@fleet/contracts';
import { useUpdaterTargets } from '../api/queries';
import type { TargetSelection } from '../use-target-selection';
import type { UpdaterTargetQuery } from '../use-updater-params';
import { ClassTag } from './ClassTag';
import { SelectionBar } from './SelectionBar';

/** Rows per page of the accounts table. */
export const TARGETS_PAGE_SIZE = 20;

const yes = (v: boolean) => (v ? 'Yes' : <Typography.Text type="secondary">No</Typography.Text>);

const ACCOUNT_COLUMNS: TableProps<TUpdaterAccount>['columns'] = [
  {
    key: 'name',
    title: 'Name',
    render: (_: unknown, t: TUpdaterAccount) => (
      <>
        {t.name}
        <ClassTag classId={t.classId} name={t.class} />
      </>
    ),
  },
  { key: 'managed', title: 'Managed', dataIndex: 'managed', width: 110, render: yes },
  { key: 'autoTest', title: 'Auto test', dataIndex: 'autoTest', width: 110, render: yes },
  { key: 'machines', title: 'Machines', dataIndex: 'machines', width: 110, align: 'right' },
];

interface Props {
  query: UpdaterTargetQuery;
  selection: TargetSelection;
}

export function AccountTargetsTable({ query, selection }: Props) {
  const [page, setPage] = useState(1);
  const queryText = JSON.stringify(query);
  const [seenQuery, setSeenQuery] = useState(queryText);
  if (seenQuery !== queryText) {
    setSeenQuery(queryText);
    setPage(1);
  }
  const targets = useUpdaterTargets('account', query, { startIndex: (page - 1) * TARGETS_PAGE_SIZE, limit: TARGETS_PAGE_SIZE });
  const { remember } = selection;
  useEffect(() => {
    if (targets.data) remember(targets.data.items);
  }, [targets.data, remember]);

  const rowSelection: TableProps<TUpdaterAccount>['rowSelection'] = {
    selectedRowKeys: selection.ids,
    preserveSelectedRowKeys: true,
    onChange: (keys) => selection.set(keys.map(Number)),
    getCheckboxProps: (t) => ({ 'aria-label': `Select ${t.name}` }),
  };

  return (
    <>
      <SelectionBar mode="account" query={query} selection={selection} total={targets.data?.totalItems ?? 0} />
      {targets.isError ? (
        <Alert
          type="error"
          showIcon
          title="The accounts could not be loaded"
          action={
            <Button size="small" onClick={() => void targets.refetch()}>
              Retry
            </Button>
          }
        />
      ) : (
        <Table<TUpdaterAccount>
          size="small"
          rowKey="id"
          aria-label="Updater accounts"
          columns={ACCOUNT_COLUMNS}
          dataSource={(targets.data?.items ?? []) as TUpdaterAccount[]}
          loading={targets.isFetching}
          rowSelection={rowSelection}
          locale={{ emptyText: 'No accounts match the filters' }}
          pagination={{
            current: page,
            pageSize: TARGETS_PAGE_SIZE,
            total: targets.data?.totalItems ?? 0,
            showSizeChanger: false,
            showTotal: (n) => `${n.toLocaleString('en-US')} accounts`,
            onChange: setPage,
          }}
        />
      )}
    </>
  );
}
