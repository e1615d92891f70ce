/**
 * The diff of a dry run (DESIGN §15; issue 13 point 3): per target its changes
 * (field by its label, old value, new value (versions as `branch / hash`) and, for versions, the commit or build it
 * resolves to now; in machine mode what the machine runs now), and the targets a rule refuses, highlighted with the rule.
 * Targets without changes show "No change". Paged by 10 rows.
 */
import { Alert, Table, Tag, Typography, type TableProps } from 'antd';
import type { TBatchResult } from '@fleet/contracts';
import { FieldName, FieldValue } from '../../../components/FieldName';
import { versionLabel } from '../../software-versions/version-format';

interface Row {
  key: string;
  target: string;
  field: string;
  oldValue: unknown;
  newValue: unknown;
  resolved: string | null | undefined;
  running: string | null | undefined;
  refused: string | null;
}

/** One row per change of each target; a refused target or one without changes has one row. */
export function changeRows(result: TBatchResult): Row[] {
  return result.targets.flatMap((t): Row[] => {
    if (t.refused !== null || t.changes.length === 0) {
      return [{ key: `${t.id}`, target: t.name, field: '', oldValue: undefined, newValue: undefined, resolved: undefined, running: undefined, refused: t.refused }];
    }
    return t.changes.map((c, i) => ({ key: `${t.id}-${i}`, target: t.name, field: c.field, oldValue: c.oldValue, newValue: c.newValue, resolved: c.resolved, running: c.running, refused: null }));
  });
}

/** Columns after Field that a refused or unchanged target's row spans. */
const spanned = (r: Row) => ({ colSpan: r.refused !== null || r.field === '' ? 0 : 1 });

const COLUMNS: TableProps<Row>['columns'] = [
  { key: 'target', title: 'Target', dataIndex: 'target', width: 220 },
  {
    key: 'field',
    title: 'Field',
    render: (_, r) =>
      r.refused !== null ? (
        <Typography.Text type="danger">
          <Tag color="error">Refused</Tag>
          {r.refused}
        </Typography.Text>
      ) : r.field === '' ? (
        <Typography.Text type="secondary">No change</Typography.Text>
      ) : (
        <FieldName field={r.field} />
      ),
    onCell: (r) => ({ colSpan: r.refused !== null || r.field === '' ? 5 : 1 }),
  },
  { key: 'old', title: 'Old value', render: (_, r) => <FieldValue field={r.field} value={r.oldValue} />, onCell: spanned },
  { key: 'new', title: 'New value', render: (_, r) => <FieldValue field={r.field} value={r.newValue} />, onCell: spanned },
  {
    key: 'resolved',
    title: 'Resolves to',
    render: (_, r) => (r.resolved ? <Typography.Text code>{versionLabel(r.resolved)}</Typography.Text> : ''),
    onCell: spanned,
  },
  {
    key: 'running',
    title: 'Runs now',
    render: (_, r) => (r.running ? <Typography.Text code>{versionLabel(r.running)}</Typography.Text> : ''),
    onCell: spanned,
  },
];

export function ChangesTable({ result }: { result: TBatchResult }) {
  const rows = changeRows(result);
  return (
    <>
      <Alert
        type={result.refused > 0 ? 'warning' : 'info'}
        showIcon
        style={{ marginBottom: 12 }}
        title={`${result.changed} of ${result.targets.length} targets change${result.refused > 0 ? `; ${result.refused} refused` : ''}`}
        description={result.refused > 0 ? 'The update is all or nothing: deselect the refused targets to go on.' : undefined}
      />
      <Table<Row>
        size="small"
        rowKey="key"
        aria-label="Changes of the dry run"
        columns={COLUMNS}
        dataSource={rows}
        rowClassName={(r) => (r.refused !== null ? 'updater-refused-row' : '')}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
      />
    </>
  );
}
