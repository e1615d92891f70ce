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
 * copy of it is shown without names.
 */
import { Alert, Card, Descriptions, Empty, Skeleton, Table, Typography } from 'antd';
import type { TAuditChange, TUserActivity } from '@fleet/contracts';
import { ApiError, errorText } from '../../../app/api-client';
import { FieldName, FieldValue } from '../../../components/FieldName';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { useUserActivity } from '../api/queries';
import { EntityName, IdLinks, type Named } from './ActivityLinks';
import { ParamFields } from './ActivityParams';
import { ActivityTrail } from './ActivityTrail';

type ChangeRow = TAuditChange & { key: string };

/** Rows of the Changes table a page. */
const CHANGES_PAGE = 20;

function changeColumns(params: Record<string, unknown>, named: Named | undefined) {
  return [
    { key: 'entity', title: 'Entity', render: (_: unknown, c: ChangeRow) => <EntityName entityName={c.entityName} params={params} named={named} /> },
    { key: 'property', title: 'Property', render: (_: unknown, c: ChangeRow) => <FieldName field={c.propertyName} entity={c.entityName} /> },
    { key: 'old', title: 'Old value', render: (_: unknown, c: ChangeRow) => <FieldValue field={c.propertyName} value={c.oldValue} /> },
    { key: 'new', title: 'New value', render: (_: unknown, c: ChangeRow) => <FieldValue field={c.propertyName} value={c.newValue} /> },
  ];
}

/** 'Changes of the first 50 of 60 targets' when the activity lists only some (params listedTargets, changedTargets). */
function listedNote(params: Record<string, unknown>): string | null {
  const { listedTargets, changedTargets } = params;
  if (typeof listedTargets !== 'number' || typeof changedTargets !== 'number' || listedTargets >= changedTargets) return null;
  return `Changes of the first ${listedTargets} of ${changedTargets} targets that change; each wave's RolloutWave activity lists its own.`;
}

function Detail({ activity, named }: { activity: TUserActivity; named: Named | undefined }) {
  const { params, changes } = activity.metadata;
  const note = listedNote(params);
  return (
    <Card title={activity.action} aria-label="Activity details">
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'id', label: 'Activity', children: activity.id },
          { key: 'user', label: 'User', children: activity.user },
          { key: 'time', label: 'Time', children: formatDateTime(activity.time, DATE_TIME_SECONDS_FORMAT) },
          {
            key: 'accounts',
            label: 'Accounts',
            children: activity.accounts.length === 0 ? '—' : <IdLinks kind="account" ids={activity.accounts} named={named} />,
          },
        ]}
      />
      <Typography.Title level={5}>Params</Typography.Title>
      <ParamFields params={params} named={named} />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Changes
      </Typography.Title>
      {note && <Typography.Paragraph type="secondary">{note}</Typography.Paragraph>}
      <Table<ChangeRow>
        rowKey="key"
        size="small"
        columns={changeColumns(params, named)}
        dataSource={changes.map((change, i) => ({ ...change, key: String(i) }))}
        pagination={{ pageSize: CHANGES_PAGE, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
      />
      <ActivityTrail activityId={activity.id} />
    </Card>
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
  return (
    <Card title={`Activity ${activityId}`} aria-label="Activity details" aria-busy="true">
      <Skeleton active />
    </Card>
  );
}
