/**
 * The machine table (spec 2 §2.2): paged at 100 rows on the server, a select
 * column, rows coloured error when the machine needs admin attention and warning
 * when one of its operations is pending (`machineRowClass`), and an expandable
 * row with the machine's raw JSON. Columns are in `machine-columns`.
 *
 * Optional: `totalCapped` (the total is a lower bound: 'of at least N'),
 * `preserveSelection` (selected rows of other pages stay selected: the
 * Updater's selection across pages and filters) and `scrollY` (the body
 * scrolls under a fixed header past this height, pixels).
 */
import { Table, Typography } from 'antd';
import { InertInMeasureRow } from '../../../components/InertInMeasureRow';
import type { TMachine } from '@fleet/contracts';
import { machineRowClass } from '../machine-status';
import { machineColumns, type ColumnContext } from './machine-columns';
import { useActionsColumnFixed } from '../../../lib/use-mobile-layout';
import './machines.css';

export const EMPTY_MACHINES_TEXT = 'This account has no machines';

interface Props extends Omit<ColumnContext, 'actionsFixed'> {
  items: TMachine[];
  total: number;
  loading: boolean;
  page: number;
  pageSize: number;
  selectedIds: number[];
  emptyText?: string;
  totalCapped?: boolean;
  preserveSelection?: boolean;
  scrollY?: number;
  onPageChange(page: number): void;
  onSelect(ids: number[]): void;
}

export function MachinesTable({
  items,
  total,
  loading,
  page,
  pageSize,
  selectedIds,
  emptyText,
  totalCapped = false,
  preserveSelection = false,
  scrollY,
  onPageChange,
  onSelect,
  ...ctx
}: Props) {
  const actionsFixed = useActionsColumnFixed();
  return (
    <Table<TMachine>
      rowKey="id"
      size="small"
      columns={machineColumns({ ...ctx, actionsFixed })}
      dataSource={items}
      loading={loading}
      scroll={{ x: 'max-content', y: scrollY }}
      rowClassName={machineRowClass}
      rowSelection={{
        selectedRowKeys: selectedIds,
        preserveSelectedRowKeys: preserveSelection,
        onChange: (keys) => onSelect(keys.map(Number)),
        getCheckboxProps: (m) => ({ 'aria-label': `Select ${m.name}` }),
        columnTitle: (checkbox) => <InertInMeasureRow>{checkbox}</InertInMeasureRow>,
      }}
      expandable={{
        expandedRowRender: (m) => <pre className="machine-json">{JSON.stringify(m, null, 2)}</pre>,
      }}
      locale={{ emptyText: loading ? ' ' : <Typography.Text type="secondary">{emptyText ?? EMPTY_MACHINES_TEXT}</Typography.Text> }}
      pagination={{
        current: page,
        pageSize,
        total,
        showSizeChanger: false,
        hideOnSinglePage: false,
        showTotal: (n, [from, to]) => `${from}-${to} of ${totalCapped ? 'at least ' : ''}${n} machines`,
        onChange: onPageChange,
      }}
    />
  );
}
