/**
 * The red warning banner of the top bar (spec 1 §1, spec 3 §2.9): when MMA
 * instances are on standby (`GET /mma/stats`, every 30 s) it names their
 * classes and links to the MMA screen ("MMA on standby: Internal Testing — open
 * MMA"). It can be collapsed for the session (sessionStorage): it stays
 * collapsed while the same classes are on standby and comes back when that set
 * changes. Failures are silent.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from 'antd';
import { useMmaStats } from '../../features/fleet/api/queries';

/** sessionStorage key: the standby classes (sorted ids, comma-joined) the user collapsed the banner for. */
export const STANDBY_COLLAPSED_KEY = 'fleet.standbyBanner.collapsed';

function readCollapsed(): string | null {
  try {
    return sessionStorage.getItem(STANDBY_COLLAPSED_KEY);
  } catch {
    return null;
  }
}

export function StandbyBanner() {
  const { data } = useMmaStats(true);
  const [collapsedFor, setCollapsedFor] = useState(readCollapsed);
  const classes = data?.standbyClasses ?? [];
  if ((data?.standby ?? 0) <= 0) return null;

  const set = classes.map((c) => c.id).sort((a, b) => a - b).join(',');
  if (collapsedFor === set) return null;
  const names = classes.map((c) => c.name).join(', ');
  const collapse = () => {
    try {
      sessionStorage.setItem(STANDBY_COLLAPSED_KEY, set);
    } catch {
      // Storage refused (private mode): collapsed until the page reloads.
    }
    setCollapsedFor(set);
  };

  return (
    <Alert
      key={set}
      type="error"
      showIcon
      banner
      closable={{ 'aria-label': 'Hide the standby banner for this session', onClose: collapse }}
      title={<Link to="/mma">{`MMA on standby: ${names || `${data!.standby} instance(s)`} — open MMA`}</Link>}
    />
  );
}
