/**
 * Operation Logs (spec 2 §2.3): the machine's operations, newest first
 * (`GET /machines/{id}/operations`), 20 at a time with Load more; each row with
 * its status (a queued one with what it waits for, and Cancel with write
 * permission), times, Output and Deployer Log, and its activity. The push
 * channel keeps the rows current.
 */
import { Alert, Button, Flex, Table, Typography } from 'antd';
import type { TOperation } from '@fleet/contracts';
import { errorText } from '../../../app/api-client';
import { useMachineOperationLogs } from '../../operations/api/queries';
import { useOperationColumns } from '../../operations/components/operation-columns';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export function OperationLogsDialog({ machine, onClose }: MachineDialogProps) {
  const logs = useMachineOperationLogs(machine.id);
  const items = logs.data?.pages.flatMap((p) => p.items) ?? [];
  const total = logs.data?.pages.at(-1)?.totalItems ?? 0;
  const columns = useOperationColumns({ showMachine: false });

  return (
    <OperationDialog title="Operation Logs" machine={machine} readOnly width={1200} onClose={onClose}>
      {logs.isError && <Alert type="error" showIcon title={errorText(logs.error, 'The operations could not be loaded')} style={{ marginBottom: 12 }} />}
      <Table<TOperation>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={items}
        loading={logs.isLoading}
        pagination={false}
        scroll={{ x: 'max-content', y: '50vh' }}
        // Text, not antd's faint placeholder grey (1.8:1 on white, axe color-contrast).
        locale={{ emptyText: <Typography.Text>No operations</Typography.Text> }}
      />
      <Flex justify="space-between" align="center" style={{ marginTop: 12 }}>
        <span>{logs.isSuccess ? `${items.length} of ${total} operations` : ''}</span>
        {logs.hasNextPage && (
          <Button loading={logs.isFetchingNextPage} onClick={() => void logs.fetchNextPage()}>
            Load more
          </Button>
        )}
      </Flex>
    </OperationDialog>
  );
}
