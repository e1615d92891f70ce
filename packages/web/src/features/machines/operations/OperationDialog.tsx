/**
 * The frame every operation dialog of the machine menu shares (spec 2 §2.3):
 * a modal titled by the dialog, the machine's name first, Submit and Cancel.
 * Submit shows the call's progress; the dialog closes on success and stays
 * open on error (the call's toast says why).
 */
import type { ReactNode } from 'react';
import { Modal, Typography } from 'antd';
import type { TMachine } from '@fleet/contracts';

/** What every dialog of the action table receives. */
export interface MachineDialogProps {
  machine: TMachine;
  onClose(): void;
}

interface Props {
  title: string;
  machine: Pick<TMachine, 'name'>;
  okText?: string;
  /** Submit disabled (nothing chosen yet). */
  disabled?: boolean;
  loading?: boolean;
  /** No Submit: a read-only dialog (Close only). */
  readOnly?: boolean;
  width?: number;
  onOk?(): void;
  onClose(): void;
  children?: ReactNode;
}

export function OperationDialog({ title, machine, okText = 'Submit', disabled, loading, readOnly, width, onOk, onClose, children }: Props) {
  return (
    <Modal
      open
      title={title}
      width={width}
      okText={okText}
      cancelText={readOnly ? 'Close' : 'Cancel'}
      onOk={onOk}
      onCancel={onClose}
      okButtonProps={readOnly ? { style: { display: 'none' } } : { disabled, loading }}
      destroyOnHidden
    >
      <Typography.Paragraph>
        Machine <Typography.Text strong>{machine.name}</Typography.Text>
      </Typography.Paragraph>
      {children}
    </Modal>
  );
}
