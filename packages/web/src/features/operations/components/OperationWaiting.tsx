/**
 * What a queued operation waits for (issue 24 point 1; the server's `waiting`,
 * computed with the agent's own start rules): the sentence under its status in
 * the operation tables, and the Cancel of an operation that has not finished
 * (write permission; `PATCH /machines/{id}/operations/{operationId}` CANCEL,
 * audited by the server; a running one is stopped at its agent's next
 * heartbeat, issue 27), asked for once more because it cannot be undone.
 */
import { Button, Popconfirm, Typography } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import type { TOperation } from '@fleet/contracts';
import { isOperationFinished } from '../../machines/machine-status';

/** Not finished and not already being cancelled (queued, pending or running): an operator may still cancel it. */
export const isCancellable = (op: TOperation) => !isOperationFinished(op) && op.decision !== 'CANCEL';

/** The operation's waiting reason as a secondary line, or nothing once it has started. */
export function OperationWaitingText({ operation }: { operation: Pick<TOperation, 'waiting'> }) {
  if (!operation.waiting) return null;
  return (
    <Typography.Text type="secondary" className="operation-waiting" data-reason={operation.waiting.reason}>
      <ClockCircleOutlined aria-hidden /> {operation.waiting.message}
    </Typography.Text>
  );
}

interface CancelProps {
  operation: TOperation;
  loading: boolean;
  onCancel(operation: TOperation): void;
}

/** Cancel of a queued, pending or running operation, after a confirmation naming it and saying what happens. */
export function CancelOperationButton({ operation, loading, onCancel }: CancelProps) {
  const running = operation.status === 'RUNNING';
  return (
    <Popconfirm
      title={`Cancel ${operation.typeName} on ${operation.machineName}?`}
      description={
        running
          ? "Its agent stops it within 5 seconds, leaving the machine as far as it got, and ends it as FAILURE 'Cancelled by' you."
          : "It will not run. The agent ends it as FAILURE 'Cancelled by' you."
      }
      okText="Cancel operation"
      okButtonProps={{ danger: true }}
      cancelText="Keep it"
      onConfirm={() => onCancel(operation)}
    >
      <Button size="small" danger loading={loading} aria-label={`Cancel operation ${operation.id}`}>
        Cancel
      </Button>
    </Popconfirm>
  );
}
