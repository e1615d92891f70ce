/**
 * The software version picker (spec 3 §2.1, §4; spec 1 §4): a form control whose
 * value is `{mode, version}` (a component's `{key}VersionMode` and `{key}Version`
 * of machineConfig). {@link ComponentVersionItem} binds it to those two fields of
 * the surrounding antd Form.
 *
 * Modes (`modes`, default Latest, Select, None as in the account form):
 * - Latest: version `{branch}|latest`; choosing Latest starts with master; the
 *   branch box beside it changes the branch, and clearing it means any branch
 *   (`|latest`).
 * - Select: opens the Select Version modal. A chosen commit gives
 *   `{branch}|{shortHash}`, a build its URL (shown as the zip's file name).
 *   Select with nothing chosen, or closing the modal without a version, reverts
 *   to None (a version already selected is kept when the modal is reopened and
 *   cancelled). The edit button reopens the modal; the clear button resets to None.
 * - None (labelled `noneLabel`, e.g. Default for the deployer) and LatestBuild:
 *   version empty.
 * - Skip (the updater's default, spec 3 §4): leave the software as it is;
 *   version empty.
 */
import { useState } from 'react';
import { Button, Input, Select, Space, Tooltip } from 'antd';
import { CloseOutlined, EditOutlined } from '@ant-design/icons';
import { DEFAULT_LATEST_BRANCH, type TAccountVersionMode, type TConfigComponent } from '@fleet/contracts';
import { useBranches } from './api/queries';
import { effectiveLatestBranch, latestBranch, latestVersion, MODE_LABELS, versionLabel } from './version-format';
import { WhenOpened } from '../../components/WhenOpened';
import { lazyNamed } from '../../lib/lazy-named';

/** The version dialog, loaded at its first opening (`WhenOpened`). */
const SelectVersionModal = lazyNamed(() => import('./SelectVersionModal'), 'SelectVersionModal');

/** A picker mode: the account's modes, and Skip in the updater (spec 3 §4). */
export type PickerMode = TAccountVersionMode | 'Skip';

export interface VersionPickerValue {
  mode: PickerMode;
  version: string;
}

export interface VersionPickerProps {
  software: TConfigComponent;
  /** The component's name, for the controls' accessible names. */
  label: string;
  value: VersionPickerValue;
  onChange(value: VersionPickerValue): void;
  modes?: readonly PickerMode[];
  noneLabel?: string;
  disabled?: boolean;
}

export const ACCOUNT_PICKER_MODES: readonly TAccountVersionMode[] = ['Latest', 'Select', 'None'];

export function VersionPicker({ software, label, value, onChange, modes = ACCOUNT_PICKER_MODES, noneLabel, disabled }: VersionPickerProps) {
  const [modalOpen, setModalOpen] = useState(false);
  const branches = useBranches();
  const { mode, version } = value;

  // A stored mode the list does not offer (e.g. LatestBuild in the account form) stays shown.
  const modeOptions = (modes.includes(mode) ? modes : [...modes, mode]).map((m) => ({
    value: m,
    label: m === 'None' && noneLabel ? noneLabel : MODE_LABELS[m],
  }));

  const onModeChange = (next: PickerMode) => {
    if (next === 'Select') {
      setModalOpen(true);
      return;
    }
    if (next === 'Latest') onChange({ mode: next, version: latestBranch(version) === null ? latestVersion(DEFAULT_LATEST_BRANCH) : version });
    else onChange({ mode: next, version: '' });
  };

  const onSelect = (chosen: string | null) => {
    setModalOpen(false);
    onChange(chosen ? { mode: 'Select', version: chosen } : { mode: 'None', version: '' });
  };
  const onCancel = () => {
    setModalOpen(false);
    if (!(mode === 'Select' && version)) onChange({ mode: 'None', version: '' });
  };

  const branch = mode === 'Latest' ? effectiveLatestBranch(version) : null;
  const branchNames = (branches.data ?? []).map((b) => b.name);
  if (branch && !branchNames.includes(branch)) branchNames.unshift(branch);

  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Select<PickerMode>
          aria-label={`${label} version mode`}
          style={{ width: 132, flex: 'none' }}
          value={modalOpen ? 'Select' : mode}
          disabled={disabled}
          options={modeOptions}
          onChange={onModeChange}
        />
        {mode === 'Latest' && !modalOpen && (
          <Select<string>
            aria-label={`${label} branch`}
            style={{ flex: 1, minWidth: 0 }}
            allowClear
            showSearch
            placeholder="Any branch"
            disabled={disabled}
            value={branch || undefined}
            loading={branches.isLoading}
            options={branchNames.map((name) => ({ value: name, label: name }))}
            onChange={(next: string | undefined) => onChange({ mode: 'Latest', version: latestVersion(next ?? '') })}
          />
        )}
        {mode === 'Select' && !modalOpen && (
          <>
            <Tooltip title={version}>
              <Input aria-label={`${label} version`} readOnly value={versionLabel(version)} style={{ flex: 1, minWidth: 0 }} disabled={disabled} />
            </Tooltip>
            <Button aria-label={`Choose ${label} version`} icon={<EditOutlined aria-hidden />} disabled={disabled} onClick={() => setModalOpen(true)} />
            <Button
              aria-label={`Clear ${label} version`}
              icon={<CloseOutlined aria-hidden />}
              disabled={disabled}
              onClick={() => onChange({ mode: 'None', version: '' })}
            />
          </>
        )}
        {(modalOpen || (mode !== 'Latest' && mode !== 'Select')) && (
          <Input aria-label={`${label} version`} disabled value="" placeholder={modalOpen ? 'Choosing…' : 'No version'} style={{ flex: 1, minWidth: 0 }} />
        )}
      </Space.Compact>
      <WhenOpened open={modalOpen}>
        <SelectVersionModal open={modalOpen} software={software} initialVersion={version} onSelect={onSelect} onCancel={onCancel} />
      </WhenOpened>
    </>
  );
}
