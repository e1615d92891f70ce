/**
 * The Updater (spec 3 §2.8; DESIGN §15; issue 13): bulk flags, configs,
 * notifications and software versions for many machines or accounts.
 *
 * - Targets: mode, class filter and search in the URL (`use-updater-params`);
 *   machine mode embeds the machines panel (`MachineTargets`), account mode
 *   lists accounts (`AccountTargetsTable`); both keep the selection across
 *   pages (`use-target-selection`).
 * - Header: saved selections, Save selection, the bulk actions menu, the
 *   rollouts list.
 * - Flags: `BatchFlagsCard`.
 * - Software versions: `VersionsBlock`; Update runs a dry run and opens
 *   `UpdateDialog` with its diff, confirmation and waves.
 *
 * Route `/updater`, permission write (the route table's guard; the server
 * refuses every updater call without it too).
 */
import { useMemo, useState } from 'react';
import { Button, Card, Flex, Form, Space, Typography, type FormInstance } from 'antd';
import { CloudSyncOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { TBatchResult, TSavedSelection } from '@fleet/contracts';
import { useSoftwareUpdate } from './api/mutations';
import { BatchFlagsCard } from './components/BatchFlagsCard';
import { BulkActions } from './components/BulkActions';
import { SavedSelectionsButton, SaveSelectionButton } from './components/SavedSelections';
import { TargetFilters } from './components/TargetFilters';
import { AccountTargetsTable } from './components/AccountTargetsTable';
import { MachineTargets } from './components/MachineTargets';
import { UpdateDialog } from './components/UpdateDialog';
import { VersionsBlock } from './components/VersionsBlock';
import { changedSoftwares, initialVersionsValues, toSoftwareUpdateConfig, type VersionsFormValues } from './updater-payload';
import { useTargetSelection } from './use-target-selection';
import { updaterLinkForQuery, useUpdaterParams, type UpdaterMode } from './use-updater-params';
import { StagedRender } from '../../components/StagedRender';

/** Height kept for the flags and versions cards until they render, pixels (more than a window's height). */
const LATER_CARDS_PLACEHOLDER_PX = 1000;

interface UpdateFooterProps {
  form: FormInstance<VersionsFormValues>;
  initialValues: VersionsFormValues;
  mode: UpdaterMode;
  /** The selected targets' ids. */
  ids: number[];
  /** What the targets are: 'machines' or 'accounts'. */
  label: string;
}

/**
 * The versions card's footer: what Update would do, the Update button (a dry run) and the dialog with its diff.
 * It watches the versions block itself, so a changed version renders the footer, not the page with its targets
 * table (about 1,600 components; issue 26).
 */
function UpdateFooter({ form, initialValues, mode, ids, label }: UpdateFooterProps) {
  const watched = Form.useWatch([], form) as VersionsFormValues | undefined;
  const config = useMemo(() => toSoftwareUpdateConfig({ ...initialValues, ...watched }, mode), [watched, initialValues, mode]);
  const changing = changedSoftwares(config);
  const dryRun = useSoftwareUpdate();
  const [preview, setPreview] = useState<TBatchResult | undefined>(undefined);
  const startUpdate = () =>
    dryRun.mutate(
      mode === 'machine' ? { kind: 'machine', ...config, machines: ids, dryRun: true } : { kind: 'account', ...config, accounts: ids, dryRun: true },
      { onSuccess: setPreview },
    );
  return (
    <Flex gap={12} align="center" justify="flex-end" style={{ paddingInline: 16 }}>
      <Typography.Text type="secondary">
        {ids.length === 0
          ? `Select ${label} to update.`
          : changing.length === 0
            ? 'Choose a version mode other than Skip.'
            : `Updates ${changing.length} software${changing.length === 1 ? '' : 's'} on ${ids.length.toLocaleString('en-US')} ${label}.`}
      </Typography.Text>
      <Button type="primary" disabled={ids.length === 0 || changing.length === 0} loading={dryRun.isPending} onClick={startUpdate}>
        Update
      </Button>
      <UpdateDialog key={preview ? 'open' : 'closed'} mode={mode} ids={ids} config={config} preview={preview} onClose={() => setPreview(undefined)} />
    </Flex>
  );
}

export default function UpdaterPage() {
  const params = useUpdaterParams();
  const { mode, query } = params;
  const selection = useTargetSelection();
  const navigate = useNavigate();
  const [form] = Form.useForm<VersionsFormValues>();
  const [initialValues] = useState(initialVersionsValues);
  const label = mode === 'machine' ? 'machines' : 'accounts';

  const selectedClassIds = useMemo(
    () => [...new Set(selection.ids.flatMap((id) => (selection.seen.has(id) ? [selection.seen.get(id)!.classId] : [])))],
    [selection.ids, selection.seen],
  );

  const setMode = (next: UpdaterMode) => {
    if (next === mode) return;
    selection.clear();
    params.setMode(next);
  };

  const openSelection = (saved: TSavedSelection) => {
    const savedMode: UpdaterMode = saved.kind === 'machines' ? 'machine' : 'account';
    selection.clear();
    if (saved.query !== null) {
      void navigate(updaterLinkForQuery(saved.query), { replace: true });
      return;
    }
    if (savedMode !== mode) params.setMode(savedMode);
    selection.set(saved.ids);
  };

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Space>
            <CloudSyncOutlined aria-hidden />
            Updater
          </Space>
        }
        extra={
          <Flex gap={8} wrap>
            <SavedSelectionsButton onOpenSelection={openSelection} />
            <SaveSelectionButton mode={mode} ids={selection.ids} query={query} />
            <BulkActions mode={mode} ids={selection.ids} seen={selection.seen} />
            <Button icon={<UnorderedListOutlined aria-hidden />} href="#/rollouts">
              Rollouts
            </Button>
          </Flex>
        }
      >
        <TargetFilters
          mode={mode}
          classIds={params.classIds}
          search={params.search}
          extraFilters={params.extraFilters}
          onMode={setMode}
          onClassIds={params.setClassIds}
          onSearch={params.setSearch}
          onClearExtra={params.clearExtraFilters}
        />
        {mode === 'machine' ? <MachineTargets query={query} selection={selection} /> : <AccountTargetsTable query={query} selection={selection} />}
      </Card>
      {/* The flags and the versions render after the targets, one by one, in the background (issue 26). */}
      <StagedRender
        stages={[
          <Card key="flags" title={`Flags of the selected ${label}`} size="small">
            <BatchFlagsCard mode={mode} ids={selection.ids} />
          </Card>,
          <Card
            key="versions"
            title="Software versions"
            size="small"
            actions={[<UpdateFooter key="update" form={form} initialValues={initialValues} mode={mode} ids={selection.ids} label={label} />]}
          >
            <VersionsBlock form={form} initialValues={initialValues} mode={mode} classIds={selectedClassIds} />
          </Card>,
        ]}
        placeholderHeight={LATER_CARDS_PLACEHOLDER_PX}
      />
    </Flex>
  );
}
