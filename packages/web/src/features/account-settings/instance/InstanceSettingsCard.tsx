/**
 * The Instance Settings card of the Edit account screen (spec 1 §2 Instance
 * Settings card, §5 push confirmation, §6 write, §7, §8): the account's
 * machineConfig in the page's instance form (`forms.instance`, values of
 * `TMachineConfigInput` shape), `InstanceFields` in mode 'edit', and a footer
 * with Push Instance Settings, Download Keys and Download CAA Key (write
 * permission only; the page shows this card for non-add-on accounts only).
 *
 * Push: the fields are validated, then `POST /software-update/validate` with
 * `{accountId, ...values}`; when it returns issues they are listed (each
 * description) in a confirmation the user must accept; then
 * `PUT /accounts/{id}/instance-settings` with the section version the form was
 * loaded from. Success: 'Instance settings pushed' and the form takes the
 * server's values. A 400 (from either call): 'Failed to push instance settings'
 * listing every server error for 20 s. A 409: the conflict notice with Reload.
 *
 * Loading: the form takes the account's config on first render, the pushed
 * section as the server answers it after a push, the reloaded account's after
 * Reload, and a newer section version when the account reloads while the user
 * has not edited the form (so that a reload never wipes edits).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Flex, Form, Modal, Typography, type FormInstance } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import type { TAccountDetail, TMachineConfigInput, TSoftwareUpdateIssue } from '@fleet/contracts';
import { useToast } from '../../../app/toast';
import { DownloadKeysButtons } from '../../account-keys/DownloadKeysButtons';
import { SectionCard } from '../shared/SectionCard';
import { SectionConflict } from '../shared/SectionConflict';
import { reportPushError } from '../shared/use-push-section';
import { loadSection } from '../shared/use-section-values';
import { InstanceFields } from './InstanceFields';
import { PUSH_INSTANCE_ERROR, usePushInstanceSettings, useValidateSoftwareUpdate } from './api/mutations';

export interface InstanceSettingsCardProps {
  account: TAccountDetail;
  form: FormInstance;
  canWrite: boolean;
  /** The instance-settings template picker, shown in the card header (templates feature). */
  templatePicker?: ReactNode;
}

/** Title of the confirmation listing the validation issues (spec 1 §5). */
const PUSH_ISSUES_TITLE = 'Push instance settings?';

function IssueList({ issues }: { issues: TSoftwareUpdateIssue[] }) {
  return (
    <Flex vertical gap={4}>
      <Typography.Text>The server found {issues.length === 1 ? 'this issue' : `these ${issues.length} issues`}. Push anyway?</Typography.Text>
      <ul aria-label="Issues" style={{ margin: 0, paddingInlineStart: 20 }}>
        {issues.map((issue, i) => (
          <li key={i}>{issue.description}</li>
        ))}
      </ul>
    </Flex>
  );
}

export function InstanceSettingsCard({ account, form, canWrite, templatePicker }: InstanceSettingsCardProps) {
  const push = usePushInstanceSettings(account.id);
  const validate = useValidateSoftwareUpdate();
  const toast = useToast();
  const [modal, modalHolder] = Modal.useModal();
  const config = account.machineConfig;
  const version = account.versions.instance;
  // The first load, as the card first renders: its fields then mount with their values (`useSectionValues`).
  const [firstVersion] = useState(() => {
    if (!config) return undefined;
    loadSection(form, config);
    return version;
  });
  /** The section version the form's values came from: the one a push names. */
  const loadedVersion = useRef<number | undefined>(firstVersion);

  const load = useCallback(
    (values: TMachineConfigInput, sectionVersion: number) => {
      loadSection(form, values);
      loadedVersion.current = sectionVersion;
    },
    [form],
  );

  // The first load if the first render had no section, and a newer version while the user has not
  // edited the form. Versions only grow, so a render with data older than the form's is never loaded.
  useEffect(() => {
    if (!config) return;
    const loaded = loadedVersion.current;
    if (loaded !== undefined && (version <= loaded || form.isFieldsTouched())) return;
    load(config, version);
  }, [config, version, form, load]);

  // A failed validation reads like a failed push.
  const showFailure = (error: unknown) => reportPushError(toast, error, PUSH_INSTANCE_ERROR);

  const onPush = async () => {
    try {
      await form.validateFields();
    } catch {
      return; // the fields show their messages
    }
    const values = form.getFieldsValue(true) as TMachineConfigInput;
    const body = { ...values, vmImageName: values.vmImageName ?? '', version: loadedVersion.current ?? version };
    // The answer is the stored section: the form takes it as it is (e.g. Latest as `master|latest`).
    const send = () => push.mutate(body, { onSuccess: ({ version: saved, ...stored }) => load(stored, saved) });
    let issues: TSoftwareUpdateIssue[];
    try {
      issues = (await validate.mutateAsync({ ...values, accountId: account.id })).issues;
    } catch (error) {
      showFailure(error);
      return;
    }
    if (issues.length === 0) {
      send();
      return;
    }
    void modal.confirm({
      title: PUSH_ISSUES_TITLE,
      content: <IssueList issues={issues} />,
      okText: 'Push',
      cancelText: 'Cancel',
      width: 640,
      onOk: send,
    });
  };

  const onReload = async () => {
    const fresh = await push.reload();
    if (fresh?.machineConfig) load(fresh.machineConfig, fresh.versions.instance);
  };

  const footer = canWrite ? (
    <>
      <DownloadKeysButtons account={account} />
      <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} loading={validate.isPending || push.isPending} onClick={() => void onPush()}>
        Push Instance Settings
      </Button>
    </>
  ) : undefined;

  return (
    <SectionCard
      title="Instance Settings"
      extra={templatePicker}
      footer={footer}
    >
      <SectionConflict detail={push.conflict} onReload={() => void onReload()} />
      <Form form={form} name="instance-settings" layout="vertical" validateTrigger="onBlur" disabled={!canWrite}>
        <InstanceFields
          mode="edit"
          disabled={!canWrite}
          stored={config}
          autoTestBranch={account.autoTest ? account.autoTestBranch : null}
          bundleVersion={account.bundleVersion}
        />
      </Form>
      {modalHolder}
    </SectionCard>
  );
}
