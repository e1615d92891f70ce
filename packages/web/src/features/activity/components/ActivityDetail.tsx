/**
 * Detail panel of one audit activity (spec 2 §2.11, §3 Audit activity): who did
 * what, when and to which accounts, then "Params" (property, value; objects as
 * JSON), "Changes" (entity, property, old value, new value), and the tasks and
 * operations it caused with their outcome (`ActivityTrail`, DESIGN §12).
 * An activity whose params carry a `rolloutId` links to that rollout's page
 * (DESIGN §15).
 *
 * An activity chosen by its id (a link from an operation) that the timeline has
 * not loaded yet shows its trail only, under its id.
 */
import { Card, Descriptions, Empty, Table, Typography } from 'antd';
import { Link } from 'react-router';
import type { TAuditChange, TUserActivity } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime, formatValue } from '../../../lib/format';
import { ActivityTrail } from './ActivityTrail';

interface ParamRow {
  property: string;
  value: string;
}

type ChangeRow = TAuditChange & { key: string };

const PARAM_COLUMNS = [
  { key: 'property', title: 'Property', dataIndex: 'property' },
  { key: 'value', title: 'Value', dataIndex: 'value', render: (v: string) => <Typography.Text code={v.startsWith('{') || v.startsWith('[')}>{v}</Typography.Text> },
];

const CHANGE_COLUMNS = [
  { key: 'entity', title: 'Entity', dataIndex: 'entityName' },
  { key: 'property', title: 'Property', dataIndex: 'propertyName' },
  { key: 'old', title: 'Old value', dataIndex: 'oldValue', render: (v: unknown) => formatValue(v) },
  { key: 'new', title: 'New value', dataIndex: 'newValue', render: (v: unknown) => formatValue(v) },
];

export function ActivityDetail({ activity, activityId }: { activity: TUserActivity | undefined; activityId?: number }) {
  if (!activity && activityId !== undefined) {
    return (
      <Card title={`Activity ${activityId}`} aria-label="Activity details">
        <Typography.Paragraph type="secondary">This activity is further down the timeline; what it caused:</Typography.Paragraph>
        <ActivityTrail activityId={activityId} />
      </Card>
    );
  }
  if (!activity) {
    return (
      <Card>
        <Empty description="Select an activity to see its details" />
      </Card>
    );
  }
  const params: ParamRow[] = Object.entries(activity.metadata.params).map(([property, value]) => ({
    property,
    value: formatValue(value),
  }));
  const rolloutId = activity.metadata.params.rolloutId;

  return (
    <Card title={activity.action} aria-label="Activity details">
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'user', label: 'User', children: activity.user },
          { key: 'time', label: 'Time', children: formatDateTime(activity.time, DATE_TIME_SECONDS_FORMAT) },
          { key: 'accounts', label: 'Accounts', children: activity.accounts.map((a) => a.name).join(', ') || '—' },
          ...(typeof rolloutId === 'number'
            ? [{ key: 'rollout', label: 'Rollout', children: <Link to={`/rollouts/${rolloutId}`}>Rollout {rolloutId}</Link> }]
            : []),
        ]}
      />
      <Typography.Title level={5}>Params</Typography.Title>
      <Table<ParamRow> rowKey="property" size="small" columns={PARAM_COLUMNS} dataSource={params} pagination={false} />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Changes
      </Typography.Title>
      <Table<ChangeRow>
        rowKey="key"
        size="small"
        columns={CHANGE_COLUMNS}
        dataSource={activity.metadata.changes.map((change, i) => ({ ...change, key: String(i) }))}
        pagination={false}
      />
      <ActivityTrail activityId={activity.id} />
    </Card>
  );
}
