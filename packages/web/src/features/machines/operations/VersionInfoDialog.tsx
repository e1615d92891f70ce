/**
 * Version Info (spec 2 §2.3, §3 Version state, §8): the machine's current
 * version state per component (`GET /machines/{id}/state-info`), named by its
 * label (Site Master Validator for smchk): branch, short hash and commit time, or None for a component not installed. A failure is
 * silent (spec 2 §8): the dialog says there is no version information.
 */
import { Spin, Table, Typography } from 'antd';
import { VERSION_STATE_COMPONENTS, type TComponentVersion } from '@fleet/contracts';
import { componentLabel } from '../../../lib/field-labels';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { useStateInfo } from '../../operations/api/queries';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

interface Row {
  component: string;
  version: TComponentVersion | null;
}

const none = <Typography.Text type="secondary">None</Typography.Text>;

const COLUMNS = [
  { key: 'component', title: 'Component', render: (_: unknown, r: Row) => componentLabel(r.component) },
  { key: 'branch', title: 'Branch', render: (_: unknown, r: Row) => r.version?.branchName ?? none },
  { key: 'hash', title: 'Commit', render: (_: unknown, r: Row) => (r.version ? <Typography.Text code>{r.version.shortHash}</Typography.Text> : none) },
  { key: 'time', title: 'Time', render: (_: unknown, r: Row) => (r.version ? formatDateTime(r.version.timestamp, DATE_TIME_SECONDS_FORMAT) : '') },
];

export function VersionInfoDialog({ machine, onClose }: MachineDialogProps) {
  const state = useStateInfo(machine.id);
  const components = state.data?.components ?? {};
  // The contract's components first, in their order, then any other the state names.
  const names = [...VERSION_STATE_COMPONENTS, ...Object.keys(components).filter((k) => !(VERSION_STATE_COMPONENTS as readonly string[]).includes(k))];
  const rows: Row[] = names.filter((c) => c in components).map((component) => ({ component, version: components[component] ?? null }));

  return (
    <OperationDialog title="Version Info" machine={machine} readOnly width={720} onClose={onClose}>
      {state.isLoading && <Spin />}
      {state.data && (
        <Typography.Paragraph type="secondary">
          Current since {formatDateTime(state.data.timestamp, DATE_TIME_SECONDS_FORMAT)}
        </Typography.Paragraph>
      )}
      {!state.isLoading && (
        <Table<Row>
          rowKey="component"
          size="small"
          columns={COLUMNS}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: 'No version information' }}
        />
      )}
    </OperationDialog>
  );
}
