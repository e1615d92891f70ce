/**
 * A dry run's answer in a dialog before the real call (DESIGN §15 "preview"):
 * the changes table, then `children` (a confirmation text, the rollout plan),
 * and Apply (disabled while a target is refused or nothing changes) and Cancel.
 */
import type { ReactNode } from 'react';
import { Modal } from 'antd';
import type { TBatchResult } from '@fleet/contracts';
import { ChangesTable } from './ChangesTable';

interface Props {
  title: string;
  result: TBatchResult | undefined;
  okText?: string;
  applying: boolean;
  children?: ReactNode;
  onApply(): void;
  onCancel(): void;
}

export function PreviewModal({ title, result, okText = 'Apply', applying, children, onApply, onCancel }: Props) {
  return (
    <Modal
      open={result !== undefined}
      title={title}
      width={960}
      okText={okText}
      onOk={onApply}
      onCancel={onCancel}
      okButtonProps={{ disabled: !result || result.refused > 0 || result.changed === 0, loading: applying }}
      destroyOnHidden
    >
      {result && <ChangesTable result={result} />}
      {children}
    </Modal>
  );
}
