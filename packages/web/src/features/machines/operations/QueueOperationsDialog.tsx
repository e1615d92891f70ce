/**
 * Queue Operations (spec 2 §2.3, §5, §8): tick operation types; only the types
 * that can be manual for the machine's class are listed
 * (`GET /machines/{id}/operation-types`). Submit (at least one ticked) calls
 * `POST /machines/{id}/queue-operations` ('Operation queued for machine' /
 * the server's message, else 'Error occurred queueing operation for machine').
 */
import { useState } from 'react';
import { Alert, Checkbox, Flex, Spin, Typography } from 'antd';
import type { TOperationTypeName } from '@fleet/contracts';
import { useManualOperationTypes } from '../../operations/api/queries';
import { useQueueOperations } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export function QueueOperationsDialog({ machine, onClose }: MachineDialogProps) {
  const types = useManualOperationTypes(machine.id);
  const queue = useQueueOperations();
  const [chosen, setChosen] = useState<TOperationTypeName[]>([]);
  const submit = () => queue.mutate({ machine, body: { operations: chosen } }, { onSuccess: onClose });

  return (
    <OperationDialog title="Queue Operations" machine={machine} disabled={chosen.length === 0} loading={queue.isPending} onOk={submit} onClose={onClose}>
      {types.isLoading && <Spin />}
      {types.isError && <Alert type="error" showIcon title="The operation types could not be loaded" />}
      {types.data?.length === 0 && <Typography.Text type="secondary">No operation can be queued by hand for this machine&apos;s class.</Typography.Text>}
      <Checkbox.Group value={chosen} onChange={(v) => setChosen(v)} aria-label="Operations">
        <Flex vertical gap={8}>
          {(types.data ?? []).map((t) => (
            <Checkbox key={t.name} value={t.name}>
              <Typography.Text strong>{t.name}</Typography.Text>
              <br />
              <Typography.Text type="secondary">{t.description}</Typography.Text>
            </Checkbox>
          ))}
        </Flex>
      </Checkbox.Group>
    </OperationDialog>
  );
}
