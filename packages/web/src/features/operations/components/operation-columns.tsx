/**
 * Columns of an operation table (spec 2 §2.6): start time, finish time,
 * running time, machine name, class, operation (its description as a tooltip),
 * timeout, failures, status, operation mode (0 NORMAL, 1 STABLE, 2 ANOMALY),
 * then the Output and Deployer Log buttons (rows with a status) and a link to
 * the audit activity that caused the operation (DESIGN §12 one trail). The
 * status of a queued operation says what it waits for (issue 24 point 1); with
 * `cancel` (a user with write permission) a Cancel column ends a queued or
 * pending one. The Operation Logs dialog of a machine leaves out the machine
 * and class columns.
 */
import { useMemo } from 'react';
import { Flex, Tag, Tooltip, Typography, type TableProps } from 'antd';
import { Link } from 'react-router';
import type { TOperation } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { useDecideOperation } from '../../machines/api/operation-mutations';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { formatSeconds, operationModeName, operationStatusText } from '../operation-rules';
import { OperationLogButtons } from './OperationLogDialog';
import { CancelOperationButton, isCancellable, OperationWaitingText } from './OperationWaiting';
import './operations.css';

type Column = NonNullable<TableProps<TOperation>['columns']>[number];

const STATUS_COLORS: Record<string, string> = {
  RUNNING: 'processing',
  SUCCESS: 'success',
  FAILURE: 'error',
  PENDING: 'warning',
  CANCELLING: 'warning',
  QUEUED: 'default',
};

const time = (iso: string | null) => formatDateTime(iso, DATE_TIME_SECONDS_FORMAT);

/** The status tag of an operation: its status, or PENDING, CANCELLING or QUEUED while it has none. */
export function OperationStatusTag({ operation }: { operation: TOperation }) {
  const text = operationStatusText(operation);
  return <Tag color={STATUS_COLORS[text] ?? 'default'}>{text}</Tag>;
}

/** The link to the audit activity that caused the operation, if one did. */
export function ActivityLink({ activityId }: { activityId: number | null }) {
  if (activityId === null) return null;
  return (
    <Link to={`/activity?activityId=${activityId}`} aria-label={`Activity ${activityId}`}>
      Activity
    </Link>
  );
}

/** The Cancel column's means: whom to call, and which operation's cancel is on its way. */
export interface CancelColumn {
  onCancel(operation: TOperation): void;
  cancellingId: number | undefined;
}

export function operationColumns({ showMachine, cancel }: { showMachine: boolean; cancel?: CancelColumn }): Column[] {
  return [
    { key: 'startTime', title: 'Start time', render: (_, o) => time(o.startTime) || <Typography.Text type="secondary">{`Queued ${time(o.timestamp)}`}</Typography.Text> },
    { key: 'finishTime', title: 'Finish time', render: (_, o) => time(o.finishTime) },
    { key: 'runningTime', title: 'Running time', render: (_, o) => formatSeconds(o.runningTime) },
    ...(showMachine
      ? [
          { key: 'machineName', title: 'Machine', dataIndex: 'machineName' } satisfies Column,
          { key: 'machineClassName', title: 'Class', dataIndex: 'machineClassName' } satisfies Column,
        ]
      : []),
    {
      key: 'operation',
      title: 'Operation',
      render: (_, o) => (
        <Tooltip title={o.operationTypeDescription}>
          <Link to={`/operations/${o.id}`} aria-label={`Operation ${o.id}: ${o.typeName}`}>
            {o.typeName}
          </Link>
        </Tooltip>
      ),
    },
    { key: 'timeout', title: 'Timeout', render: (_, o) => formatSeconds(o.timeout) },
    { key: 'failCounter', title: 'Failures', dataIndex: 'failCounter', align: 'right' },
    {
      key: 'status',
      title: 'Status',
      render: (_, o) => (
        <Flex vertical gap={2} align="flex-start">
          <OperationStatusTag operation={o} />
          <OperationWaitingText operation={o} />
        </Flex>
      ),
    },
    { key: 'operationMode', title: 'Operation mode', render: (_, o) => operationModeName(o.operationMode) },
    {
      key: 'logs',
      title: 'Logs',
      render: (_, o) => (
        <Flex gap={8} align="center" wrap={false}>
          <OperationLogButtons operation={o} />
          <ActivityLink activityId={o.activityId} />
        </Flex>
      ),
    },
    ...(cancel
      ? [
          {
            key: 'cancel',
            title: 'Actions',
            render: (_, o) =>
              isCancellable(o) ? <CancelOperationButton operation={o} loading={cancel.cancellingId === o.id} onCancel={cancel.onCancel} /> : null,
          } satisfies Column,
        ]
      : []),
  ];
}

/**
 * The columns of an operation table (`operationColumns`) for the signed-in
 * user: with write permission, the Cancel column, whose confirmed cancel is
 * sent and then shown on the row's button until it is answered.
 */
export function useOperationColumns({ showMachine }: { showMachine: boolean }) {
  const { canWrite } = useAuth();
  const decide = useDecideOperation();
  const cancellingId = decide.isPending ? decide.variables?.operation.id : undefined;
  const { mutate } = decide;
  return useMemo(
    () =>
      operationColumns({
        showMachine,
        cancel: canWrite ? { onCancel: (operation) => mutate({ operation, decision: 'CANCEL' }), cancellingId } : undefined,
      }),
    [showMachine, canWrite, cancellingId, mutate],
  );
}
