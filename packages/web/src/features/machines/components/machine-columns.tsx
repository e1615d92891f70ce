/**
 * Columns of the machine table (spec 2 §2.2): id, (account), name with its
 * class tag, status, tasks count, bundle version, instance state, the switches
 * managed / maintenance / turbo / smoke test / oversee termination, launcher
 * flag, site name, instance id, instance type with storage size, IP address and
 * actions (Start / Stop with write permission, and the row menu of the actions the
 * user is offered: without write permission, View operations only). The select column is the table's row selection.
 *
 * Tasks count is the number of the machine's unfinished (New or Running)
 * tasks; it is a button opening the tasks drawer, for every user.
 *
 * The switches change the machine only with write permission; without it they
 * show the value, disabled. Each has an accessible name such as
 * `Managed for {machine name}`.
 */
import { Button, Switch, Tag, Typography, type TableProps } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import type { TInstanceState, TMachine, TOperation, TOperationDecision } from '@fleet/contracts';
import type { MachineSwitch } from '../api/mutations';
import { unfinishedTasks } from '../machine-status';
import type { MachineAction } from '../machine-actions';
import { MachineActions } from './MachineActions';
import { MachineStatusCell } from './MachineStatusCell';
import { PINNED_ACTIONS_CLASS } from '../../../lib/use-mobile-layout';

type Column = NonNullable<TableProps<TMachine>['columns']>[number];

/** Switch columns: field, column title, the word of the accessible name, and the width that keeps the title on one line (px). */
export const SWITCHES: { field: MachineSwitch; title: string; label: string; width: number }[] = [
  { field: 'managed', title: 'Managed', label: 'Managed', width: 100 },
  { field: 'manualMaintenance', title: 'Maintenance', label: 'Maintenance', width: 120 },
  { field: 'turbo', title: 'Turbo', label: 'Turbo', width: 90 },
  { field: 'runSmokeTest', title: 'Smoke test', label: 'Run smoke test', width: 110 },
  { field: 'overseeTermination', title: 'Oversee termination', label: 'Oversee termination', width: 170 },
];

const INSTANCE_COLORS: Record<TInstanceState, string> = {
  pending: 'processing',
  running: 'success',
  stopping: 'processing',
  stopped: 'default',
  'shutting-down': 'warning',
  terminated: 'error',
};

export interface ColumnContext {
  canWrite: boolean;
  /** Where the actions column is pinned (`useActionsColumnFixed`: not on a phone, where it would cover the name). */
  actionsFixed: 'end' | undefined;
  showAccount: boolean;
  resettingId: number | undefined;
  onResetFailure(machine: TMachine): void;
  /** The operation whose decision call is under way (its Proceed / Cancel show progress). */
  decidingId: number | undefined;
  onDecide(operation: TOperation, decision: TOperationDecision): void;
  onToggle(machine: TMachine, field: MachineSwitch, value: boolean): void;
  onViewTasks(machine: TMachine): void;
  onStart(machine: TMachine): void;
  onStop(machine: TMachine): void;
  /** The action table entries offered to the user. */
  actions: readonly MachineAction[];
  onAction(action: MachineAction, machine: TMachine): void;
}

const none = <Typography.Text type="secondary">—</Typography.Text>;

/**
 * The table's width, pixels: its columns' widths and antd's selection (32) and
 * expand (48) columns. A virtual table (`MachinesTable` with `scrollY`) needs it
 * as a number.
 */
export function machineTableWidth(columns: readonly Column[]): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 32 + 48);
}

export function machineColumns(ctx: ColumnContext): Column[] {
  const columns: Column[] = [
    { key: 'id', title: 'ID', dataIndex: 'id', width: 70 },
    ...(ctx.showAccount ? [{ key: 'account', title: 'Account', dataIndex: ['account', 'name'], width: 160, ellipsis: true } satisfies Column] : []),
    {
      key: 'name',
      title: 'Name',
      width: 300,
      // A long name is cut, its class tag kept in view.
      render: (_, m) => (
        <span className="machine-name-cell">
          <span className="machine-name" title={m.name}>
            {m.name}
          </span>
          <Tag>{m.class.name}</Tag>
        </span>
      ),
    },
    {
      key: 'status',
      title: 'Status',
      width: 330,
      render: (_, m) => (
        <MachineStatusCell
          machine={m}
          canWrite={ctx.canWrite}
          resetting={ctx.resettingId === m.id}
          decidingId={ctx.decidingId}
          onResetFailure={ctx.onResetFailure}
          onDecide={ctx.onDecide}
        />
      ),
    },
    {
      key: 'tasks',
      title: 'Tasks',
      width: 70,
      render: (_, m) => (
        // The name starts with the count it shows (label in name, WCAG 2.5.3).
        <Button size="small" type="link" aria-label={`${unfinishedTasks(m).length} — Tasks of ${m.name}`} onClick={() => ctx.onViewTasks(m)}>
          {unfinishedTasks(m).length}
        </Button>
      ),
    },
    { key: 'bundleVersion', title: 'Bundle version', dataIndex: 'bundleVersion', width: 140, ellipsis: true, render: (v: string | null) => v ?? none },
    {
      key: 'instance',
      title: 'Instance',
      width: 110,
      render: (_, m) => (m.instance ? <Tag color={INSTANCE_COLORS[m.instance.status]}>{m.instance.status}</Tag> : none),
    },
    ...SWITCHES.map(
      ({ field, title, label, width }): Column => ({
        key: field,
        title,
        align: 'center',
        width,
        render: (_, m) => (
          <Switch
            size="small"
            checked={m[field]}
            disabled={!ctx.canWrite}
            aria-label={`${label} for ${m.name}`}
            onChange={(value) => ctx.onToggle(m, field, value)}
          />
        ),
      }),
    ),
    {
      key: 'isLauncher',
      title: 'Launcher',
      width: 90,
      align: 'center',
      render: (_, m) => (m.isLauncher ? <CheckOutlined aria-label="Launcher" /> : null),
    },
    { key: 'siteName', title: 'Site', dataIndex: 'siteName', width: 180, ellipsis: true, render: (v: string | null) => v ?? none },
    { key: 'cloudId', title: 'Instance ID', width: 190, ellipsis: true, render: (_, m) => m.instance?.cloudId ?? none },
    {
      key: 'instanceType',
      title: 'Instance type',
      width: 190,
      ellipsis: true,
      render: (_, m) => (m.cloudInstanceType ? `${m.cloudInstanceType.name} (${m.cloudInstanceType.storageSize} GB)` : none),
    },
    { key: 'ipAddress', title: 'IP address', width: 130, render: (_, m) => m.instance?.ipAddress || none },
  ];
  if (ctx.canWrite || ctx.actions.length > 0) {
    columns.push({
      key: 'actions',
      title: 'Actions',
      width: 130,
      fixed: ctx.actionsFixed,
      className: ctx.actionsFixed ? PINNED_ACTIONS_CLASS : undefined,
      render: (_, m) => (
        <MachineActions machine={m} actions={ctx.actions} canWrite={ctx.canWrite} onStart={ctx.onStart} onStop={ctx.onStop} onAction={ctx.onAction} />
      ),
    });
  }
  return columns;
}
