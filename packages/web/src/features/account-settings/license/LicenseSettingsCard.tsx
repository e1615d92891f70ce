/**
 * License Settings card of Edit account (spec 1 §2 License Settings card, §4,
 * §5, §6, §7 `PUT /accounts/{id}/license-settings`, `GET /accounts/{id}/files/license`,
 * `GET /accounts/{id}/launcher-logins`, §8; DESIGN §5 section versions).
 *
 * Shows the account's `licenseConfig` in {@link LicenseFields} (the page's
 * `forms.license`, values `TLicenseConfigInput`), a template picker in the
 * header when given (`templatePicker`), and the buttons:
 *
 * - Push License Settings (write permission): validates on the client, then asks
 *   the confirmations of spec 1 §5 in turn (t2.medium as cloud instance type;
 *   an account with a parent), each Yes / No, No aborts; then pushes with the
 *   section version it was loaded with. 'License settings pushed' (2 s) and the
 *   account reloads; on a 400 'Error occurred pushing license settings' and each
 *   server error under its field; a 409 shows {@link SectionConflict} with Reload.
 * - Download License: the signed license file saved as '{urlFriendlyName}
 *   license.dat'; 'Error occurred downloading license' on failure. Reading it
 *   needs no write permission.
 * - Show Logins (write permission, as the server asks for it): the Launcher
 *   Logins dialog of the accounts list.
 *
 * The fields take the server's values when the account loads and whenever the
 * section's version changes (a push, a Reload), not on other reloads.
 */
import { useState, type ReactNode } from 'react';
import { Button, Form, Modal, type FormInstance } from 'antd';
import { CloudUploadOutlined, DownloadOutlined, TeamOutlined } from '@ant-design/icons';
import { CLASS_ADD_ON, type TAccountDetail, type TLicenseSettings, type TPushLicenseSettingsRequest } from '@fleet/contracts';
import { LauncherLoginsModal } from '../../accounts/components/LauncherLoginsModal';
import { SectionCard } from '../shared/SectionCard';
import { SectionConflict } from '../shared/SectionConflict';
import { showFieldErrors } from '../shared/field-errors';
import { usePushSection } from '../shared/use-push-section';
import { useSectionValues } from '../shared/use-section-values';
import { LicenseFields } from './LicenseFields';
import { useDownloadLicense } from './api/mutations';
import { pushConfirmations, type LicenseValues } from './license-rules';

export interface LicenseSettingsCardProps {
  account: TAccountDetail;
  form: FormInstance;
  canWrite: boolean;
  /** The license template picker, shown in the card's header (the templates feature's). */
  templatePicker?: ReactNode;
}

type ConfirmModal = ReturnType<typeof Modal.useModal>[0];

/** One Yes / No question; resolves true on Yes. */
function ask(modal: ConfirmModal, content: string): Promise<boolean> {
  return new Promise((resolve) => {
    void modal.confirm({
      title: 'Push License Settings',
      content,
      okText: 'Yes',
      cancelText: 'No',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

export function LicenseSettingsCard({ account, form, canWrite, templatePicker }: LicenseSettingsCardProps) {
  const push = usePushSection<TPushLicenseSettingsRequest, TLicenseSettings>({
    accountId: account.id,
    path: 'license-settings',
    successText: 'License settings pushed',
    errorText: 'Error occurred pushing license settings',
  });
  const download = useDownloadLicense(account);
  const [modal, modalHolder] = Modal.useModal();
  const [loginsOpen, setLoginsOpen] = useState(false);
  const version = account.versions.license;
  useSectionValues(form, account.licenseConfig, version);

  const onPush = async () => {
    try {
      await form.validateFields({ recursive: true });
    } catch {
      return; // The fields show what is wrong.
    }
    const values = form.getFieldsValue(true) as LicenseValues;
    for (const question of pushConfirmations(values, account)) {
      if (!(await ask(modal, question))) return;
    }
    push.mutate({ ...values, version }, { onError: (error) => void showFieldErrors(form, error) });
  };

  return (
    <SectionCard
      title="License Settings"
      extra={templatePicker}
      footer={
        <>
          {canWrite && (
            <Button icon={<TeamOutlined aria-hidden />} onClick={() => setLoginsOpen(true)}>
              Show Logins
            </Button>
          )}
          <Button icon={<DownloadOutlined aria-hidden />} loading={download.isPending} onClick={() => download.mutate()}>
            Download License
          </Button>
          {canWrite && (
            <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} loading={push.isPending} onClick={() => void onPush()}>
              Push License Settings
            </Button>
          )}
        </>
      }
    >
      <SectionConflict detail={push.conflict} onReload={() => void push.reload()} />
      <Form form={form} name="license-settings" layout="vertical" disabled={!canWrite}>
        <LicenseFields mode="edit" addOn={account.classId === CLASS_ADD_ON} disabled={!canWrite} />
      </Form>
      <LauncherLoginsModal account={loginsOpen ? { id: account.id, name: account.name } : undefined} onClose={() => setLoginsOpen(false)} />
      {modalHolder}
    </SectionCard>
  );
}
