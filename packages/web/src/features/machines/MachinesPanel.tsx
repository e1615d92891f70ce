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
 *
 * Embedded in the Updater's machine mode (spec 2 §2.1, spec 3 §2.8) it lists
 * machines of many accounts: no `accountId`, a `filter` (`GET
 * /machines?classIds&search`; a new filter shows page 1), the Account column,
 * and the Updater's `selection` (kept across pages and filters; Notification
 * then targets all of it). `onPage` tells the owner each page loaded (rows,
 * total, whether the total is a lower bound).
 */
import { Suspense, useEffect, useState } from 'react';
import { Button, Checkbox, Flex, Tooltip } from 'antd';
import { NotificationOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { MACHINE_PAGE_SIZE, MACHINE_POLL_MS, type TMachine } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useResetFailureState, useStartMachine, useUpdateMachineSwitch } from './api/mutations';
import { useDecideOperation } from './api/operation-mutations';
import type { MachineListFilter } from './api/keys';
import { useMachines } from './api/queries';
import { useTaskHub } from './api/task-hub';
import { MachinesTable } from './components/MachinesTable';
import { useOperationWarning } from './components/operation-warning';
import { MACHINE_ACTIONS, offeredActions, type ActionContext, type DialogAction, type MachineAction } from './machine-actions';
import { StopDialog } from './operations/ConfirmActionDialog';
import { lazyNamed } from '../../lib/lazy-named';

export interface MachinesPanelProps {
  /** Machines of this account (and Create Machine); absent: every machine the user may see. */
  accountId?: number;
  /** Poll update interval, milliseconds (spec 2 §2.2: 30 s on the edit-account screen). */
  pollMs?: number;
  /** Adds the Account column (spec 2 §2.2 optional columns). */
  showAccount?: boolean;
  /** Without `accountId`: only the machines matching it (the Updater's class filter and search). */
  filter?: MachineListFilter;
  /** A selection the owner keeps (the Updater's targets); absent: the panel keeps its own, of the page shown. */
  selection?: MachineSelection;
  /** Called with each page loaded: its machines, the total and whether the total is a lower bound (`totalCapped`). */
  onPage?(page: MachinesPanelPage): void;
  /** The table's text when no machine is listed (default: 'No machines' fleet-wide, else the account's). */
  emptyText?: string;
  /** The table body scrolls under a fixed header past this height, pixels (default: the page grows). */
  scrollY?: number;
  /** How many machines the first page will list, when known (the account's count): their height is kept while they load. */
  expectedRows?: number;
}

/** A selection of machines kept by the panel's owner, across pages and filters. */
export interface MachineSelection {
  ids: number[];
  onChange(ids: number[]): void;
  /** The name of a selected machine that is not on the page shown (Notification's targets); default `Machine {id}`. */
  nameOf?(id: number): string | undefined;
}

/** A page of the panel as loaded: its machines, the number of matches, and whether that number is a lower bound. */
export interface MachinesPanelPage {
  items: TMachine[];
  totalItems: number;
  totalCapped: boolean;
}

// The panel's own dialogs load when first opened, as the row menu's do (machine-actions.tsx).
const CreateMachineDialog = lazyNamed(() => import('./components/CreateMachineDialog'), 'CreateMachineDialog');
const NotificationDialog = lazyNamed(() => import('./components/NotificationDialog'), 'NotificationDialog');

type PanelDialog =
  | { kind: 'create' }
  | { kind: 'notification' }
  | { kind: 'stop'; machine: TMachine }
  | { kind: 'action'; action: DialogAction; machine: TMachine };

export function MachinesPanel({
  accountId,
  pollMs = MACHINE_POLL_MS,
  showAccount = false,
  filter,
  selection,
  onPage,
  emptyText,
  scrollY,
  expectedRows,
}: MachinesPanelProps) {
  const { canWrite, hasPermission } = useAuth();
  const [warnFirst, warningHolder] = useOperationWarning();
  const [page, setPage] = useState(1);
  const [poll, setPoll] = useState(false);
  const [ownSelectedIds, setOwnSelectedIds] = useState<number[]>([]);
  const [dialog, setDialog] = useState<PanelDialog | undefined>(undefined);
  // A new filter shows its first page.
  const filterText = JSON.stringify(filter ?? {});
  const [seenFilter, setSeenFilter] = useState(filterText);
  if (seenFilter !== filterText) {
    setSeenFilter(filterText);
    setPage(1);
  }

  useTaskHub();
  const machines = useMachines(
    { accountId, filter: accountId === undefined ? filter : undefined, startIndex: (page - 1) * MACHINE_PAGE_SIZE, limit: MACHINE_PAGE_SIZE },
    { pollMs: poll ? pollMs : undefined },
  );
  const data = machines.data;
  const totalCapped = data !== undefined && 'totalCapped' in data && data.totalCapped === true;
  useEffect(() => {
    if (data) onPage?.({ items: data.items, totalItems: data.totalItems, totalCapped });
  }, [data, totalCapped, onPage]);
  const start = useStartMachine();
  const resetFailure = useResetFailureState();
  const decide = useDecideOperation();
  const toggle = useUpdateMachineSwitch();
  const items = data?.items ?? [];
  const selectedIds = selection ? selection.ids : ownSelectedIds;
  // The owner's whole selection; else the machines selected on this page and still listed (a terminated one leaves the list).
  const selected = selection ? selection.ids : selectedIds.filter((id) => items.some((m) => m.id === id));
  const notificationMachines = selection
    ? [
        ...items,
        ...selection.ids.filter((id) => !items.some((m) => m.id === id)).map((id) => ({ id, name: selection.nameOf?.(id) ?? `Machine ${id}` })),
      ]
    : items;
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
        total={machines.isError ? 0 : (data?.totalItems ?? 0)}
        totalCapped={totalCapped}
        loading={machines.isLoading}
        emptyText={machines.isError ? 'Machines could not be loaded' : (emptyText ?? (accountId === undefined ? 'No machines' : undefined))}
        page={page}
        pageSize={MACHINE_PAGE_SIZE}
        selectedIds={selectedIds}
        preserveSelection={selection !== undefined}
        scrollY={scrollY}
        expectedRows={expectedRows}
        onPageChange={setPage}
        onSelect={selection ? selection.onChange : setOwnSelectedIds}
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
      <Suspense fallback={null}>
        {dialog?.kind === 'create' && accountId !== undefined && <CreateMachineDialog accountId={accountId} onClose={() => setDialog(undefined)} />}
        {dialog?.kind === 'notification' && (
          <NotificationDialog machines={notificationMachines} selectedIds={selected} canWrite={canWrite} onClose={() => setDialog(undefined)} />
        )}
        {dialog?.kind === 'stop' && <StopDialog key={`stop-${dialog.machine.id}`} machine={dialog.machine} onClose={() => setDialog(undefined)} />}
        {dialog?.kind === 'action' && ActionDialog && (
          <ActionDialog key={`${dialog.action.key}-${dialog.machine.id}`} machine={dialog.machine} onClose={() => setDialog(undefined)} />
        )}
      </Suspense>
      {warningHolder}
    </Flex>
  );
}
