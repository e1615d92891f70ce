/**
 * The fleet freeze in the shell (issue 25 point 5): an admin freezes the fleet
 * from the fleet counters bar (Freeze fleet, with the reason asked in a
 * dialog); while it is frozen a banner under the bar says who froze it, when
 * and why, and what it holds, with Release (asked first) for admins. Everyone
 * sees the banner; only admins see the buttons (the server answers 403 to
 * others all the same).
 */
import { Suspense, useState } from 'react';
import { Alert, Button } from 'antd';
import { useIsAdmin } from '../auth/auth-context';
import { useFleetFreeze } from '../../features/fleet/api/queries';
import { formatDateTime } from '../../lib/format';
import { lazyNamed } from '../../lib/lazy-named';

/** The dialogs' code, loaded when one opens. */
const FreezeDialog = lazyNamed(() => import('./FleetFreezeDialogs'), 'FreezeDialog');
const ReleaseDialog = lazyNamed(() => import('./FleetFreezeDialogs'), 'ReleaseDialog');

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
  if (!admin) return null;
  return (
    <>
      <Button size="small" disabled={!data || data.frozen} onClick={() => setOpen(true)} style={{ marginLeft: 'auto' }}>
        {data?.frozen ? 'Fleet frozen' : 'Freeze fleet'}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <FreezeDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** The banner while the fleet is frozen, with Release for admins. */
export function FreezeBanner() {
  const admin = useIsAdmin();
  const { data } = useFleetFreeze();
  const [releasing, setReleasing] = useState(false);
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
            <Button size="small" onClick={() => setReleasing(true)}>
              Release
            </Button>
            {releasing && (
              <Suspense fallback={null}>
                <ReleaseDialog onClose={() => setReleasing(false)} />
              </Suspense>
            )}
          </>
        ) : undefined
      }
    />
  );
}
