/**
 * 'Pending approvals: N' in the top bar (issue 24 point 2): the operations
 * waiting for approval that the user can see (`GET /operations/pending-count`,
 * every 30 s and soon after an operation is queued pending or decided); it
 * opens the approvals inbox. Shown to users with write permission (the ones
 * who can decide), and only once counted; failures are silent (spec 1 §8).
 */
import { Tag } from 'antd';
import { Link } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { usePendingApprovalsCount } from '../../features/operations/api/queries';

export function PendingApprovalsChip() {
  const { canWrite } = useAuth();
  const { data } = usePendingApprovalsCount(canWrite);
  if (!canWrite || !data) return null;
  return (
    <Link to="/approvals" aria-label={`Pending approvals: ${data.count}, open the approvals inbox`}>
      <Tag color={data.count > 0 ? 'warning' : undefined} style={{ marginInlineEnd: 0, cursor: 'pointer' }}>
        Pending approvals: <strong>{data.count}</strong>
      </Tag>
    </Link>
  );
}
