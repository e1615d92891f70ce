/**
 * The Updater's targets table (spec 3 §2.8, §3 Machine and Account for the
 * updater): machine mode lists `GET /updater/machines` (name with class tag,
 * account, managed, maintenance, obsolete), account mode `GET /updater/accounts`
 * (name with class tag, managed, auto test, machines). Rows are selected with a
 * checkbox; the selection is kept across pages and filters (see
 * `use-target-selection`). Above the table: the count of selected targets,
 * 'Select all N that match' (`GET …/ids`; says so when capped at 10,000) and
 * Clear selection. A failed load shows an alert with Retry.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Table, Typography, type TableProps } from 'antd';
import { MAX_UPDATE_TARGETS, type TUpdaterAccount, type TUpdaterMachine } from '@fleet/contracts';
import { useToast } from '../../../app/toast';
import { fetchTargetIds, useUpdaterTargets, type UpdaterTarget } from '../api/queries';
import { showProblem } from '../api/mutations';
import type { TargetSelection } from '../use-target-selection';
import type { UpdaterMode, UpdaterTargetQuery } from '../use-updater-params';
import { ClassTag } from './ClassTag';

/** Rows per page of the targets table. */
export const TARGETS_PAGE_SIZE = 20;

const yes = (v: boolean) => (v ? 'Yes' : <Typography.Text type="secondary">No</Typography.Text>);

const nameColumn = {
  key: 'name',
  title: 'Name',
  render: (_: unknown, t: UpdaterTarget) => (
    <>
      {t.name}
      <ClassTag classId={t.classId} name={t.class} />
    </>
  ),
};

const MACHINE_COLUMNS: TableProps<TUpdaterMachine>['columns'] = [
  nameColumn,
  { key: 'account', title: 'Account', dataIndex: 'accountName' },
  { key: 'managed', title: 'Managed', dataIndex: 'managed', width: 110, render: yes },
  { key: 'maintenance', title: 'Maintenance', dataIndex: 'manualMaintenance', width: 120, render: yes },
  { key: 'obsolete', title: 'Obsolete', dataIndex: 'obsolete', width: 100, render: yes },
];

const ACCOUNT_COLUMNS: TableProps<TUpdaterAccount>['columns'] = [
  nameColumn,
  { key: 'managed', title: 'Managed', dataIndex: 'managed', width: 110, render: yes },
  { key: 'autoTest', title: 'Auto test', dataIndex: 'autoTest', width: 110, render: yes },
  { key: 'machines', title: 'Machines', dataIndex: 'machines', width: 110, align: 'right' },
];

interface Props {
  mode: UpdaterMode;
  query: UpdaterTargetQuery;
  selection: TargetSelection;
}

export function TargetsTable({ mode, query, selection }: Props) {
  const toast = useToast();
  const [page, setPage] = useState(1);
  const queryText = JSON.stringify([mode, query]);
  const [seenQuery, setSeenQuery] = useState(queryText);
  if (seenQuery !== queryText) {
    setSeenQuery(queryText);
    setPage(1);
  }
  const targets = useUpdaterTargets(mode, query, { startIndex: (page - 1) * TARGETS_PAGE_SIZE, limit: TARGETS_PAGE_SIZE });
  const [selectingAll, setSelectingAll] = useState(false);
  const { remember } = selection;
  useEffect(() => {
    if (targets.data) remember(targets.data.items);
  }, [targets.data, remember]);

  const total = targets.data?.totalItems ?? 0;
  const label = mode === 'machine' ? 'machines' : 'accounts';

  const selectAll = async () => {
    setSelectingAll(true);
    try {
      const answer = await fetchTargetIds(mode, query);
      selection.set(answer.ids, answer.totalItems > answer.ids.length ? answer.totalItems : null);
    } catch (error) {
      showProblem(toast, `Error occurred selecting ${label}`, error);
    } finally {
      setSelectingAll(false);
    }
  };

  const rowSelection: TableProps<UpdaterTarget>['rowSelection'] = {
    selectedRowKeys: selection.ids,
    preserveSelectedRowKeys: true,
    onChange: (keys) => selection.set(keys.map(Number)),
    getCheckboxProps: (t) => ({ 'aria-label': `Select ${t.name}` }),
  };

  return (
    <>
      <Flex gap={12} align="center" wrap style={{ marginBottom: 8 }} role="status" aria-live="polite">
        <Typography.Text strong data-testid="selected-count">
          {selection.ids.length.toLocaleString('en-US')} {label} selected
        </Typography.Text>
        {total > 0 && (
          <Button size="small" loading={selectingAll} onClick={() => void selectAll()}>
            Select all {total.toLocaleString('en-US')} that match
          </Button>
        )}
        {selection.ids.length > 0 && (
          <Button size="small" onClick={selection.clear}>
            Clear selection
          </Button>
        )}
        {selection.cappedFrom !== null && (
          <Typography.Text type="warning">
            {selection.cappedFrom.toLocaleString('en-US')} match; only the first {MAX_UPDATE_TARGETS.toLocaleString('en-US')} are selected (the most one update may name).
          </Typography.Text>
        )}
      </Flex>
      {targets.isError ? (
        <Alert
          type="error"
          showIcon
          title={`The ${label} could not be loaded`}
          action={
            <Button size="small" onClick={() => void targets.refetch()}>
              Retry
            </Button>
          }
        />
      ) : (
        <Table<UpdaterTarget>
          size="small"
          rowKey="id"
          aria-label={`Updater ${label}`}
          columns={(mode === 'machine' ? MACHINE_COLUMNS : ACCOUNT_COLUMNS) as TableProps<UpdaterTarget>['columns']}
          dataSource={targets.data?.items ?? []}
          loading={targets.isFetching}
          rowSelection={rowSelection}
          locale={{ emptyText: `No ${label} match the filters` }}
          pagination={{
            current: page,
            pageSize: TARGETS_PAGE_SIZE,
            total,
            showSizeChanger: false,
            showTotal: (n) => `${n.toLocaleString('en-US')} ${label}`,
            onChange: setPage,
          }}
        />
      )}
    </>
  );
}
