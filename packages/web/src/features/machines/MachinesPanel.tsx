/**
 * The machines panel (spec 2 §2.2–2.4; spec 1 §2 Edit account, Machines tab),
 * reusable by the updater: controls (Refresh; Create Machine with write
 * permission and an account; Notification, enabled once machines are selected;
 * Poll update, reloading the list every `pollMs`), the machine table, its
 * confirmations and dialogs, and the tasks drawer.
 *
 * Live updates come from the push channel (`useTaskHub`); while it is down the
 * list polls every 2 s as long as a task is unfinished.
 *
 * Confirmations (spec 2 §5): terminate and recreate ask first; switching the
 * MMA class asks in its dialog. The row menu also opens the Component Configs
 * and Deployer Config editors and the Credential dialog (spec 2 §2.3).
 */
import { useState } from 'react';
import { Button, Checkbox, Flex, Modal, Tooltip } from 'antd';
import { NotificationOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { MACHINE_PAGE_SIZE, MACHINE_POLL_MS, type TMachine } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import {
  useRecreateMachine,
  useResetFailureState,
  useStartMachine,
  useStopMachine,
  useTerminateMachine,
  useUpdateMachineSwitch,
} from './api/mutations';
import { useMachines } from './api/queries';
import { useTaskHub } from './api/task-hub';
import { ChangeInstanceTypeDialog } from './components/ChangeInstanceTypeDialog';
import { ConfigEditorDialog } from './components/ConfigEditorDialog';
import { CreateMachineDialog } from './components/CreateMachineDialog';
import { CredentialDialog } from './components/CredentialDialog';
import type { MachineMenuAction } from './components/MachineActions';
import { MachinesTable } from './components/MachinesTable';
import { NotificationDialog } from './components/NotificationDialog';
import { SwitchClassDialog } from './components/SwitchClassDialog';
import { TasksDrawer } from './components/TasksDrawer';

export const terminateConfirmText = (name: string) => `This will terminate machine ${name} and its cloud instance.`;
export const recreateConfirmText = (name: string) => `This will replace the cloud instance of machine ${name} with a new one.`;

export interface MachinesPanelProps {
  /** Machines of this account (and Create Machine); absent: every machine the user may see. */
  accountId?: number;
  /** Poll update interval, milliseconds (spec 2 §2.2: 30 s on the edit-account screen). */
  pollMs?: number;
  /** Adds the Account column (spec 2 §2.2 optional columns). */
  showAccount?: boolean;
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'notification' }
  | { kind: 'instance-type' | 'switch-class' | 'component-config' | 'deployer-config' | 'credential'; machine: TMachine };

export function MachinesPanel({ accountId, pollMs = MACHINE_POLL_MS, showAccount = false }: MachinesPanelProps) {
  const { canWrite } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const [page, setPage] = useState(1);
  const [poll, setPoll] = useState(false);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined);
  const [tasksOf, setTasksOf] = useState<{ id: number; name: string } | undefined>(undefined);

  useTaskHub();
  const machines = useMachines(
    { accountId, startIndex: (page - 1) * MACHINE_PAGE_SIZE, limit: MACHINE_PAGE_SIZE },
    { pollMs: poll ? pollMs : undefined },
  );
  const start = useStartMachine();
  const stop = useStopMachine();
  const terminate = useTerminateMachine();
  const recreate = useRecreateMachine();
  const resetFailure = useResetFailureState();
  const toggle = useUpdateMachineSwitch();
  const items = machines.data?.items ?? [];
  // Machines selected on this page and still listed (a terminated one leaves the list).
  const selected = selectedIds.filter((id) => items.some((m) => m.id === id));

  const confirm = (title: string, content: string, okText: string, onOk: () => Promise<unknown>) =>
    void modal.confirm({
      title,
      content,
      okText,
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      // The toast reports a failure; the dialog closes either way.
      onOk: () => onOk().catch(() => undefined),
    });

  const onMenu = (action: MachineMenuAction, machine: TMachine) => {
    switch (action) {
      case 'terminate':
        confirm('Terminate machine', terminateConfirmText(machine.name), 'Terminate', () => terminate.mutateAsync(machine));
        break;
      case 'recreate':
        confirm('Recreate machine', recreateConfirmText(machine.name), 'Recreate', () => recreate.mutateAsync(machine));
        break;
      case 'change-instance-type':
        setDialog({ kind: 'instance-type', machine });
        break;
      case 'switch-class':
      case 'component-config':
      case 'deployer-config':
      case 'credential':
        setDialog({ kind: action, machine });
        break;
      case 'view-tasks':
        setTasksOf(machine);
        break;
    }
  };

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
        onToggle={(machine, field, value) => toggle.mutate({ machine, field, value })}
        onViewTasks={setTasksOf}
        onStart={(m) => start.mutate(m)}
        onStop={(m) => stop.mutate(m)}
        onMenu={onMenu}
      />
      {dialog?.kind === 'create' && accountId !== undefined && <CreateMachineDialog accountId={accountId} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'instance-type' && <ChangeInstanceTypeDialog machine={dialog.machine} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'switch-class' && <SwitchClassDialog machine={dialog.machine} onClose={() => setDialog(undefined)} />}
      {(dialog?.kind === 'component-config' || dialog?.kind === 'deployer-config') && (
        <ConfigEditorDialog
          key={`${dialog.kind}-${dialog.machine.id}`}
          kind={dialog.kind === 'component-config' ? 'component' : 'deployer'}
          machine={dialog.machine}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog?.kind === 'credential' && <CredentialDialog machine={dialog.machine} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'notification' && (
        <NotificationDialog machines={items} selectedIds={selected} canWrite={canWrite} onClose={() => setDialog(undefined)} />
      )}
      <TasksDrawer machine={tasksOf} canWrite={canWrite} onClose={() => setTasksOf(undefined)} />
      {modalHolder}
    </Flex>
  );
}
