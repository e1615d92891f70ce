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
 *
 * With `scrollY` the table is virtual (antd's `virtual`: only the rows in
 * view and a few past them are in the page, as `div`s with fixed column
 * widths, `machineTableWidth`): a page of 100 machines rendered and laid out
 * every row at once, 1.3 s of script and 0.5 s of layout on a 2-core machine
 * (the Updater's Total Blocking Time, issue 26).
 *
 * Known limitations of the virtual table: its body rows are `div`s, not table
 * rows (a screen reader reads them as text; every control keeps its name,
 * e.g. `Turbo for {machine}`), and rows out of view are not in the page, so
 * Tab goes from the last row in view to the pagination: the others are
 * reached by scrolling the list.
 */
import { Table, Typography } from 'antd';
import { InertInMeasureRow } from '../../../components/InertInMeasureRow';
import type { TMachine } from '@fleet/contracts';
import { machineRowClass } from '../machine-status';
import { machineColumns, machineTableWidth, type ColumnContext } from './machine-columns';
import { useActionsColumnFixed } from '../../../lib/use-mobile-layout';
import { useDeferredRows } from '../../../lib/use-deferred-rows';
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
  /** How many rows the first page will have, when known (an account's machine count): the table keeps their height while it loads. */
  expectedRows?: number;
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
  expectedRows,
  onPageChange,
  onSelect,
  ...ctx
}: Props) {
  const actionsFixed = useActionsColumnFixed();
  // No long task when a page of 100 arrives.
  const { rows, pending } = useDeferredRows(items, loading);
  // While the first page loads, the space its rows will take (no jump of what is below; issue 26).
  const reserved = pending && rows.length === 0 && expectedRows ? reservedHeight(Math.min(expectedRows, pageSize), scrollY) : undefined;
  const columns = machineColumns({ ...ctx, actionsFixed });
  const virtual = scrollY !== undefined;
  return (
    <div style={{ minHeight: reserved }}>
      <Table<TMachine>
        rowKey="id"
        size="small"
        className="machines-table"
        columns={columns}
        dataSource={rows}
        loading={loading}
        virtual={virtual}
        scroll={{ x: virtual ? machineTableWidth(columns) : 'max-content', y: scrollY }}
        rowClassName={machineRowClass}
        rowSelection={{
          selectedRowKeys: selectedIds,
          preserveSelectedRowKeys: preserveSelection,
          onChange: (keys) => onSelect(keys.map(Number)),
          getCheckboxProps: (m) => ({ 'aria-label': `Select ${m.name}` }),
          columnTitle: (checkbox) => <InertInMeasureRow>{checkbox}</InertInMeasureRow>,
        }}
        expandable={{
          // The expand column's header: its cells (the row's details button) have a header to name them (td-has-header).
          columnTitle: <span className="visually-hidden">Details</span>,
          expandedRowRender: (m) => <pre className="machine-json">{JSON.stringify(m, null, 2)}</pre>,
        }}
        locale={{ emptyText: pending ? ' ' : <Typography.Text type="secondary">{emptyText ?? EMPTY_MACHINES_TEXT}</Typography.Text> }}
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
    </div>
  );
}

/** Pixels of the small machine table: header, rows, pagination with its margins (measured at 1440 px). */
const TABLE_HEAD_PX = 39;
const MACHINE_ROW_PX = 41;
const PAGINATION_PX = 56;

/** The height of the machine table with `rows` rows, its body at most `scrollY` high. */
function reservedHeight(rows: number, scrollY: number | undefined): number {
  const body = rows * MACHINE_ROW_PX;
  return TABLE_HEAD_PX + (scrollY === undefined ? body : Math.min(body, scrollY)) + PAGINATION_PX;
}
