/**
 * The fleet freeze's two dialogs (issue 25 point 5), loaded when an admin
 * opens one (`FleetFreeze.tsx`): the shell's first paint does without antd's
 * Modal and Input (issue 26: script per route).
 *
 * - `FreezeDialog`: 'Freeze the fleet', with the reason asked; closes once the
 *   freeze is set.
 * - `ReleaseDialog`: 'Release the fleet freeze', asked first; closes once the
 *   freeze is released (a refused release keeps it open, the toast says why).
 */
import { useState } from 'react';
import { Modal, Typography } from 'antd';
import { ReasonField } from '../../components/ReasonField';
import { useSetFleetFreeze } from '../../features/fleet/api/mutations';

export function FreezeDialog({ onClose }: { onClose(): void }) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const freeze = useSetFleetFreeze();
  const missing = reason.trim() === '';
  return (
    <Modal
      open
      title="Freeze the fleet"
      okText="Freeze"
      okButtonProps={{ danger: true, loading: freeze.isPending }}
      cancelText="Cancel"
      onCancel={onClose}
      onOk={() => {
        setTouched(true);
        if (!missing) freeze.mutate({ frozen: true, reason: reason.trim() }, { onSuccess: onClose });
      }}
    >
      <Typography.Paragraph>
        While the fleet is frozen, no rollout starts a new wave and no UpdateSoftware starts on any machine. What runs goes on. Every user sees who froze it and why.
      </Typography.Paragraph>
      <ReasonField id="freeze-reason" value={reason} touched={touched} onChange={setReason} onTouch={() => setTouched(true)} />
    </Modal>
  );
}

export function ReleaseDialog({ onClose }: { onClose(): void }) {
  const release = useSetFleetFreeze();
  return (
    <Modal
      open
      title="Release the fleet freeze"
      okText="Release"
      okButtonProps={{ loading: release.isPending }}
      cancelText="Cancel"
      onCancel={onClose}
      onOk={() => release.mutate({ frozen: false }, { onSuccess: onClose })}
    >
      Rollouts go on with their next waves and waiting UpdateSoftware operations start. Release the freeze?
    </Modal>
  );
}
