/**
 * The one action table of the machine row menu (spec 2 §2.3, §5, §6; STYLE
 * "Menus and dialogs from a table"): label, icon, permission, group, when it is
 * disabled, whether it runs an operation (the unmanaged / panicked warning of
 * spec 2 §5 comes first), and what it opens:
 *
 * - `dialog`: a component taking `{machine, onClose}`, mounted per opening
 *   (confirmations are dialogs too: terminate, recreate, reset last operation);
 * - `link`: a page opened in a new browser tab (View operations);
 * - `run`: a call made at once through the panel's context (Reset failure).
 *
 * The row menu (`MachineActions`) and the panel (`MachinesPanel`) both read this
 * table: adding an action is one entry here.
 *
 * The menu shows the table's groups in the order of `ACTION_GROUPS`
 * (Diagnostics, Data, Configuration, Lifecycle), each under its title, its
 * entries in the table's order. Destructive entries (`danger`: what they undo
 * cannot be had back — Restore backup and Reinstall sample data overwrite the
 * site's data, Reset last operation ends the operation as failed, Recreate
 * replaces the instance, Terminate ends the machine) come last in their group
 * and in red, so the menu ends with Recreate and Terminate.
 *
 * With write permission every entry is offered; without it only View
 * operations (spec 2 §2.3 "Without write permission a user can refresh, see
 * notifications and view operations"; refresh and notifications are the
 * panel's own buttons).
 */
import { type ComponentType, type ReactNode } from 'react';
import {
  ApartmentOutlined,
  CloudDownloadOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  ExperimentOutlined,
  ExportOutlined,
  FileTextOutlined,
  HddOutlined,
  InfoCircleOutlined,
  KeyOutlined,
  LoadingOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  RollbackOutlined,
  SaveOutlined,
  SettingOutlined,
  StopOutlined,
  SwapOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { PERMISSION_WRITE, type TMachine } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { hasUnfinished, isBusy } from './machine-status';
import { RecreateDialog, ResetLastOperationDialog, TerminateDialog } from './operations/ConfirmActionDialog';
import type { MachineDialogProps } from './operations/OperationDialog';
import { lazyNamed } from '../../lib/lazy-named';

/** The row menu's groups, in menu order, with their titles. */
export const ACTION_GROUPS = [
  { key: 'diagnostics', title: 'Diagnostics' },
  { key: 'data', title: 'Data' },
  { key: 'configuration', title: 'Configuration' },
  { key: 'lifecycle', title: 'Lifecycle' },
] as const;

export type ActionGroup = (typeof ACTION_GROUPS)[number]['key'];

/** What a `run` action may call: the panel's shared calls. */
export interface ActionContext {
  resetFailure(machine: TMachine): void;
}

interface ActionBase {
  key: string;
  label: string;
  icon(machine: TMachine): ReactNode;
  /** Permission the user must hold to be offered it (spec 2 §6); none: everyone. */
  permission?: string;
  /** Menu group, shown under its title (`ACTION_GROUPS`). */
  group: ActionGroup;
  /** Destructive (cannot be undone): red, and after the others of its group. */
  danger?: boolean;
  disabled?(machine: TMachine): boolean;
  /** It queues an operation: warn first on an unmanaged or panicked machine (spec 2 §5). */
  operation?: boolean;
}

export type MachineAction = ActionBase &
  (
    | { kind: 'dialog'; Dialog: ComponentType<MachineDialogProps> }
    | { kind: 'link'; href(machine: Pick<TMachine, 'id'>): string }
    | { kind: 'run'; run(machine: TMachine, ctx: ActionContext): void }
  );

export type DialogAction = Extract<MachineAction, { kind: 'dialog' }>;

/** The Operations viewer filtered to the machine (spec 2 §2.1), a hash route. */
export const operationsViewerHref = (machine: Pick<TMachine, 'id'>) => `#/viewer/operations?machine=${machine.id}`;

const icon = (node: ReactNode) => () => node;
const write = PERMISSION_WRITE;

/*
 * The dialogs load when first opened: a screen with a machine table no longer carries every dialog's code and the
 * antd parts only they use (issue 26, script per route). The panel mounts an action's dialog under Suspense
 * (`MachinesPanel`). The confirmations stay (small, and Stop is the panel's own).
 */
const ChangeInstanceTypeDialog = lazyNamed(() => import('./components/ChangeInstanceTypeDialog'), 'ChangeInstanceTypeDialog');
const ConfigEditorDialog = lazyNamed(() => import('./components/ConfigEditorDialog'), 'ConfigEditorDialog');
const CredentialDialog = lazyNamed(() => import('./components/CredentialDialog'), 'CredentialDialog');
const SwitchClassDialog = lazyNamed(() => import('./components/SwitchClassDialog'), 'SwitchClassDialog');
const TasksDrawer = lazyNamed(() => import('./components/TasksDrawer'), 'TasksDrawer');
const CreateAmiDialog = lazyNamed(() => import('./operations/CreateAmiDialog'), 'CreateAmiDialog');
const ForceBackupDialog = lazyNamed(() => import('./operations/ForceBackupDialog'), 'ForceBackupDialog');
const ForcePopulateDialog = lazyNamed(() => import('./operations/ForcePopulateDialog'), 'ForcePopulateDialog');
const OperationLogsDialog = lazyNamed(() => import('./operations/OperationLogsDialog'), 'OperationLogsDialog');
const PublishSampleDataDialog = lazyNamed(() => import('./operations/PublishSampleDataDialog'), 'PublishSampleDataDialog');
const QueueOperationsDialog = lazyNamed(() => import('./operations/QueueOperationsDialog'), 'QueueOperationsDialog');
const ReinstallSampleDataDialog = lazyNamed(() => import('./operations/ReinstallSampleDataDialog'), 'ReinstallSampleDataDialog');
const RestoreBackupDialog = lazyNamed(() => import('./operations/RestoreBackupDialog'), 'RestoreBackupDialog');
const ServerStatusDialog = lazyNamed(() => import('./operations/ServerStatusDialog'), 'ServerStatusDialog');
const TestLatestCodeDialog = lazyNamed(() => import('./operations/TestLatestCodeDialog'), 'TestLatestCodeDialog');
const VersionInfoDialog = lazyNamed(() => import('./operations/VersionInfoDialog'), 'VersionInfoDialog');

function ComponentConfigDialog(props: MachineDialogProps) {
  return <ConfigEditorDialog kind="component" {...props} />;
}
function DeployerConfigDialog(props: MachineDialogProps) {
  return <ConfigEditorDialog kind="deployer" {...props} />;
}
function TasksDialog({ machine, onClose }: MachineDialogProps) {
  const { canWrite } = useAuth();
  return <TasksDrawer machine={machine} canWrite={canWrite} onClose={onClose} />;
}

export const MACHINE_ACTIONS: readonly MachineAction[] = [
  // Diagnostics: what the machine is doing, read only.
  { key: 'view-tasks', label: 'View tasks', group: 'diagnostics', permission: write, icon: icon(<UnorderedListOutlined aria-hidden />), kind: 'dialog', Dialog: TasksDialog },
  { key: 'operation-logs', label: 'Operation logs', group: 'diagnostics', permission: write, icon: icon(<FileTextOutlined aria-hidden />), kind: 'dialog', Dialog: OperationLogsDialog },
  { key: 'view-operations', label: 'View operations', group: 'diagnostics', icon: icon(<ExportOutlined aria-hidden />), kind: 'link', href: operationsViewerHref },
  { key: 'version-info', label: 'Version info', group: 'diagnostics', permission: write, icon: icon(<InfoCircleOutlined aria-hidden />), kind: 'dialog', Dialog: VersionInfoDialog },
  { key: 'server-status', label: 'Server status', group: 'diagnostics', permission: write, icon: icon(<HddOutlined aria-hidden />), kind: 'dialog', Dialog: ServerStatusDialog },
  // Data: backups, images and sample data; restoring and reinstalling overwrite the site's data.
  { key: 'force-backup', label: 'Force backup', group: 'data', permission: write, operation: true, icon: icon(<SaveOutlined aria-hidden />), kind: 'dialog', Dialog: ForceBackupDialog },
  { key: 'create-ami', label: 'Create AMI', group: 'data', permission: write, operation: true, icon: icon(<PictureOutlined aria-hidden />), kind: 'dialog', Dialog: CreateAmiDialog },
  { key: 'publish-sample-data', label: 'Publish sample data', group: 'data', permission: write, operation: true, icon: icon(<CloudUploadOutlined aria-hidden />), kind: 'dialog', Dialog: PublishSampleDataDialog },
  { key: 'force-populate', label: 'Force populate', group: 'data', permission: write, operation: true, icon: icon(<ThunderboltOutlined aria-hidden />), kind: 'dialog', Dialog: ForcePopulateDialog },
  { key: 'restore-backup', label: 'Restore backup', group: 'data', permission: write, operation: true, danger: true, icon: icon(<RollbackOutlined aria-hidden />), kind: 'dialog', Dialog: RestoreBackupDialog },
  { key: 'reinstall-sample-data', label: 'Reinstall sample data', group: 'data', permission: write, operation: true, danger: true, icon: icon(<CloudDownloadOutlined aria-hidden />), kind: 'dialog', Dialog: ReinstallSampleDataDialog },
  // Configuration: what the machine is.
  { key: 'change-instance-type', label: 'Change instance type', group: 'configuration', permission: write, icon: icon(<SwapOutlined aria-hidden />), kind: 'dialog', Dialog: ChangeInstanceTypeDialog },
  { key: 'switch-class', label: 'Switch MMA class', group: 'configuration', permission: write, icon: icon(<ApartmentOutlined aria-hidden />), kind: 'dialog', Dialog: SwitchClassDialog },
  { key: 'component-config', label: 'Component configs', group: 'configuration', permission: write, icon: icon(<SettingOutlined aria-hidden />), kind: 'dialog', Dialog: ComponentConfigDialog },
  { key: 'deployer-config', label: 'Deployer config', group: 'configuration', permission: write, icon: icon(<ToolOutlined aria-hidden />), kind: 'dialog', Dialog: DeployerConfigDialog },
  { key: 'credential', label: 'View credential', group: 'configuration', permission: write, icon: icon(<KeyOutlined aria-hidden />), kind: 'dialog', Dialog: CredentialDialog },
  // Lifecycle: operations run, failures reset, the instance replaced or ended (most destructive last).
  { key: 'queue-operations', label: 'Queue operations', group: 'lifecycle', permission: write, operation: true, icon: icon(<OrderedListOutlined aria-hidden />), kind: 'dialog', Dialog: QueueOperationsDialog },
  { key: 'test-latest-code', label: 'Test latest code', group: 'lifecycle', permission: write, operation: true, icon: icon(<ExperimentOutlined aria-hidden />), kind: 'dialog', Dialog: TestLatestCodeDialog },
  {
    key: 'reset-failure',
    label: 'Reset failure',
    group: 'lifecycle',
    permission: write,
    disabled: (m) => !m.needsAdmin && m.failCounter === 0,
    icon: icon(<UndoOutlined aria-hidden />),
    kind: 'run',
    run: (m, ctx) => ctx.resetFailure(m),
  },
  {
    key: 'reset-last-operation',
    label: 'Reset last operation',
    group: 'lifecycle',
    permission: write,
    danger: true,
    icon: icon(<StopOutlined aria-hidden />),
    kind: 'dialog',
    Dialog: ResetLastOperationDialog,
  },
  { key: 'recreate', label: 'Recreate', group: 'lifecycle', permission: write, danger: true, icon: icon(<RedoOutlined aria-hidden />), kind: 'dialog', Dialog: RecreateDialog },
  {
    key: 'terminate',
    label: 'Terminate',
    group: 'lifecycle',
    permission: write,
    danger: true,
    disabled: isBusy,
    icon: (m) => (hasUnfinished(m, ['TerminateMachine']) ? <LoadingOutlined aria-hidden /> : <DeleteOutlined aria-hidden />),
    kind: 'dialog',
    Dialog: TerminateDialog,
  },
];

/** The actions a user holding `hasPermission` is offered, in the table's order. */
export function offeredActions(actions: readonly MachineAction[], hasPermission: (permission: string) => boolean): MachineAction[] {
  return actions.filter((a) => a.permission === undefined || hasPermission(a.permission));
}

/** One group of the row menu: its title and its offered actions, in the table's order. */
export interface ActionMenuGroup {
  key: ActionGroup;
  title: string;
  actions: MachineAction[];
}

/**
 * The offered `actions` as the row menu shows them: the groups of
 * `ACTION_GROUPS` in that order, each with its actions in the table's order;
 * a group with no action offered is left out (a viewer sees Diagnostics only).
 */
export function actionMenuGroups(actions: readonly MachineAction[]): ActionMenuGroup[] {
  return ACTION_GROUPS.map((g) => ({ key: g.key, title: g.title, actions: actions.filter((a) => a.group === g.key) })).filter(
    (g) => g.actions.length > 0,
  );
}
