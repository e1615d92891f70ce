/**
 * The card of one audit activity (spec 2 §2.11, §3 Audit activity; issue 24
 * point 6), in a module of its own: `ActivityDetail` loads it when the first
 * activity is shown (issue 26, script per route: antd's Descriptions, the
 * changes' table and the trail of tasks and operations are not needed before).
 * What it shows is described in ActivityDetail.tsx.
 */
import { Card, Descriptions, Table, Typography } from 'antd';
import type { TAuditChange, TUserActivity } from '@fleet/contracts';
import { FieldName, FieldValue } from '../../../components/FieldName';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
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

/** The card of `activity`; `named` the names of the machines and accounts it names, when known. */
export default function ActivityDetailCard({ activity, named }: { activity: TUserActivity; named: Named | undefined }) {
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

