/**
 * Account Properties card of Edit account (spec 1 §2 Account Properties card,
 * §4, §5, §6, §7 `PUT /accounts/{id}` and `POST /accounts/{id}/send-creation-mail`,
 * §8; DESIGN §5 section versions).
 *
 * Shows the account's properties in {@link PropertiesFields} (the page's
 * `forms.properties`, values `PropertiesValues`), the read-only launcher URL
 * with a copy button (none for add-on accounts), and with write permission:
 *
 * - Push Account Properties: validates on the client, then pushes with the
 *   section version it was loaded with. 'Account properties pushed' (2 s) and
 *   the account reloads; on a 400 'Error occurred pushing account properties'
 *   and each server error under its field; a 409 for a URL name another
 *   account uses goes under URL name the same way; a 409 for a stale version
 *   shows {@link SectionConflict} with Reload.
 * - Send Creation Email: 'Creation email sent' / 'Error occurred sending
 *   creation email'.
 *
 * The fields take the server's values when the account loads and whenever the
 * section changes on the server (a push, a Reload after a conflict), not on
 * other reloads of the account, so edits survive a push of another card.
 * Without write permission the fields are disabled and there are no buttons.
 */
import { Button, Form, Typography, type FormInstance } from 'antd';
import { CloudUploadOutlined, MailOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { TAccountDetail, TAccountPropertiesResponse, TPushAccountPropertiesRequest } from '@fleet/contracts';
import { SectionCard } from '../shared/SectionCard';
import { SectionConflict } from '../shared/SectionConflict';
import { showFieldErrors } from '../shared/field-errors';
import { usePushSection } from '../shared/use-push-section';
import { useSectionValues } from '../shared/use-section-values';
import { lookupKey } from '../../catalogues/api/lookups';
import { PropertiesFields } from './PropertiesFields';
import { useSendCreationMail } from './api/mutations';
import { propertiesSection, type PropertiesValues } from './properties-rules';

export interface AccountPropertiesCardProps {
  account: TAccountDetail;
  form: FormInstance;
  canWrite: boolean;
}

export function AccountPropertiesCard({ account, form, canWrite }: AccountPropertiesCardProps) {
  const queryClient = useQueryClient();
  const push = usePushSection<TPushAccountPropertiesRequest, TAccountPropertiesResponse>({
    accountId: account.id,
    path: '',
    successText: 'Account properties pushed',
    errorText: 'Error occurred pushing account properties',
  });
  const sendMail = useSendCreationMail(account.id);
  const version = account.versions.properties;
  useSectionValues(form, propertiesSection(account), version);

  const onPush = () =>
    form.validateFields({ recursive: true }).then(
      () =>
        push.mutate(
          { ...(form.getFieldsValue(true) as PropertiesValues), version },
          {
            // A new customer joins the autocomplete.
            onSuccess: () => void queryClient.invalidateQueries({ queryKey: lookupKey('customers') }),
            onError: (error) => void showFieldErrors(form, error),
          },
        ),
      // The fields show what is wrong.
      () => undefined,
    );

  return (
    <SectionCard
      title="Account Properties"
      footer={
        canWrite && (
          <>
            <Button icon={<MailOutlined aria-hidden />} loading={sendMail.isPending} onClick={() => sendMail.mutate()}>
              Send Creation Email
            </Button>
            <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} loading={push.isPending} onClick={() => void onPush()}>
              Push Account Properties
            </Button>
          </>
        )
      }
    >
      <SectionConflict detail={push.conflict} onReload={() => void push.reload()} />
      <Form form={form} name="account-properties" layout="vertical" disabled={!canWrite}>
        {account.launcherUrl && (
          <Form.Item label="Launcher URL">
            <Typography.Link href={account.launcherUrl} target="_blank" rel="noreferrer" copyable={{ text: account.launcherUrl, tooltips: ['Copy launcher URL', 'Copied'] }}>
              {account.launcherUrl}
            </Typography.Link>
          </Form.Item>
        )}
        <PropertiesFields mode="edit" disabled={!canWrite} account={account} />
      </Form>
    </SectionCard>
  );
}
