/**
 * The machines panel (spec 2 §2.2–2.4; spec 1 §2 Edit account, Machines tab),
 * reusable by the updater: controls (Refresh; Create Machine with write
 * permission and an account; Notification, enabled once machines are selected;
 * Poll update, reloading the list every `pollMs`), the machine table, and the
 * dialog of the row menu's chosen action.
 *
 * The row menu and the dialogs come from the action table (`machine-actions.tsx`):
 * the panel only keeps which action is open for which machine, asks the
 * unmanaged / panicked warning before an operation (spec 2 §5), and mounts the
 * action's dialog. A row's Start runs at once; its Stop asks first
 * (`StopDialog`: stopping takes the machine's sites offline). Pending
 * operations are approved or cancelled from the status column (spec 2 §2.2, §4).
 *
 * Live updates come from the push channel (`useTaskHub`: tasks and operations);
 * while it is down the list polls every 2 s as long as a task is unfinished.
 */
import { useState } from 'react';
import { Button, Checkbox, Flex, Tooltip } from 'antd';
import { NotificationOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { MACHINE_PAGE_SIZE, MACHINE_POLL_MS, type TMachine } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useResetFailureState, useStartMachine, useUpdateMachineSwitch } from './api/mutations';
import { useDecideOperation } from './api/operation-mutations';
import { useMachines } from './api/queries';
import { useTaskHub } from './api/task-hub';
import { CreateMachineDialog } from './components/CreateMachineDialog';
import { MachinesTable } from './components/MachinesTable';
import { NotificationDialog } from './components/NotificationDialog';
import { useOperationWarning } from './components/operation-warning';
import { MACHINE_ACTIONS, offeredActions, type ActionContext, type DialogAction, type MachineAction } from './machine-actions';
import { StopDialog } from './operations/ConfirmActionDialog';

export interface MachinesPanelProps {
  /** Machines of this account (and Create Machine); absent: every machine the user may see. */
  accountId?: number;
  /** Poll update interval, milliseconds (spec 2 §2.2: 30 s on the edit-account screen). */
  pollMs?: number;
  /** Adds the Account column (spec 2 §2.2 optional columns). */
  showAccount?: boolean;
}

type PanelDialog =
  | { kind: 'create' }
  | { kind: 'notification' }
  | { kind: 'stop'; machine: TMachine }
  | { kind: 'action'; action: DialogAction; machine: TMachine };

export function MachinesPanel({ accountId, pollMs = MACHINE_POLL_MS, showAccount = false }: MachinesPanelProps) {
  const { canWrite, hasPermission } = useAuth();
  const [warnFirst, warningHolder] = useOperationWarning();
  const [page, setPage] = useState(1);
  const [poll, setPoll] = useState(false);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [dialog, setDialog] = useState<PanelDialog | undefined>(undefined);

  useTaskHub();
  const machines = useMachines(
    { accountId, startIndex: (page - 1) * MACHINE_PAGE_SIZE, limit: MACHINE_PAGE_SIZE },
    { pollMs: poll ? pollMs : undefined },
  );
  const start = useStartMachine();
  const resetFailure = useResetFailureState();
  const decide = useDecideOperation();
  const toggle = useUpdateMachineSwitch();
  const items = machines.data?.items ?? [];
  // Machines selected on this page and still listed (a terminated one leaves the list).
  const selected = selectedIds.filter((id) => items.some((m) => m.id === id));
  const actions = offeredActions(MACHINE_ACTIONS, hasPermission);
  const context: ActionContext = { resetFailure: (m) => resetFailure.mutate(m) };

  const onAction = (action: MachineAction, machine: TMachine) => {
    const open = () => {
      if (action.kind === 'dialog') setDialog({ kind: 'action', action, machine });
      else if (action.kind === 'run') action.run(machine, context);
    };
    if (action.operation) warnFirst(machine, open);
    else open();
  };

  const ActionDialog = dialog?.kind === 'action' ? dialog.action.Dialog : undefined;

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Button icon={<ReloadOutlined aria-hidden />} loading={machines.isFetching} onClick={() => void machines.refetch()}>
          Refresh
        </Button>
        {canWrite && accountId !== undefined && (
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => setDialog({ kind: 'create' })}>
            Create Machine
          </Button>
        )}
        <Tooltip title={selected.length === 0 ? 'Select machines first' : undefined}>
          <Button
            icon={<NotificationOutlined aria-hidden />}
            disabled={selected.length === 0}
            onClick={() => setDialog({ kind: 'notification' })}
          >
            Notification
          </Button>
        </Tooltip>
        <Checkbox checked={poll} onChange={(e) => setPoll(e.target.checked)}>
          Poll update
        </Checkbox>
      </Flex>
      <MachinesTable
        items={machines.isError ? [] : items}
        total={machines.isError ? 0 : (machines.data?.totalItems ?? 0)}
        loading={machines.isLoading}
        emptyText={machines.isError ? 'Machines could not be loaded' : accountId === undefined ? 'No machines' : undefined}
        page={page}
        pageSize={MACHINE_PAGE_SIZE}
        selectedIds={selectedIds}
        onPageChange={setPage}
        onSelect={setSelectedIds}
        canWrite={canWrite}
        showAccount={showAccount}
        resettingId={resetFailure.isPending ? resetFailure.variables.id : undefined}
        onResetFailure={(m) => resetFailure.mutate(m)}
        decidingId={decide.isPending ? decide.variables.operation.id : undefined}
        onDecide={(operation, decision) => decide.mutate({ operation, decision })}
        onToggle={(machine, field, value) => toggle.mutate({ machine, field, value })}
        onStart={(m) => start.mutate(m)}
        onStop={(m) => setDialog({ kind: 'stop', machine: m })}
        actions={actions}
        onAction={onAction}
        onViewTasks={(m) => {
          const tasks = MACHINE_ACTIONS.find((a): a is DialogAction => a.key === 'view-tasks' && a.kind === 'dialog');
          if (tasks) setDialog({ kind: 'action', action: tasks, machine: m });
        }}
      />
      {dialog?.kind === 'create' && accountId !== undefined && <CreateMachineDialog accountId={accountId} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'notification' && (
        <NotificationDialog machines={items} selectedIds={selected} canWrite={canWrite} onClose={() => setDialog(undefined)} />
      )}
      {dialog?.kind === 'stop' && <StopDialog key={`stop-${dialog.machine.id}`} machine={dialog.machine} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'action' && ActionDialog && (
        <ActionDialog key={`${dialog.action.key}-${dialog.machine.id}`} machine={dialog.machine} onClose={() => setDialog(undefined)} />
      )}
      {warningHolder}
    </Flex>
  );
}
