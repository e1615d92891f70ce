/**
 * The status column of the machine table (spec 2 §2.2), in order of precedence:
 * Panic with a Reset failure action (write permission), else the running task's
 * description with its progress, else the operation mode text.
 */
import { Button, Flex, Tag, Typography } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import type { TMachine } from '@fleet/contracts';
import { machineStatus } from '../machine-status';

interface Props {
  machine: TMachine;
  canWrite: boolean;
  resetting: boolean;
  onResetFailure(machine: TMachine): void;
}

export function MachineStatusCell({ machine, canWrite, resetting, onResetFailure }: Props) {
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
  return <Typography.Text type={status.text === 'Anomaly' ? 'warning' : undefined}>{status.text}</Typography.Text>;
}
