/**
 * The Compare Versions dialog (spec 1 §2 Instance Settings card, §9 dialog width
 * 1000): a table with a row per component of the Component Versions card (in its
 * order), then the bundle version and the main and account library modes, and a
 * column of the current (form) values plus one column per chosen template.
 *
 * Templates are the instance-settings templates and template accounts of
 * `GET /template/instance-settings`, chosen in the Templates box. A version cell
 * reads "Latest ({branch})", "Select: {version}" (a build URL as the zip's file
 * name) or the mode;
 * cells that differ from the current value are highlighted.
 */
import { useState } from 'react';
import { Flex, Modal, Select, Table, Typography, type TableColumnsType } from 'antd';
import { COMPONENT_LABELS, type TMachineConfigInput } from '@fleet/contracts';
import { useTemplates } from '../templates/api/queries';
import { CARD_COMPONENTS } from './card-components';
import { effectiveLatestBranch, modeLabel, versionLabel } from './version-format';

export const COMPARE_VERSIONS_WIDTH = 1000;

/** Instance settings to compare (flattened machineConfig fields). */
type SettingValues = Partial<TMachineConfigInput> & Record<string, unknown>;

export interface CompareVersionsDialogProps {
  open: boolean;
  /** The current instance settings (the form's values). */
  current: SettingValues;
  onClose(): void;
}

interface Row {
  key: string;
  label: string;
  read(values: Record<string, unknown>): string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

const ROWS: Row[] = [
  ...CARD_COMPONENTS.map(
    (c): Row => ({
      key: c,
      label: COMPONENT_LABELS[c],
      read: (v) => versionText(text(v[`${c}VersionMode`]) || 'Latest', text(v[`${c}Version`])),
    }),
  ),
  { key: 'bundleVersion', label: 'Bundle version', read: (v) => text(v.bundleVersion) || '—' },
  {
    key: 'mainLibrary',
    label: 'Main library',
    read: (v) => libraryText(text(v.mainLibraryMode) || 'None', v.mainLibraryFiles),
  },
  {
    key: 'accountLibrary',
    label: 'Account library',
    read: (v) => libraryText(text(v.accountLibraryMode) || 'None', v.accountLibraryFiles),
  },
];

/** "Latest (release/8.1)", "Latest (any branch)", "Select: {version}", or the mode. */
function versionText(mode: string, version: string): string {
  if (mode === 'Latest') {
    return `Latest (${effectiveLatestBranch(version) || 'any branch'})`;
  }
  if (version) return `${modeLabel(mode)}: ${versionLabel(version)}`;
  return modeLabel(mode);
}

function libraryText(mode: string, files: unknown): string {
  const count = Array.isArray(files) ? files.length : 0;
  const label = modeLabel(mode);
  return count > 0 ? `${label}: ${count} file${count === 1 ? '' : 's'}` : label;
}

export function CompareVersionsDialog({ open, current, onClose }: CompareVersionsDialogProps) {
  const stored = useTemplates('instance-settings', open);
  const [chosenIds, setChosenIds] = useState<number[]>([]);

  const options = (stored.data ?? []).map((t) => ({
    value: t.id,
    label: t.isTemplate ? t.name : `${t.name} (account)`,
  }));
  const compared = chosenIds.flatMap((id) => {
    const t = stored.data?.find((x) => x.id === id);
    return t ? [{ name: t.name, values: t as SettingValues }] : [];
  });

  const columns: TableColumnsType<Row> = [
    { title: 'Component', dataIndex: 'label', width: 180, fixed: 'left' },
    { title: 'Current', key: 'current', render: (_: unknown, row) => row.read(current) },
    ...compared.map((t, i) => ({
      title: t.name,
      key: `template-${i}`,
      render: (_: unknown, row: Row) => {
        const value = row.read(t.values);
        return value === row.read(current) ? value : <Typography.Text mark>{value}</Typography.Text>;
      },
    })),
  ];

  return (
    <Modal open={open} title="Compare Versions" width={COMPARE_VERSIONS_WIDTH} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical gap={12}>
        <Select
          aria-label="Templates to compare"
          mode="multiple"
          allowClear
          placeholder="Choose templates to compare"
          loading={stored.isLoading}
          value={chosenIds}
          onChange={setChosenIds}
          options={options}
          optionFilterProp="label"
          style={{ width: '100%' }}
        />
        <Table<Row> size="small" rowKey="key" columns={columns} dataSource={ROWS} pagination={false} scroll={{ x: 'max-content' }} />
      </Flex>
    </Modal>
  );
}
