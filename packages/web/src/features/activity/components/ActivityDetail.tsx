/**
 * Detail panel of one audit activity (spec 2 §2.11, §3 Audit activity; issue 24
 * point 6): who did what, when and to which accounts, then "Params" as fields
 * (`ActivityParams`), "Changes" (entity, property by its label with the field
 * name as a tooltip, old value, new value, versions as `branch / hash`; 20 a
 * page) and the tasks and operations it caused with their outcome
 * (`ActivityTrail`, DESIGN §12). Machines and accounts it names are links with
 * their names (`ActivityLinks`). An activity whose params carry a `rolloutId`
 * links to that rollout's page (DESIGN §15). The activity of a request that
 * lists only its first targets' changes says how many there are.
 *
 * The activity is read by its id (`GET /user-activities/{id}`), so that a link
 * to `/activity?activityId=N` shows it at once; while that loads, the timeline's
 * copy of it is shown without names. The card's code (`ActivityDetailCard`)
 * loads with the first activity shown.
 */
import { lazy, Suspense } from 'react';
import { Alert, Card, Empty, Skeleton } from 'antd';
import type { TUserActivity } from '@fleet/contracts';
import { ApiError, errorText } from '../../../app/api-client';
import { useUserActivity } from '../api/queries';
import type { Named } from './ActivityLinks';

const ActivityDetailCard = lazy(() => import('./ActivityDetailCard'));

/** The panel while activity `activityId` loads (its data, or the card's code). */
function Loading({ activityId }: { activityId: number }) {
  return (
    <Card title={`Activity ${activityId}`} aria-label="Activity details" aria-busy="true">
      <Skeleton active />
    </Card>
  );
}

/** The card of an activity, its code loaded with the first one shown. */
function Detail({ activity, named }: { activity: TUserActivity; named: Named | undefined }) {
  return (
    <Suspense fallback={<Loading activityId={activity.id} />}>
      <ActivityDetailCard activity={activity} named={named} />
    </Suspense>
  );
}

/** The panel of activity `activityId`; `fromList` is the timeline's copy of it, if loaded. */
export function ActivityDetail({ activityId, fromList }: { activityId: number | undefined; fromList: TUserActivity | undefined }) {
  const detail = useUserActivity(activityId);
  if (activityId === undefined) {
    return (
      <Card>
        <Empty description="Select an activity to see its details" />
      </Card>
    );
  }
  if (detail.data) return <Detail activity={detail.data} named={detail.data.named} />;
  if (detail.isError) {
    const missing = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <Card title={`Activity ${activityId}`} aria-label="Activity details">
        <Alert
          type={missing ? 'warning' : 'error'}
          showIcon
          title={missing ? `Activity ${activityId} was not found` : errorText(detail.error, 'The activity could not be loaded')}
        />
      </Card>
    );
  }
  if (fromList) return <Detail activity={fromList} named={undefined} />;
  return <Loading activityId={activityId} />;
}
