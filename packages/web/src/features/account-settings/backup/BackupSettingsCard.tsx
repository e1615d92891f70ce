/**
 * Backup Settings card of Edit account (spec 1 §2 Backup Settings card, §5,
 * §6, §7 `PUT /accounts/{id}/backup-settings`, §8; DESIGN §5 section versions).
 *
 * Shows the account's `backupConfig` in {@link BackupFields} (the page's
 * `forms.backup`, values `TBackupConfig`) and pushes it with the section version
 * it was loaded with: 'Backup settings pushed' (2 s) and the account reloads;
 * a 400 lists every errorMessage with its attemptedValue for 10 s under 'Error
 * occurred pushing backup settings'; a 409 shows {@link SectionConflict} with
 * Reload. The fields take the account's values when it loads and whenever the
 * section's version changes (after a push or a Reload), not on other reloads,
 * so edits survive a push of another card.
 *
 * Without write permission the card is read-only and has no buttons. Add-on
 * accounts (class 200) have no backup settings: the page does not show the
 * card for them.
 */
import { Button, type FormInstance } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import type { TAccountDetail, TBackupConfig, TBackupSettings, TPushBackupSettingsRequest } from '@fleet/contracts';
import { SectionCard } from '../shared/SectionCard';
import { SectionConflict } from '../shared/SectionConflict';
import { usePushSection } from '../shared/use-push-section';
import { useSectionValues } from '../shared/use-section-values';
import { BackupFields } from './BackupFields';
import { defaultBackupConfig } from './backup-config';

export interface BackupSettingsCardProps {
  account: TAccountDetail;
  form: FormInstance;
  canWrite: boolean;
}

export function BackupSettingsCard({ account, form, canWrite }: BackupSettingsCardProps) {
  const push = usePushSection<TPushBackupSettingsRequest, TBackupSettings>({
    accountId: account.id,
    path: 'backup-settings',
    successText: 'Backup settings pushed',
    errorText: 'Error occurred pushing backup settings',
    errorSeconds: 10,
    listErrors: 'attempted',
  });
  const { backupConfig } = account;
  const version = account.versions.backup;

  // A new section version (after a push or a Reload) replaces what the user typed;
  // the form is not reset first (touched state and field errors stay).
  useSectionValues(form, backupConfig ?? defaultBackupConfig(), version, { reset: false });

  const onPush = () =>
    form.validateFields({ recursive: true }).then(
      () => push.mutate({ ...(form.getFieldsValue(true) as TBackupConfig), version }),
      // The fields show what is wrong.
      () => undefined,
    );

  return (
    <SectionCard
      title="Backup Settings"
      footer={
        canWrite && (
          <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} loading={push.isPending} onClick={() => void onPush()}>
            Push Backup Settings
          </Button>
        )
      }
    >
      <SectionConflict detail={push.conflict} onReload={() => void push.reload()} />
      <BackupFields form={form} mode="edit" initialValues={backupConfig ?? undefined} disabled={!canWrite} />
    </SectionCard>
  );
}
