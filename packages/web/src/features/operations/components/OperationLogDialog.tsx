/**
 * The log dialog of an operation (spec 2 §2.6): its output
 * (`GET /operations/{id}/output`) or deployer log (`/deployer-log`), read when
 * the dialog opens, shown as preformatted text, or None when empty.
 * `OperationLogButtons` are the Output and Deployer Log buttons of a row that
 * has a status; they open this dialog.
 */
import { useState } from 'react';
import { Alert, Button, Flex, Modal, Spin } from 'antd';
import type { TOperation } from '@fleet/contracts';
import { errorText } from '../../../app/api-client';
import type { OperationLogKind } from '../api/keys';
import { useOperationLog } from '../api/queries';
import { logText } from '../operation-rules';
import './operations.css';

export const LOG_TITLES: Record<OperationLogKind, string> = { output: 'Output', 'deployer-log': 'Deployer Log' };

interface Props {
  kind: OperationLogKind;
  operation: Pick<TOperation, 'id' | 'typeName' | 'machineName'>;
  onClose(): void;
}

export function OperationLogDialog({ kind, operation, onClose }: Props) {
  const log = useOperationLog(kind, operation.id);
  return (
    <Modal
      open
      title={`${LOG_TITLES[kind]}: ${operation.typeName} on ${operation.machineName}`}
      width={900}
      footer={<Button onClick={onClose}>Close</Button>}
      onCancel={onClose}
      destroyOnHidden
    >
      {log.isLoading && <Spin />}
      {log.isError && <Alert type="error" showIcon title={errorText(log.error, 'The log could not be loaded')} />}
      {log.isSuccess && (
        <pre className="operation-log" aria-label={LOG_TITLES[kind]}>
          {logText(log.data.content)}
        </pre>
      )}
    </Modal>
  );
}

/** Output and Deployer Log buttons of an operation row, one above the other (only rows with a status have them, spec 2 §2.6). */
export function OperationLogButtons({ operation }: { operation: TOperation }) {
  const [open, setOpen] = useState<OperationLogKind | undefined>(undefined);
  if (operation.status === null) return null;
  return (
    <Flex gap={4} vertical align="flex-start">
      {(Object.keys(LOG_TITLES) as OperationLogKind[]).map((kind) => (
        <Button key={kind} size="small" onClick={() => setOpen(kind)} aria-label={`${LOG_TITLES[kind]} of operation ${operation.id}`}>
          {LOG_TITLES[kind]}
        </Button>
      ))}
      {open && <OperationLogDialog kind={open} operation={operation} onClose={() => setOpen(undefined)} />}
    </Flex>
  );
}
