/**
 * The approvals inbox (`/approvals`, issue 24 point 2): every operation
 * waiting for approval that the user may decide (write permission; Customer
 * Production ones only with the group, as the server lists them), newest
 * first, 50 a page (`GET /operations?pending=true`): machine, account, class,
 * operation, why it needs approval, who or what queued it and when, and the
 * activity that caused it. Proceed or Cancel one by one, or for the selected
 * rows at once (`POST /operations/decisions`, each audited by the server),
 * after a confirmation naming how many. The push channel keeps it current.
 * The page is in the URL (`page`).
 */
import { useState } from 'react';
import { Alert, Button, Card, Flex, Popconfirm, Table, Typography, type TableProps } from 'antd';
import { CheckOutlined, CloseOutlined, ReloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useSearchParams } from '../../lib/use-search-params';
import type { TOperation, TOperationDecision } from '@fleet/contracts';
import { errorText } from '../../app/api-client';
import { InertInMeasureRow } from '../../components/InertInMeasureRow';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { useTaskHub } from '../machines/api/task-hub';
import { useOperationsPage } from '../operations/api/queries';
import { ActivityLink, OperationLink } from '../operations/components/operation-columns';
import { useDecideOperations } from './api';

/** Rows per page of the inbox. */
export const APPROVALS_PAGE_SIZE = 50;

/** Still waiting for a decision (a row the push channel changed stays listed until the page is read again). */
const isUndecided = (op: TOperation) => op.pending && op.status === null && op.decision === null;

type Column = NonNullable<TableProps<TOperation>['columns']>[number];

function columns(decide: (decision: TOperationDecision, ids: number[]) => void, busy: boolean): Column[] {
  return [
    { key: 'machine', title: 'Machine', render: (_, o) => <Link to={`/viewer/machines?machine=${o.machineId}`}>{o.machineName}</Link> },
    { key: 'account', title: 'Account', render: (_, o) => <Link to={`/account/edit/${o.accountId}`}>{o.accountName}</Link> },
    { key: 'class', title: 'Class', dataIndex: 'machineClassName' },
    {
      key: 'operation',
      title: 'Operation',
      render: (_, o) => <OperationLink operation={o} />,
    },
    {
      key: 'why',
      title: 'Why it needs approval',
      render: (_, o) => <span className="operation-waiting">{isUndecided(o) ? o.waiting?.message : `Decided: ${o.decision ?? 'started'}`}</span>,
    },
    {
      key: 'queued',
      title: 'Queued',
      render: (_, o) => (
        <Flex vertical>
          <span>{formatDateTime(o.timestamp, DATE_TIME_SECONDS_FORMAT)}</span>
          <Typography.Text type="secondary">
            by {o.user} <ActivityLink activityId={o.activityId} />
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'decide',
      title: 'Decision',
      // Always in view, however wide the other columns are.
      fixed: 'right',
      render: (_, o) =>
        isUndecided(o) ? (
          <Flex gap={4} wrap={false}>
            <Button size="small" type="primary" disabled={busy} aria-label={`Proceed operation ${o.id}`} onClick={() => decide('PROCEED', [o.id])}>
              Proceed
            </Button>
            <Popconfirm title={`Cancel ${o.typeName} on ${o.machineName}?`} okText="Cancel operation" okButtonProps={{ danger: true }} cancelText="Keep it" onConfirm={() => decide('CANCEL', [o.id])}>
              <Button size="small" danger disabled={busy} aria-label={`Cancel operation ${o.id}`}>
                Cancel
              </Button>
            </Popconfirm>
          </Flex>
        ) : null,
    },
  ];
}

export default function ApprovalsPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  useTaskHub();
  const list = useOperationsPage({ pending: true, startIndex: (page - 1) * APPROVALS_PAGE_SIZE, limit: APPROVALS_PAGE_SIZE });
  const decideMany = useDecideOperations();
  const [selected, setSelected] = useState<number[]>([]);
  const rows = list.isError ? [] : (list.data?.items ?? []);
  const chosen = selected.filter((id) => rows.some((o) => o.id === id && isUndecided(o)));

  const decide = (decision: TOperationDecision, operationIds: number[]) =>
    decideMany.mutate({ decision, operationIds }, { onSuccess: () => setSelected((s) => s.filter((id) => !operationIds.includes(id))) });

  return (
    <Card title="Approvals">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          Operations waiting for approval: UpdateSoftware and RestoreBackup on a production class, and any operation of a machine in ANOMALY mode. Each decision is
          recorded in the activity log with your name.
        </Typography.Text>
        <Flex gap={8} wrap align="center">
          <Popconfirm
            title={`Proceed ${chosen.length} operation${chosen.length === 1 ? '' : 's'}?`}
            description="They run as soon as their machines allow."
            okText="Proceed"
            onConfirm={() => decide('PROCEED', chosen)}
            disabled={chosen.length === 0}
          >
            <Button type="primary" icon={<CheckOutlined />} disabled={chosen.length === 0} loading={decideMany.isPending}>
              Proceed selected ({chosen.length})
            </Button>
          </Popconfirm>
          <Popconfirm
            title={`Cancel ${chosen.length} operation${chosen.length === 1 ? '' : 's'}?`}
            description="They will not run."
            okText="Cancel operations"
            okButtonProps={{ danger: true }}
            cancelText="Keep them"
            onConfirm={() => decide('CANCEL', chosen)}
            disabled={chosen.length === 0}
          >
            <Button danger icon={<CloseOutlined />} disabled={chosen.length === 0} loading={decideMany.isPending}>
              Cancel selected ({chosen.length})
            </Button>
          </Popconfirm>
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching}>
            Refresh
          </Button>
        </Flex>
        {list.isError && <Alert type="error" showIcon title={errorText(list.error, 'The pending operations could not be loaded')} />}
        <Table<TOperation>
          rowKey="id"
          size="small"
          columns={columns(decide, decideMany.isPending)}
          dataSource={rows}
          loading={list.isLoading}
          scroll={{ x: 'max-content' }}
          rowSelection={{
            columnTitle: (checkbox) => <InertInMeasureRow>{checkbox}</InertInMeasureRow>,
            selectedRowKeys: chosen,
            onChange: (keys) => setSelected(keys.map(Number)),
            getCheckboxProps: (o) => ({ disabled: !isUndecided(o), 'aria-label': `Select operation ${o.id}` }),
          }}
          locale={{ emptyText: list.isLoading ? ' ' : <Typography.Text>No operation waits for approval</Typography.Text> }}
          pagination={{
            current: page,
            pageSize: APPROVALS_PAGE_SIZE,
            total: list.isError ? 0 : (list.data?.totalItems ?? 0),
            showSizeChanger: false,
            showTotal: (n, [from, to]) => `${from}-${to} of ${list.data?.totalCapped ? 'at least ' : ''}${n} pending operations`,
            onChange: (next) => setParams((p) => (p.set('page', String(next)), p)),
          }}
        />
      </Flex>
    </Card>
  );
}
