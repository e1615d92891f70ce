/**
 * Edit Account, `/account/edit/{id}` (spec 1 §2 Edit account, §6, §8; spec 2
 * §2.2–2.4): the account from `GET /accounts/{id}` with its name and class, the
 * tabs Machines, Sites and Services (none for add-on accounts, class 200; the
 * open tab is kept in the URL as `tab`), the Account Properties and License
 * Settings cards (add-on accounts too) and the other settings cards,
 * and a footer (write permission) with Manage Templates (the dialog loads
 * templates into the cards' forms and saves them; License and Instance Settings
 * also have a template picker in their headers) and Delete Account (the list's
 * confirmation and toasts, then back to the list).
 *
 * A load failure shows the server's detail in an error alert (spec 1 §8); an
 * account the user may not see (Customer Production without the group) answers
 * 404 and shows that way too.
 */
import { Alert, Button, Card, Flex, Modal, Skeleton, Tabs, Tag, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { useSearchParams } from '../../lib/use-search-params';
import { memo } from 'react';
import { CLASS_ADD_ON, type TAccountDetail } from '@fleet/contracts';
import { errorText } from '../../app/api-client';
import { useAuth } from '../../app/auth/auth-context';
import { HOME_PATH } from '../../app/routes';
import { oneOf, writeParam } from '../../lib/url-params';
import { useDeleteAccount } from '../accounts/api/mutations';
import { MachinesPanel } from '../machines/MachinesPanel';
import { useAccount } from './api/queries';
import { ServicesTab } from './components/ServicesTab';
import { SitesTab } from './components/SitesTab';
import { deleteConfirmText } from '../accounts/delete-account';
import { useSectionForms, type SectionForms } from '../account-settings/shared/section-forms';
import { AccountPropertiesCard } from '../account-settings/properties/AccountPropertiesCard';
import { LicenseSettingsCard } from '../account-settings/license/LicenseSettingsCard';
import { ManageTemplatesButton } from '../templates/ManageTemplatesButton';
import { TemplatePicker } from '../templates/TemplatePicker';
import { InstanceSettingsCard } from '../account-settings/instance/InstanceSettingsCard';
import { BackupSettingsCard } from '../account-settings/backup/BackupSettingsCard';
import { IdleScheduleCard } from '../account-settings/idle/IdleScheduleCard';
import { StagedRender } from '../../components/StagedRender';

const TABS = ['machines', 'sites', 'services'] as const;
const readTab = oneOf(TABS);

/** A positive whole number from the path, else undefined. */
function parseId(raw: string | undefined): number | undefined {
  const id = Number(raw);
  return Number.isInteger(id) && id >= 1 && id <= 2_147_483_647 ? id : undefined;
}

export default function EditAccountPage() {
  const params = useParams();
  const accountId = parseId(params.id);
  const [search, setSearch] = useSearchParams();
  const tab = readTab(search.get('tab')) ?? 'machines';
  const navigate = useNavigate();
  const { canWrite } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const account = useAccount(accountId);
  // The settings cards below each take their form from here (Manage Templates loads into them).
  const forms = useSectionForms();
  const deleteAccount = useDeleteAccount();

  if (accountId === undefined) {
    return <Alert type="error" showIcon title="Account could not be loaded" description={`'${params.id ?? ''}' is not an account id`} />;
  }
  if (account.isError) {
    return <Alert type="error" showIcon title="Account could not be loaded" description={errorText(account.error, 'The account could not be loaded')} />;
  }
  if (!account.data) {
    return (
      <Card aria-busy="true" aria-label="Loading account">
        <Skeleton active />
      </Card>
    );
  }
  const a = account.data;

  const setTab = (key: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, 'tab', key === 'machines' ? undefined : key);
        return next;
      },
      { replace: true },
    );

  const confirmDelete = () =>
    void modal.confirm({
      title: 'Delete account',
      content: deleteConfirmText(a.name),
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () =>
        deleteAccount
          .mutateAsync({ id: a.id, name: a.name })
          .then(() => navigate(HOME_PATH))
          // The toast reports a failure; the dialog closes either way.
          .catch(() => undefined),
    });

  const tabs = [
    { key: 'machines', label: 'Machines', children: <MachinesPanel accountId={a.id} expectedRows={a.machineStats.machines} /> },
    { key: 'sites', label: 'Sites', children: <SitesTab accountId={a.id} canWrite={canWrite} /> },
    { key: 'services', label: 'Services', children: <ServicesTab accountId={a.id} /> },
  ];

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Flex gap={8} align="center" wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {a.name}
            </Typography.Title>
            <Tag color="blue">{a.class.name}</Tag>
          </Flex>
        }
      >
        {a.classId === CLASS_ADD_ON ? (
          <Typography.Text type="secondary">An add-on account has no machines, sites or services.</Typography.Text>
        ) : (
          <Tabs activeKey={tab} onChange={setTab} items={tabs} destroyOnHidden />
        )}
      </Card>
      <SettingsCards account={a} forms={forms} canWrite={canWrite} />
      {canWrite && (
        <Flex justify="end" gap={8} role="group" aria-label="Account actions">
          <ManageTemplatesButton forms={forms} accountClassId={a.classId} existingAccount />
          <Button danger icon={<DeleteOutlined aria-hidden />} onClick={confirmDelete}>
            Delete Account
          </Button>
        </Flex>
      )}
      {modalHolder}
    </Flex>
  );
}

interface SettingsCardsProps {
  account: TAccountDetail;
  forms: SectionForms;
  canWrite: boolean;
}

/** Height kept for the settings cards until they render, pixels (more than a window's height). */
const SETTINGS_PLACEHOLDER_PX = 1200;

/**
 * The account's settings cards (spec 1 §2): rendered again only when the
 * account, the forms or the permission change, not at each render of the page
 * (the machines' live updates, the tab). Each card renders after the one before
 * it, in the background, once the page above has painted (`StagedRender`): the
 * five forms took one task of about a second with the machines' table when the
 * account arrived (issue 26: Total Blocking Time 750–870 ms).
 */
const SettingsCards = memo(function SettingsCards({ account: a, forms, canWrite }: SettingsCardsProps) {
  const stages = [
    <AccountPropertiesCard key="properties" account={a} form={forms.properties} canWrite={canWrite} />,
    <LicenseSettingsCard
      key="license"
      account={a}
      form={forms.license}
      canWrite={canWrite}
      templatePicker={<TemplatePicker kind="license-settings" form={forms.license} existingAccount accountClassId={a.classId} />}
    />,
  ];
  if (a.classId !== CLASS_ADD_ON) {
    stages.push(
      <InstanceSettingsCard
        key="instance"
        account={a}
        form={forms.instance}
        canWrite={canWrite}
        templatePicker={<TemplatePicker kind="instance-settings" form={forms.instance} existingAccount accountClassId={a.classId} />}
      />,
      <BackupSettingsCard key="backup" account={a} form={forms.backup} canWrite={canWrite} />,
      <IdleScheduleCard key="idle" account={a} form={forms.idle} canWrite={canWrite} />,
    );
  }
  return <StagedRender stages={stages} placeholderHeight={SETTINGS_PLACEHOLDER_PX} />;
});
