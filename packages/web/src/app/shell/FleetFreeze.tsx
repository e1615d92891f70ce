/**
 * The fleet freeze in the shell (issue 25 point 5): an admin freezes the fleet
 * from the fleet counters bar (Freeze fleet, with the reason asked in a
 * dialog); while it is frozen a banner under the bar says who froze it, when
 * and why, and what it holds, with Release (asked first) for admins. Everyone
 * sees the banner; only admins see the buttons (the server answers 403 to
 * others all the same).
 */
import { useState } from 'react';
import { Alert, Button, Modal, Typography } from 'antd';
import { ReasonField } from '../../components/ReasonField';
import { useIsAdmin } from '../auth/auth-context';
import { useFleetFreeze } from '../../features/fleet/api/queries';
import { useSetFleetFreeze } from '../../features/fleet/api/mutations';
import { formatDateTime } from '../../lib/format';

/**
 * Freeze fleet, the last item of the counters bar, for admins. It is drawn with
 * the counters whatever the freeze's state (disabled while the fleet is frozen
 * or its state unknown), so that the bar never changes its width or height when
 * the freeze's state arrives: nothing moves under the pointer.
 */
export function FreezeButton() {
  const admin = useIsAdmin();
  const { data } = useFleetFreeze();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const freeze = useSetFleetFreeze();
  if (!admin) return null;
  const missing = reason.trim() === '';
  const close = () => {
    setOpen(false);
    setReason('');
    setTouched(false);
  };
  return (
    <>
      <Button size="small" disabled={!data || data.frozen} onClick={() => setOpen(true)} style={{ marginLeft: 'auto' }}>
        {data?.frozen ? 'Fleet frozen' : 'Freeze fleet'}
      </Button>
      {open && (
        <Modal
          open
          title="Freeze the fleet"
          okText="Freeze"
          okButtonProps={{ danger: true, loading: freeze.isPending }}
          cancelText="Cancel"
          onCancel={close}
          onOk={() => {
            setTouched(true);
            if (!missing) freeze.mutate({ frozen: true, reason: reason.trim() }, { onSuccess: close });
          }}
        >
          <Typography.Paragraph>
            While the fleet is frozen, no rollout starts a new wave and no UpdateSoftware starts on any machine. What runs goes on. Every user sees who froze it and why.
          </Typography.Paragraph>
          <ReasonField id="freeze-reason" value={reason} touched={touched} onChange={setReason} onTouch={() => setTouched(true)} />
        </Modal>
      )}
    </>
  );
}

/** The banner while the fleet is frozen, with Release for admins. */
export function FreezeBanner() {
  const admin = useIsAdmin();
  const { data } = useFleetFreeze();
  const release = useSetFleetFreeze();
  const [modal, holder] = Modal.useModal();
  if (!data?.frozen) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      role="region"
      aria-label="Fleet freeze"
      title={`Fleet frozen by ${data.frozenBy ?? 'an admin'}${data.frozenAt ? ` since ${formatDateTime(data.frozenAt)}` : ''}: ${data.reason ?? ''}`}
      description="No rollout starts a new wave and no UpdateSoftware starts until an admin releases the freeze."
      action={
        admin ? (
          <>
            <Button
              size="small"
              loading={release.isPending}
              onClick={() =>
                void modal.confirm({
                  title: 'Release the fleet freeze',
                  content: 'Rollouts go on with their next waves and waiting UpdateSoftware operations start. Release the freeze?',
                  okText: 'Release',
                  cancelText: 'Cancel',
                  onOk: () => release.mutateAsync({ frozen: false }).catch(() => undefined),
                })
              }
            >
              Release
            </Button>
            {holder}
          </>
        ) : undefined
      }
    />
  );
}
