/**
 * Confirmations of the machines panel (spec 2 §5: terminate, recreate and reset
 * last operation each ask first; Stop asks too, since stopping takes the
 * machine's sites offline — issue 24), as dialogs of the action table or of the
 * row's Stop button: the question naming the machine, a danger button that runs
 * the call, Cancel (no call made). The dialog closes once the call has ended
 * either way (its toast reports a failure).
 */
import { Modal } from 'antd';
import type { TMachine } from '@fleet/contracts';
import { useRecreateMachine, useStopMachine, useTerminateMachine } from '../api/mutations';
import { useResetLastOperation } from '../api/operation-mutations';
import type { MachineDialogProps } from './OperationDialog';

/**
 * The Stop question: the machine, and what stopping does to what it serves
 * (its site, named when it is a site master, and the account's launcher when it
 * is the launcher) until it is started again.
 */
export function stopConfirmText(machine: Pick<TMachine, 'name' | 'siteName' | 'isLauncher' | 'isSiteMaster'>): string {
  const site = machine.isSiteMaster && machine.siteName ? `Site ${machine.siteName}` : undefined;
  const served =
    site && machine.isLauncher
      ? `${site} and the account's launcher`
      : (site ?? (machine.isLauncher ? "The account's launcher, and so its sites," : 'The sites it serves'));
  return `This will stop machine ${machine.name} and its cloud instance. ${served} cannot be reached until the machine is started again.`;
}
export const terminateConfirmText = (name: string) => `This will terminate machine ${name} and its cloud instance.`;
export const recreateConfirmText = (name: string) => `This will replace the cloud instance of machine ${name} with a new one.`;
export const resetLastOperationConfirmText = (name: string) =>
  `This will end the latest queued, pending or running operation of machine ${name} as failed.`;

interface Props {
  title: string;
  content: string;
  okText: string;
  loading: boolean;
  run(): Promise<unknown>;
  onClose(): void;
}

export function ConfirmActionDialog({ title, content, okText, loading, run, onClose }: Props) {
  return (
    <Modal
      open
      title={title}
      okText={okText}
      okButtonProps={{ danger: true, loading }}
      cancelText="Cancel"
      onOk={() => void run().then(onClose, onClose)}
      onCancel={onClose}
      destroyOnHidden
    >
      {content}
    </Modal>
  );
}

/** Stop confirmation (OK 'Stop' runs `POST /machines/{id}/stop`; Cancel leaves the machine running). */
export function StopDialog({ machine, onClose }: MachineDialogProps) {
  const stop = useStopMachine();
  return (
    <ConfirmActionDialog
      title="Stop machine"
      content={stopConfirmText(machine)}
      okText="Stop"
      loading={stop.isPending}
      run={() => stop.mutateAsync(machine)}
      onClose={onClose}
    />
  );
}

export function TerminateDialog({ machine, onClose }: MachineDialogProps) {
  const terminate = useTerminateMachine();
  return (
    <ConfirmActionDialog
      title="Terminate machine"
      content={terminateConfirmText(machine.name)}
      okText="Terminate"
      loading={terminate.isPending}
      run={() => terminate.mutateAsync(machine)}
      onClose={onClose}
    />
  );
}

export function RecreateDialog({ machine, onClose }: MachineDialogProps) {
  const recreate = useRecreateMachine();
  return (
    <ConfirmActionDialog
      title="Recreate machine"
      content={recreateConfirmText(machine.name)}
      okText="Recreate"
      loading={recreate.isPending}
      run={() => recreate.mutateAsync(machine)}
      onClose={onClose}
    />
  );
}

export function ResetLastOperationDialog({ machine, onClose }: { machine: TMachine; onClose(): void }) {
  const reset = useResetLastOperation();
  return (
    <ConfirmActionDialog
      title="Reset last operation"
      content={resetLastOperationConfirmText(machine.name)}
      okText="Reset"
      loading={reset.isPending}
      run={() => reset.mutateAsync(machine)}
      onClose={onClose}
    />
  );
}
