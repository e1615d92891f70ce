/**
 * The red warning banner of the top bar (spec 1 §1, spec 3 §2.9): when MMA
 * instances are on standby (`GET /mma/stats`, every 30 s) it links to the MMA
 * screen. Failures are silent.
 */
import { Link } from 'react-router';
import { Alert } from 'antd';
import { useMmaStats } from '../../features/fleet/api/queries';

export function StandbyBanner() {
  const { data } = useMmaStats(true);
  const standby = data?.standby ?? 0;
  if (standby <= 0) return null;

  return (
    <Alert
      type="error"
      showIcon
      banner
      title={<Link to="/mma">{`${standby} MMA instance(s) on standby — open MMA`}</Link>}
    />
  );
}
