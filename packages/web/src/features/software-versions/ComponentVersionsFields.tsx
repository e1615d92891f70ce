/**
 * The Component Versions card of the Instance Settings card (spec 1 §2, §3, §4;
 * spec 3 §2.1, §4), rendered inside the Instance Settings antd Form, whose
 * values have the `TMachineConfigInput` shape. Its fields are machineConfig's:
 *
 * - `{component}VersionMode` / `{component}Version` for Launcher, Web Client,
 *   Reporting, Export, Audit ChangeLog, Site Master, Site Master Validator,
 *   Relational Export, Populate, CAD Import and the integrations Linkware,
 *   Discovery, ServiceNow, VoltServer, Fiber SenSys, Fiber Mountain, CommScope,
 *   AP Sensing (modes Latest, Select, None; see {@link VersionPicker});
 * - `mainLibraryMode` / `mainLibraryFiles` and `accountLibraryMode` /
 *   `accountLibraryFiles` / `accountLibraryFile` (see {@link LibraryFilesField}).
 *
 * The content of the card (the Instance Settings card draws the card around it).
 * Above the pickers is the bundle version (`bundleVersion`, else the form's
 * `bundleVersion`) as a link opening the Compare Versions dialog. When auto test
 * runs with a branch (`autoTestBranch`), an info banner says so and every picker
 * is disabled, as with `disabled`.
 *
 * Known limitation: "installed" library files (for the dialog's newer-installed
 * warning) are the files the form holds in both library fields, which are the
 * account's current files until the user changes them.
 *
 * The watched values and the library files' answer are read by the parts that
 * show them (the bundle link, the library files), and the pickers are
 * memoized: an answer renders its part, not the card's 1,400 components
 * (issue 26).
 */
import { memo, useState, type JSX } from 'react';
import { Alert, Flex, Form, Tooltip, Typography } from 'antd';
import type { TMachineConfigInput } from '@fleet/contracts';
import { useLibraryFilesByIds } from './api/queries';
import { ComponentPickers, LibraryFilesSection } from './PickerSections';
import { WhenOpened } from '../../components/WhenOpened';
import { lazyNamed } from '../../lib/lazy-named';

/** The Compare Versions dialog, loaded at its first opening (`WhenOpened`). */
const CompareVersionsDialog = lazyNamed(() => import('./CompareVersionsDialog'), 'CompareVersionsDialog');

/** The bundle version (`bundleVersion`, else the form's) as a link that opens the Compare Versions dialog. */
function BundleLink({ bundleVersion, onOpen }: { bundleVersion?: string | null; onOpen(): void }) {
  const formBundle = Form.useWatch('bundleVersion', Form.useFormInstance()) as string | null | undefined;
  const bundle = bundleVersion ?? formBundle ?? null;
  return (
    <Flex justify="flex-end" style={{ marginBottom: 8 }}>
      <span>
        Bundle version:{' '}
        <Tooltip title="Compare versions">
          <Typography.Link onClick={onOpen}>{bundle || 'none'}</Typography.Link>
        </Tooltip>
      </span>
    </Flex>
  );
}

/** The library files, told which files the form holds in both library fields (the "installed" ones). */
function LibraryFiles({ disabled }: { disabled: boolean }) {
  const form = Form.useFormInstance();
  const mainIds = (Form.useWatch('mainLibraryFiles', form) as number[] | undefined) ?? [];
  const accountIds = (Form.useWatch('accountLibraryFiles', form) as number[] | undefined) ?? [];
  const installed = useLibraryFilesByIds([...mainIds, ...accountIds]).files;
  return <LibraryFilesSection disabled={disabled} installedFiles={installed} />;
}

const Pickers = memo(function Pickers({ disabled }: { disabled: boolean }) {
  return <ComponentPickers picker={{ disabled }} />;
});

export function ComponentVersionsFields(props: {
  disabled?: boolean;
  autoTestBranch?: string | null;
  bundleVersion?: string | null;
}): JSX.Element {
  const form = Form.useFormInstance();
  const [compareOpen, setCompareOpen] = useState(false);
  const autoTest = Boolean(props.autoTestBranch);
  const disabled = Boolean(props.disabled) || autoTest;

  return (
    <>
      <BundleLink bundleVersion={props.bundleVersion} onOpen={() => setCompareOpen(true)} />
      {autoTest && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`Auto test is active with branch ${props.autoTestBranch}`}
          description="The components run the latest code of that branch, so their versions and library files cannot be chosen here."
        />
      )}
      <Pickers disabled={disabled} />
      <LibraryFiles disabled={disabled} />
      <WhenOpened open={compareOpen}>
        <CompareVersionsDialog
          open={compareOpen}
          current={(compareOpen ? form.getFieldsValue(true) : {}) as Partial<TMachineConfigInput> & Record<string, unknown>}
          onClose={() => setCompareOpen(false)}
        />
      </WhenOpened>
    </>
  );
}
