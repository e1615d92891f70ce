/**
 * The Updater's software versions block (spec 3 §2.8, §3 Software update
 * payload, §4 Version modes, §5): one picker per software (the software
 * versions feature's picker and Select Version modal) with the updater's modes
 * Skip (the default), None, Latest, Latest build and Select; the deployer's None
 * is labelled Default. Library files (Main and Account Library, modes from Skip)
 * only in account mode.
 *
 * - Choosing a deployer mode other than Skip or Default opens the "Be careful"
 *   warning (`DEPLOYER_WARNING`); a warning icon with a tooltip stays beside the
 *   deployer while its version differs from the class default (the MMA class's
 *   deployer, `GET /mma/classes`) of a selected target's class.
 * - Template: an instance-settings template's versions load into the block
 *   ('Template loaded'); Save as template stores the softwares not on Skip.
 *
 * The form (`form`) belongs to the page; its values are `VersionsFormValues`.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Col, Flex, Form, Input, Modal, Popover, Select, Tooltip, Typography, type FormInstance } from 'antd';
import { SaveOutlined, WarningOutlined } from '@ant-design/icons';
import { DEPLOYER_WARNING, UPDATER_VERSION_MODES, type TMmaClass, type TTemplate } from '@fleet/contracts';
import { useToast } from '../../../app/toast';
import { useMmaClasses } from '../../mma/api/queries';
import { ComponentVersionItem } from '../../software-versions/ComponentVersionItem';
import { ComponentPickers, LibraryFilesSection, PICKER_COL } from '../../software-versions/PickerSections';
import { useCreateTemplate } from '../../templates/api/mutations';
import { useTemplates } from '../../templates/api/queries';
import { versionLabel } from '../../software-versions/version-format';
import { templateToVersionsValues, versionsToTemplateSettings, type VersionsFormValues } from '../updater-payload';
import type { UpdaterMode } from '../use-updater-params';

/** The deployer modes after which the "Be careful" warning opens (spec 3 §5). */
const QUIET_DEPLOYER_MODES = ['Skip', 'None'];

interface Props {
  form: FormInstance<VersionsFormValues>;
  /** The starting values (every software on Skip). */
  initialValues: VersionsFormValues;
  mode: UpdaterMode;
  /** The class ids of the selected targets (as far as the table has shown them). */
  classIds: number[];
}

/** A class's deployer as `branch / hash`: its version names its branch, or the instance's branch is put before it. */
function classDeployer(c: TMmaClass): string {
  const version = c.mmaInstance?.deployerVer ?? '';
  return versionLabel(version.includes('|') ? version : `${c.mmaInstance?.deployerBranch ?? ''}|${version}`);
}

/** The deployer's "Be careful" warning and the class-default tooltip. */
function DeployerItem({ classIds }: { classIds: number[] }) {
  const form = Form.useFormInstance();
  const [modal, holder] = Modal.useModal();
  const mode = Form.useWatch<string | undefined>('deployerVersionMode', form);
  const version = Form.useWatch<string | undefined>('deployerVersion', form) ?? '';
  const classes = useMmaClasses();
  const previous = useRef(mode);
  useEffect(() => {
    if (mode !== previous.current && mode && !QUIET_DEPLOYER_MODES.includes(mode)) {
      void modal.warning({ title: 'Be careful', content: DEPLOYER_WARNING, okText: 'OK' });
    }
    previous.current = mode;
  }, [mode, modal]);

  const differing = (classes.data ?? []).filter((c) => {
    const ver = c.mmaInstance?.deployerVer;
    if (!classIds.includes(c.id) || !ver || !(mode === 'Select' || mode === 'Latest') || !version) return false;
    return version !== ver && !version.endsWith(`|${ver}`);
  });

  return (
    <Flex align="flex-start" gap={4}>
      <div style={{ flex: 1, minWidth: 0 }}>
        <ComponentVersionItem component="deployer" modes={UPDATER_VERSION_MODES} noneLabel="Default" />
      </div>
      {differing.length > 0 && (
        <Tooltip
          title={`${DEPLOYER_WARNING}. Class default: ${differing
            .map((c) => `${c.name} ${classDeployer(c)}`)
            .join(', ')}`}
        >
          <WarningOutlined aria-label="Differs from the class default deployer" style={{ color: '#d48806', marginTop: 38 }} tabIndex={0} />
        </Tooltip>
      )}
      {holder}
    </Flex>
  );
}

/** Load an instance-settings template's versions, or save the block as one. */
function TemplateControls({ form }: { form: FormInstance<VersionsFormValues> }) {
  const toast = useToast();
  const templates = useTemplates('instance-settings');
  const create = useCreateTemplate('instance-settings');
  const [picked, setPicked] = useState<number>();
  const [saveOpen, setSaveOpen] = useState(false);
  const [name, setName] = useState('');
  const items: TTemplate[] = templates.data ?? [];

  const load = (id: number) => {
    const template = items.find((t) => t.id === id && t.isTemplate);
    if (!template) return;
    setPicked(id);
    form.setFieldsValue(templateToVersionsValues(template));
    toast.success('Template loaded');
  };
  const save = () => {
    if (!name.trim()) return;
    create.mutate(
      { name: name.trim(), isPublic: true, ...versionsToTemplateSettings(form.getFieldsValue(true) as VersionsFormValues) },
      {
        onSuccess: () => {
          setSaveOpen(false);
          setName('');
        },
      },
    );
  };

  return (
    <Flex gap={8} wrap>
      <Select
        aria-label="Instance Settings template"
        placeholder="Load template"
        style={{ width: 240 }}
        showSearch={{ optionFilterProp: 'label' }}
        loading={templates.isPending}
        value={picked}
        onChange={load}
        options={items.filter((t) => t.isTemplate).map((t) => ({ value: t.id, label: t.name }))}
        notFoundContent={templates.isError ? 'Templates could not be loaded' : 'No templates'}
      />
      <Popover
        open={saveOpen}
        onOpenChange={setSaveOpen}
        trigger="click"
        title="Save versions as template"
        content={
          <Flex gap={8}>
            <Input aria-label="Template name" placeholder="Template name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} onPressEnter={save} autoFocus />
            <Button type="primary" disabled={!name.trim()} loading={create.isPending} onClick={save}>
              Save
            </Button>
          </Flex>
        }
      >
        <Button icon={<SaveOutlined aria-hidden />}>Save as template</Button>
      </Popover>
    </Flex>
  );
}

export function VersionsBlock({ form, initialValues, mode, classIds }: Props) {
  return (
    <Form<VersionsFormValues> form={form} initialValues={initialValues} layout="vertical" component="div" aria-label="Software versions">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">Skip leaves a software as it is.</Typography.Text>
        <TemplateControls form={form} />
      </Flex>
      <ComponentPickers
        picker={{ modes: UPDATER_VERSION_MODES }}
        extra={
          <Col {...PICKER_COL}>
            <DeployerItem classIds={classIds} />
          </Col>
        }
      />
      {mode === 'account' && <LibraryFilesSection installedFiles={[]} />}
    </Form>
  );
}
