/**
 * Restore Backup (spec 2 §2.3, §5, §8): the account's latest backup per
 * software (launcher, site master, audit changelog: name and creation time),
 * each with a tick; at least one is needed. When the account has no backup at
 * all the dialog asks 'This account has no backup. Are you sure you want to
 * continue?': there is nothing to restore, so Continue only closes it (the
 * server refuses a restore without a file). Submits
 * `POST /machines/{id}/restore-backup` ('Restoration of backup(s) has been
 * queued for this machine' / 'Error occurred restoring backup(s) for machine').
 */
import { useState } from 'react';
import { Alert, Checkbox, Flex, Spin, Typography } from 'antd';
import { BACKUP_SOFTWARE, COMPONENT_LABELS, type TBackupSoftware } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { useLatestBackups } from '../../operations/api/queries';
import { hasNoBackup, restoreRequest } from '../../operations/operation-rules';
import { useRestoreBackup } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export const NO_BACKUP_TEXT = 'This account has no backup. Are you sure you want to continue?';

export function RestoreBackupDialog({ machine, onClose }: MachineDialogProps) {
  const backups = useLatestBackups(machine.accountId);
  const restore = useRestoreBackup();
  const [chosen, setChosen] = useState<ReadonlySet<TBackupSoftware>>(new Set());
  const latest = backups.data ?? {};
  const none = backups.isSuccess && hasNoBackup(latest);
  const request = restoreRequest(latest, chosen);

  const toggle = (software: TBackupSoftware, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(software);
      else next.delete(software);
      return next;
    });

  const submit = () => {
    if (none) onClose();
    else if (request) restore.mutate({ machine, body: request }, { onSuccess: onClose });
  };

  return (
    <OperationDialog
      title="Restore Backup"
      machine={machine}
      okText={none ? 'Continue' : 'Submit'}
      disabled={!none && request === undefined}
      loading={restore.isPending}
      onOk={submit}
      onClose={onClose}
    >
      {backups.isLoading && <Spin />}
      {backups.isError && <Alert type="error" showIcon title="The account's backups could not be loaded" />}
      {none && <Alert type="warning" showIcon title={NO_BACKUP_TEXT} />}
      {backups.isSuccess && !none && (
        <Flex vertical gap={8} role="group" aria-label="Backups">
          <Typography.Text type="secondary">The latest backup of each software; choose at least one.</Typography.Text>
          {BACKUP_SOFTWARE.map((software) => {
            const file = latest[software];
            return (
              <Checkbox key={software} disabled={!file} checked={chosen.has(software)} onChange={(e) => toggle(software, e.target.checked)}>
                <Typography.Text strong>{COMPONENT_LABELS[software]}</Typography.Text>
                {': '}
                {file ? (
                  <>
                    {file.name} <Typography.Text type="secondary">({formatDateTime(file.createdAt, DATE_TIME_SECONDS_FORMAT)})</Typography.Text>
                  </>
                ) : (
                  <Typography.Text type="secondary">no backup</Typography.Text>
                )}
              </Checkbox>
            );
          })}
        </Flex>
      )}
    </OperationDialog>
  );
}
