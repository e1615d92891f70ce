/**
 * Idle Schedule card of Edit account (spec 1 §2 Idle Schedule card, §5, §6,
 * §7 `PUT /accounts/{id}/idle-schedule`, §8; DESIGN §5 section versions).
 *
 * Shows the account's `idleSchedules` in {@link IdleFields} (the page's
 * `forms.idle`, values `{ idleSchedules: TIdleScheduleEntry[] }`) with the
 * buttons New Idle Time (in the fields), Revert Changes (restores the list as
 * loaded; disabled while nothing changed) and Push Idle Schedule, which sends
 * the list with the section version it was loaded with: 'Idle schedule pushed'
 * (2 s) and the account reloads; a 400 lists every errorMessage with its
 * attemptedValue for 10 s under 'Error occurred pushing idle schedule'; a 409
 * shows {@link SectionConflict} with Reload. The list takes the account's
 * entries when it loads and whenever the section's version changes (after a
 * push or a Reload), not on other reloads of the account.
 *
 * Without write permission the card is read-only and has no buttons. Add-on
 * accounts (class 200) have no idle schedule: the page does not show the card
 * for them.
 */
import { Button, Form, type FormInstance } from 'antd';
import { CloudUploadOutlined, UndoOutlined } from '@ant-design/icons';
import type { TAccountDetail, TIdleScheduleEntry, TIdleScheduleSettings, TPushIdleScheduleRequest } from '@fleet/contracts';
import { SectionCard } from '../shared/SectionCard';
import { SectionConflict } from '../shared/SectionConflict';
import { usePushSection } from '../shared/use-push-section';
import { useSectionValues } from '../shared/use-section-values';
import { IdleFields } from './IdleFields';
import { sameIdleSchedules, type IdleFormValues } from './idle-schedule';

export interface IdleScheduleCardProps {
  account: TAccountDetail;
  form: FormInstance;
  canWrite: boolean;
}

export function IdleScheduleCard({ account, form, canWrite }: IdleScheduleCardProps) {
  const push = usePushSection<TPushIdleScheduleRequest, TIdleScheduleSettings>({
    accountId: account.id,
    path: 'idle-schedule',
    successText: 'Idle schedule pushed',
    errorText: 'Error occurred pushing idle schedule',
    errorSeconds: 10,
    listErrors: 'attempted',
  });
  const { idleSchedules } = account;
  const version = account.versions.idle;
  const current = Form.useWatch('idleSchedules', form) as (Partial<TIdleScheduleEntry> | undefined)[] | undefined;

  // A new section version (after a push or a Reload) replaces the list, and so does
  // Revert Changes; the form is not reset first (touched state and field errors stay).
  const { load: revert } = useSectionValues(form, { idleSchedules }, version, { reset: false });

  const onPush = () =>
    form.validateFields({ recursive: true }).then(
      () => push.mutate({ idleSchedules: (form.getFieldsValue(true) as IdleFormValues).idleSchedules ?? [], version }),
      // The fields show what is wrong.
      () => undefined,
    );

  return (
    <SectionCard
      title="Idle Schedule"
      footer={
        canWrite && (
          <>
            <Button icon={<UndoOutlined aria-hidden />} disabled={sameIdleSchedules(current, idleSchedules)} onClick={revert}>
              Revert Changes
            </Button>
            <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} loading={push.isPending} onClick={() => void onPush()}>
              Push Idle Schedule
            </Button>
          </>
        )
      }
    >
      <SectionConflict detail={push.conflict} onReload={() => void push.reload()} />
      <IdleFields form={form} mode="edit" initialValues={{ idleSchedules }} disabled={!canWrite} />
    </SectionCard>
  );
}
