/**
 * Columns of an operation table (spec 2 §2.6): start time (or the queue time
 * while not started), finish time with the running time under it (issue 24
 * point 7: the spec's three time columns in two, so that the table fits at
 * 1440 pixels), machine name, class, operation (its description as a tooltip),
 * timeout, failures, status, operation mode (0 NORMAL, 1 STABLE, 2 ANOMALY),
 * then the Output and Deployer Log buttons (rows with a status) and a link to
 * the audit activity that caused the operation (DESIGN §12 one trail). Long
 * names end in an ellipsis with the whole name as a tooltip. The status of a
 * queued operation says what it waits for (issue 24 point 1); with `cancel` (a
 * user with write permission) a Cancel column ends a queued or pending one.
 * With `sort` (the viewer) the Started and Finished columns sort on the server
 * (controlled: the URL holds the order). The Operation Logs dialog of a
 * machine leaves out the machine and class columns.
 */
import { useMemo } from 'react';
import { Flex, Tag, Typography, type TableProps } from 'antd';
import { Link } from 'react-router';
import type { TOperation, TOperationSort, TSortOrder } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { useDecideOperation } from '../../machines/api/operation-mutations';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { columnSortOrder } from '../../viewer/use-viewer-params';
import { formatSeconds, operationModeName, operationStatusText } from '../operation-rules';
import { LazyTooltip } from '../../../components/LazyTooltip';
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
/**
 * The table's short time with its zone (`MM-DD HH:mm UTC+1`, narrow enough for
 * the table to fit at 1440 px with any zone); the whole one, with seconds, is
 * its tooltip.
 */
const SHORT_TIME_FORMAT = 'MM-DD HH:mm';

/** A time in the table: short, the full date and time (and `what`) as a tooltip. */
function ShortTime({ iso, what }: { iso: string; what: string }) {
  return (
    <LazyTooltip title={`${what} ${time(iso)}`}>
      <span className="operation-time">{formatDateTime(iso, SHORT_TIME_FORMAT)}</span>
    </LazyTooltip>
  );
}

/**
 * Text cut with an ellipsis at 130 px (CSS), the whole of it as a tooltip. Not antd's measured ellipsis:
 * it measured every cell as the rows mounted (issue 26: the viewer's 20 rows blocked the main thread 235 ms).
 */
function Clipped({ text, secondary = false }: { text: string; secondary?: boolean }) {
  return (
    <LazyTooltip title={text}>
      <Typography.Text type={secondary ? 'secondary' : undefined} className={`operation-clipped${secondary ? ' operation-secondary' : ''}`}>
        {text}
      </Typography.Text>
    </LazyTooltip>
  );
}

/** The status tag of an operation: its status, or PENDING, CANCELLING or QUEUED while it has none. */
export function OperationStatusTag({ operation }: { operation: TOperation }) {
  const text = operationStatusText(operation);
  return <Tag color={STATUS_COLORS[text] ?? 'default'}>{text}</Tag>;
}

/** The operation's type, linked to its own page, with its description as a tooltip. */
export function OperationLink({ operation: o }: { operation: TOperation }) {
  return (
    <LazyTooltip title={o.operationTypeDescription}>
      <Link to={`/operations/${o.id}`} aria-label={`Operation ${o.id}: ${o.typeName}`}>
        {o.typeName}
      </Link>
    </LazyTooltip>
  );
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

/** The viewer's order, for the sortable columns (server-side; the URL holds it). */
export type OperationSortState = { sort: TOperationSort; order: TSortOrder } | undefined;

export function operationColumns({ showMachine, cancel, sort }: { showMachine: boolean; cancel?: CancelColumn; sort?: { current: OperationSortState } }): Column[] {
  const sortable = (key: TOperationSort): Partial<Column> =>
    sort ? { sorter: true, sortOrder: columnSortOrder(sort.current, key), sortDirections: ['descend', 'ascend'] } : {};
  return [
    {
      key: 'started',
      title: 'Started',
      ...sortable('started'),
      render: (_, o) => (
        <Flex vertical>
          {o.startTime ? <ShortTime iso={o.startTime} what="Started" /> : <ShortTime iso={o.timestamp} what="Queued" />}
          {!o.startTime && (
            <Typography.Text type="secondary" className="operation-secondary">
              queued
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'finished',
      title: 'Finished',
      ...sortable('finished'),
      render: (_, o) => (
        <Flex vertical>
          {o.finishTime ? <ShortTime iso={o.finishTime} what="Finished" /> : null}
          {o.runningTime !== null && (
            <Typography.Text type="secondary" className="operation-secondary" aria-label="Running time">
              {`${o.finishTime ? 'ran' : 'running'} ${formatSeconds(o.runningTime)}`}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    ...(showMachine
      ? [
          {
            key: 'machineName',
            title: 'Machine',
            render: (_, o) => (
              <Flex vertical>
                <Clipped text={o.machineName} />
                <Clipped text={o.machineClassName} secondary />
              </Flex>
            ),
          } satisfies Column,
        ]
      : []),
    {
      key: 'operation',
      title: 'Operation',
      render: (_, o) => <OperationLink operation={o} />,
    },
    { key: 'timeout', title: 'Timeout', render: (_, o) => formatSeconds(o.timeout) },
    { key: 'failCounter', title: 'Fails', dataIndex: 'failCounter', align: 'right' },
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
    { key: 'operationMode', title: 'Mode', render: (_, o) => operationModeName(o.operationMode) },
    {
      key: 'logs',
      title: 'Logs',
      render: (_, o) => (
        <Flex vertical gap={4} align="flex-start">
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
export function useOperationColumns({ showMachine, sort }: { showMachine: boolean; sort?: { current: OperationSortState } }) {
  const { canWrite } = useAuth();
  const decide = useDecideOperation();
  const cancellingId = decide.isPending ? decide.variables?.operation.id : undefined;
  const { mutate } = decide;
  return useMemo(
    () =>
      operationColumns({
        showMachine,
        sort,
        cancel: canWrite ? { onCancel: (operation) => mutate({ operation, decision: 'CANCEL' }), cancellingId } : undefined,
      }),
    [showMachine, sort, canWrite, cancellingId, mutate],
  );
}
