/**
 * Confirmations of the machine menu (spec 2 §5: terminate, recreate and reset
 * last operation each ask first), as dialogs of the action table: the question,
 * a danger button that runs the call, Cancel. The dialog closes once the call
 * has ended either way (its toast reports a failure).
 */
import { Modal } from 'antd';
import type { TMachine } from '@fleet/contracts';
import { useRecreateMachine, useTerminateMachine } from '../api/mutations';
import { useResetLastOperation } from '../api/operation-mutations';
import type { MachineDialogProps } from './OperationDialog';

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
