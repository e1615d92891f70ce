/**
 * Manual Backup (force backup; spec 2 §2.3, §8, §9): a start delay of Now (0),
 * 3, 10 or 30 minutes, then `POST /machines/{id}/force-backup` `{timeToBackup}`
 * ('Backup has been forced for this machine' / 'Error occurred forcing backup
 * for machine').
 */
import { useState } from 'react';
import { Form, Radio } from 'antd';
import { FORCE_BACKUP_DELAYS } from '@fleet/contracts';
import { useForceBackup } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

/** The label of a delay, minutes: Now for 0. */
export const backupDelayLabel = (minutes: number) => (minutes === 0 ? 'Now' : `${minutes} minutes`);

export function ForceBackupDialog({ machine, onClose }: MachineDialogProps) {
  const backup = useForceBackup();
  const [delay, setDelay] = useState<number>(0);
  const submit = () => backup.mutate({ machine, body: { timeToBackup: delay } }, { onSuccess: onClose });

  return (
    <OperationDialog title="Manual Backup" machine={machine} loading={backup.isPending} onOk={submit} onClose={onClose}>
      <Form layout="vertical">
        <Form.Item label="Start" style={{ marginBottom: 0 }}>
          <Radio.Group
            aria-label="Start"
            value={delay}
            onChange={(e) => setDelay(Number(e.target.value))}
            options={FORCE_BACKUP_DELAYS.map((minutes) => ({ value: minutes, label: backupDelayLabel(minutes) }))}
          />
        </Form.Item>
      </Form>
    </OperationDialog>
  );
}
