/**
 * The status column of the machine table (spec 2 §2.2), in order of precedence
 * (`machineStatus`): Panic with a Reset failure action (write permission); else
 * the running task's description with its progress; else the latest operation
 * pending (with Proceed and Cancel, write permission), being cancelled, or
 * running; else the operation mode text. Beside it, a badge counts the
 * operations queued behind that status; it opens what each waits for (the
 * server's start rules, issue 24 point 1) with Cancel (write permission).
 */
import { Button, Flex, List, Popover, Tag, Typography } from 'antd';
import { ClockCircleOutlined, LoadingOutlined } from '@ant-design/icons';
import type { TMachine, TOperation, TOperationDecision } from '@fleet/contracts';
import { CancelOperationButton, OperationWaitingText } from '../../operations/components/OperationWaiting';
import { machineStatus, queuedOperations } from '../machine-status';
import { LazyTooltip } from '../../../components/LazyTooltip';

interface Props {
  machine: TMachine;
  canWrite: boolean;
  resetting: boolean;
  decidingId: number | undefined;
  onResetFailure(machine: TMachine): void;
  onDecide(operation: TOperation, decision: TOperationDecision): void;
}

export function MachineStatusCell(props: Props) {
  const queued = queuedOperations(props.machine);
  if (queued.length === 0) return <StatusText {...props} />;
  return (
    <Flex gap={6} align="center" wrap={false}>
      <StatusText {...props} />
      <QueuedBadge {...props} queued={queued} />
    </Flex>
  );
}

/**
 * The count of queued operations; opens each one's type, id and what it
 * waits for, with Cancel for a user with write permission.
 */
function QueuedBadge({ machine, queued, canWrite, decidingId, onDecide }: Props & { queued: TOperation[] }) {
  const list = (
    <List<TOperation>
      size="small"
      style={{ maxWidth: 420 }}
      dataSource={queued}
      renderItem={(op) => (
        <List.Item
          actions={canWrite ? [<CancelOperationButton key="cancel" operation={op} loading={decidingId === op.id} onCancel={(o) => onDecide(o, 'CANCEL')} />] : []}
        >
          <List.Item.Meta title={`${op.typeName} (${op.id})`} description={<OperationWaitingText operation={op} />} />
        </List.Item>
      )}
    />
  );
  return (
    <Popover title={`Queued operations of ${machine.name}`} content={list} trigger="click">
      <Button size="small" type="text" icon={<ClockCircleOutlined />} aria-label={`${queued.length} queued operation${queued.length === 1 ? '' : 's'} of ${machine.name}`}>
        {queued.length}
      </Button>
    </Popover>
  );
}

function StatusText({ machine, canWrite, resetting, decidingId, onResetFailure, onDecide }: Props) {
  const status = machineStatus(machine);
  if (status.kind === 'panic') {
    return (
      <Flex gap={4} align="center" wrap={false}>
        <Tag color="error">{status.text}</Tag>
        {canWrite && (
          <Button
            size="small"
            type="link"
            danger
            loading={resetting}
            aria-label={`Reset failure for ${machine.name}`}
            onClick={() => onResetFailure(machine)}
          >
            Reset failure
          </Button>
        )}
      </Flex>
    );
  }
  if (status.kind === 'task') {
    return (
      <Flex gap={6} align="center" wrap={false}>
        <LoadingOutlined aria-hidden />
        <span>{status.text}</span>
        <Typography.Text type="secondary">{status.task.progress}%</Typography.Text>
      </Flex>
    );
  }
  if (status.kind === 'operation') {
    const op = status.operation;
    // Mounted at the first hover or focus: a machine table drew a popup trigger per row with an operation (issue 26).
    const label = (
      <LazyTooltip title={op.operationTypeDescription}>
        <span>{status.text}</span>
      </LazyTooltip>
    );
    if (status.state === 'pending') {
      const deciding = decidingId === op.id;
      return (
        <Flex gap={4} align="center" wrap={false}>
          <Tag color="warning">{label}</Tag>
          {canWrite && (
            <>
              <Button size="small" type="link" disabled={deciding} aria-label={`Proceed ${op.typeName} on ${machine.name}`} onClick={() => onDecide(op, 'PROCEED')}>
                Proceed
              </Button>
              <Button size="small" type="link" danger disabled={deciding} aria-label={`Cancel ${op.typeName} on ${machine.name}`} onClick={() => onDecide(op, 'CANCEL')}>
                Cancel
              </Button>
            </>
          )}
        </Flex>
      );
    }
    return (
      <Flex gap={6} align="center" wrap={false}>
        <LoadingOutlined aria-hidden />
        {status.state === 'cancelling' ? <Typography.Text type="warning">{label}</Typography.Text> : label}
      </Flex>
    );
  }
  return <Typography.Text type={status.text === 'Anomaly' ? 'warning' : undefined}>{status.text}</Typography.Text>;
}
