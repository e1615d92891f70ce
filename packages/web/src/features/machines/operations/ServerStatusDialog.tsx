/**
 * Server Status (spec 2 §2.3, §3, §8): the machine's site server status
 * (`GET /machines/{id}/site-server-status`): status, operational, diskSpaceOk,
 * interServerCommOk, libraryImportOk, mongoOk, rabbitMqOk as Yes / No. A
 * failure shows 'Error occurred getting site server status' and an alert.
 */
import { Alert, Descriptions, Spin, Tag } from 'antd';
import type { TSiteServerStatus } from '@fleet/contracts';
import { SITE_SERVER_STATUS_ERROR, useSiteServerStatus } from '../../operations/api/queries';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

const FLAGS: { key: Exclude<keyof TSiteServerStatus, 'status'>; label: string }[] = [
  { key: 'operational', label: 'Operational' },
  { key: 'diskSpaceOk', label: 'Disk space' },
  { key: 'interServerCommOk', label: 'Inter-server communication' },
  { key: 'libraryImportOk', label: 'Library import' },
  { key: 'mongoOk', label: 'Mongo' },
  { key: 'rabbitMqOk', label: 'RabbitMQ' },
];

const yesNo = (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? 'Yes' : 'No'}</Tag>;

export function ServerStatusDialog({ machine, onClose }: MachineDialogProps) {
  const status = useSiteServerStatus(machine.id);
  return (
    <OperationDialog title="Server Status" machine={machine} readOnly onClose={onClose}>
      {status.isLoading && <Spin />}
      {status.isError && <Alert type="error" showIcon title={SITE_SERVER_STATUS_ERROR} />}
      {status.data && (
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            { key: 'status', label: 'Status', children: status.data.status },
            ...FLAGS.map((f) => ({ key: f.key, label: f.label, children: yesNo(status.data[f.key]) })),
          ]}
        />
      )}
    </OperationDialog>
  );
}
