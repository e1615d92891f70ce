/**
 * The Select Version modal of the software version picker (spec 3 §2.1, §4).
 *
 * Titled "Select Version" (with the component's name beside it), with a Commits
 * tab ({@link CommitsTab}) and a Builds tab ({@link BuildsTab}). One version is
 * chosen at a time, from either tab: a commit gives `{branch}|{shortHash}`, a
 * build its URL. Select closes the modal with the chosen version, or with null
 * when nothing was chosen (the picker then reverts to None); Cancel and the close
 * button close it with `onCancel`. Its state starts afresh at every opening.
 */
import { useState } from 'react';
import { Button, Modal, Tabs } from 'antd';
import { COMPONENT_LABELS, type TConfigComponent } from '@fleet/contracts';
import { BuildsTab } from './BuildsTab';
import { CommitsTab } from './CommitsTab';
import { isBuildUrl, versionLabel } from './version-format';
import './software-versions.css';

/** Width of the modal, px (spec 1 §9 dialog widths). */
export const SELECT_VERSION_MODAL_WIDTH = 1200;

export interface SelectVersionModalProps {
  open: boolean;
  software: TConfigComponent;
  /** The version the picker holds when it opens (preselected when it is a commit or build). */
  initialVersion?: string | null;
  onSelect(version: string | null): void;
  onCancel(): void;
}

/** A preselected version: a commit or a build, not a Latest version. */
const preselected = (version: string | null | undefined): string | null =>
  version && !version.endsWith('|latest') ? version : null;

export function SelectVersionModal({ open, software, initialVersion, onSelect, onCancel }: SelectVersionModalProps) {
  const [chosen, setChosen] = useState<string | null>(preselected(initialVersion));
  const [tab, setTab] = useState('commits');
  // Every opening starts from the picker's version (the tabs' filters start afresh
  // too: the body is destroyed when hidden).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      const version = preselected(initialVersion);
      setChosen(version);
      setTab(version && isBuildUrl(version) ? 'builds' : 'commits');
    }
  }

  return (
    <Modal
      open={open}
      title={
        <>
          Select Version <span className="select-version-software">{COMPONENT_LABELS[software]}</span>
        </>
      }
      width={SELECT_VERSION_MODAL_WIDTH}
      onCancel={onCancel}
      destroyOnHidden
      footer={
        <div className="select-version-footer">
          <span className="select-version-chosen">{chosen ? `Chosen: ${versionLabel(chosen)}` : 'Nothing chosen'}</span>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="primary" onClick={() => onSelect(chosen)}>
            Select
          </Button>
        </div>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'commits', label: 'Commits', children: <CommitsTab software={software} chosen={chosen} onChoose={setChosen} /> },
          { key: 'builds', label: 'Builds', children: <BuildsTab software={software} chosen={chosen} onChoose={setChosen} /> },
        ]}
      />
    </Modal>
  );
}
