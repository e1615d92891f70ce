/**
 * Create account, `/account/new` (spec 1 §2 Create account, §4 draft → preview →
 * created, §5, §9; DESIGN §6), for users with write permission.
 *
 * Step 1, the form: collapsible sections in the specification's order (Account
 * Properties, Instance Settings, License Settings, Backup Settings, Idle
 * Schedule; an add-on account, class 200, has only properties and license), a
 * Sites tab for other classes, and a footer with Manage Templates and Next. The
 * instance settings are usable only after a template is picked, Customize or
 * Start from scratch. Next validates properties, instance settings and license
 * (then the sites), and saves a draft (`POST /accounts`, or `POST
 * /draft-accounts` for the draft of an earlier Next); the server's field errors
 * go on their fields and are listed in a toast.
 *
 * Step 2, the preview (`DraftPreview`): the planned machines and sites; Back
 * returns to the form with every value kept (the form stays mounted, hidden);
 * Create makes the account and opens Edit Account.
 */
import { memo, useEffect, useState } from 'react';
import { Button, Flex, Form, Tabs, Typography, type FormInstance } from 'antd';
import { ArrowRightOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { CLASS_ADD_ON, type TInstancePolicy } from '@fleet/contracts';
import { SCHEMA_VALUES } from '../../lib/schema-values';
import { ApiError } from '../../app/api-client';
import { useToast } from '../../app/toast';
import { fieldErrorLine } from '../account-settings/shared/use-push-section';
import { showFieldErrors } from '../account-settings/shared/field-errors';
import { useSectionForms, type SectionForms, type SectionKey } from '../account-settings/shared/section-forms';
import { useInstanceTypes } from '../machines/api/queries';
import { ManageTemplatesButton } from '../templates/ManageTemplatesButton';
import { useSaveDraft } from './api/drafts';
import { DraftPreview } from './components/DraftPreview';
import { SitesFields } from './components/SitesFields';
import { BackupSection, IdleSection, InstanceSection, LicenseSection, PropertiesSection } from './components/CreateSections';
import { StagedRender } from '../../components/StagedRender';
import { NEW_SITE_ROW, fieldOfCreationError, toCreationPayload, type CreateFormValues, type SitesValues } from './creation-payload';

/** Height kept for the cards after Account Properties until they render, pixels (more than a window's height). */
const LATER_SECTIONS_PLACEHOLDER_PX = 1200;

const ERROR_TITLE = 'The account could not be saved as a draft';

/** Validates the form of each section; resolves to whether all passed (every form shows its errors). */
async function validate(forms: Partial<Record<string, { validateFields(opts?: object): Promise<unknown> }>>): Promise<boolean> {
  const results = await Promise.allSettled(Object.values(forms).map((f) => f!.validateFields({ recursive: true })));
  return results.every((r) => r.status === 'fulfilled');
}

function readValues(forms: SectionForms, sites: SitesValues): CreateFormValues {
  return {
    properties: forms.properties.getFieldsValue(true),
    license: forms.license.getFieldsValue(true),
    instance: forms.instance.getFieldsValue(true),
    backup: forms.backup.getFieldsValue(true),
    idle: forms.idle.getFieldsValue(true),
    sites,
  };
}

/**
 * The license's start values (spec 1 §4 Start from scratch): the defaults, with the first instance type once the
 * types have loaded, until the user changes a license field. Draws nothing; its own component, so that the types'
 * answer renders only it.
 */
function LicenseDefaults({ form }: { form: FormInstance }) {
  const instanceTypes = useInstanceTypes(true);
  const firstInstanceType = instanceTypes.data?.find((t) => t.memorySize === null)?.id;
  useEffect(() => {
    if (form.isFieldsTouched()) return;
    form.setFieldsValue({ ...SCHEMA_VALUES.licenseConfigDefaults, ...(firstInstanceType === undefined ? {} : { cloudInstanceType: firstInstanceType }) });
  }, [form, firstInstanceType]);
  return null;
}

/** The Sites tab's form: as many sites as the license allows (one for AllInOne), named after the account's URL name. */
const SitesTab = memo(function SitesTab({ sitesForm, forms }: { sitesForm: FormInstance<SitesValues>; forms: SectionForms }) {
  const accountUrlName = (Form.useWatch('urlFriendlyName', forms.properties) as string | undefined) ?? '';
  const instancePolicy = Form.useWatch('instancePolicy', forms.license) as TInstancePolicy | undefined;
  const maxSites = (Form.useWatch('maxSites', forms.license) as number | undefined) ?? 1;
  return (
    <Form form={sitesForm} name="create-sites" initialValues={{ sites: [NEW_SITE_ROW] }}>
      <SitesFields maxSites={instancePolicy === 'AllInOne' ? 1 : Math.max(1, maxSites)} accountUrlName={accountUrlName} />
    </Form>
  );
});

export default function CreateAccountPage() {
  const forms = useSectionForms();
  const [sitesForm] = Form.useForm<SitesValues>();
  const [step, setStep] = useState<'form' | 'preview'>('form');
  const [draftId, setDraftId] = useState<number>();
  const [instanceOpen, setInstanceOpen] = useState(false);
  const [tab, setTab] = useState('sections');
  const navigate = useNavigate();
  const toast = useToast();
  const saveDraft = useSaveDraft();
  // The page watches the class only: the values its parts follow are watched by those parts (a typed
  // character then renders the part that shows it, not the whole form; issue 26).
  const classId = Form.useWatch('classId', forms.properties) as number | undefined;
  const addOn = classId === CLASS_ADD_ON;

  const onNext = async () => {
    const sectionsValid = await validate(
      addOn ? { properties: forms.properties, license: forms.license } : { properties: forms.properties, instance: forms.instance, license: forms.license },
    );
    if (!instanceOpen && !addOn) {
      toast.error('Choose an instance settings template, Customize or Start from scratch');
      return;
    }
    if (!sectionsValid) return;
    if (!addOn && !(await validate({ sites: sitesForm, backup: forms.backup, idle: forms.idle }))) {
      setTab('sites');
      return;
    }
    const payload = toCreationPayload(readValues(forms, sitesForm.getFieldsValue(true)));
    saveDraft.mutate(
      { draftId, payload },
      {
        onSuccess: ({ draftAccountId }) => {
          setDraftId(draftAccountId);
          setStep('preview');
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) return toast.error(ERROR_TITLE);
          const formOf: Record<SectionKey | 'sites', FormInstance> = { ...forms, sites: sitesForm };
          for (const [section, form] of Object.entries(formOf)) {
            const shown = showFieldErrors(form, error, (propertyName) => {
              const target = fieldOfCreationError(propertyName);
              return target?.section === section ? target.name : undefined;
            });
            if (section === 'sites' && shown > 0) setTab('sites');
          }
          toast.errorList(ERROR_TITLE, error.errors.length > 0 ? error.errors.map((e) => fieldErrorLine(e, false)) : [error.detail ?? error.title]);
        },
      },
    );
  };

  const sections = (
    <Flex vertical gap={16}>
      <PropertiesSection form={forms.properties} />
      {/* The cards after the first render one by one after the page has painted (issue 26). */}
      <StagedRender
        stages={[
          !addOn && <InstanceSection key="instance" form={forms.instance} propertiesForm={forms.properties} open={instanceOpen} setOpen={setInstanceOpen} />,
          <LicenseSection key="license" form={forms.license} addOn={addOn} />,
          !addOn && <BackupSection key="backup" form={forms.backup} />,
          !addOn && <IdleSection key="idle" form={forms.idle} />,
        ]}
        placeholderHeight={LATER_SECTIONS_PLACEHOLDER_PX}
      />
    </Flex>
  );

  return (
    <>
      <LicenseDefaults form={forms.license} />
      <Flex vertical gap={16} style={step === 'form' ? undefined : { display: 'none' }} aria-hidden={step !== 'form'}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          New Account
        </Typography.Title>
        {addOn ? (
          sections
        ) : (
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={[
              { key: 'sections', label: 'Settings', children: sections, forceRender: true },
              {
                key: 'sites',
                label: 'Sites',
                forceRender: true,
                children: <SitesTab sitesForm={sitesForm} forms={forms} />,
              },
            ]}
          />
        )}
        <Flex justify="end" gap={8} role="group" aria-label="Create account actions">
          <ManageTemplatesButton forms={forms} accountClassId={classId} />
          <Button type="primary" icon={<ArrowRightOutlined aria-hidden />} loading={saveDraft.isPending} onClick={() => void onNext()}>
            Next
          </Button>
        </Flex>
      </Flex>
      {step === 'preview' && draftId !== undefined && (
        <DraftPreview draftId={draftId} onBack={() => setStep('form')} onCreated={(accountId) => navigate(`/account/edit/${accountId}`)} />
      )}
    </>
  );
}
