/**
 * What an audit activity caused (DESIGN §12 one trail; OPS-SEMANTICS Trail):
 * the tasks and operations that carry its id (`GET /user-activities/{id}/trail`),
 * oldest first, each with its outcome: a task's status (and error), an
 * operation's status (PENDING, CANCELLING or QUEUED while it has none), with
 * its machine and times. Operations have their Output and Deployer Log. Shown
 * only when the activity caused something.
 */
import { Alert, Table, Tag, Typography } from 'antd';
import type { TOperation, TTask } from '@fleet/contracts';
import { errorText } from '../../../app/api-client';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { useActivityTrail } from '../../operations/api/queries';
import { OperationLogButtons } from '../../operations/components/OperationLogDialog';
import { OperationStatusTag } from '../../operations/components/operation-columns';

const time = (iso: string | null) => formatDateTime(iso, DATE_TIME_SECONDS_FORMAT);

const TASK_COLORS: Record<TTask['status'], string> = { New: 'default', Running: 'processing', Completed: 'success', Failed: 'error', Cancelled: 'warning' };

const TASK_COLUMNS = [
  { key: 'id', title: 'Task', dataIndex: 'id' },
  { key: 'type', title: 'Type', dataIndex: 'type' },
  { key: 'description', title: 'Description', dataIndex: 'description' },
  {
    key: 'status',
    title: 'Outcome',
    render: (_: unknown, t: TTask) => (
      <>
        <Tag color={TASK_COLORS[t.status]}>{t.status}</Tag>
        {t.error && <Typography.Text type="danger">{t.error}</Typography.Text>}
      </>
    ),
  },
  { key: 'queuedAt', title: 'Queued', render: (_: unknown, t: TTask) => time(t.queuedAt) },
  { key: 'completedAt', title: 'Completed', render: (_: unknown, t: TTask) => time(t.completedAt) },
];

const OPERATION_COLUMNS = [
  { key: 'id', title: 'Operation', dataIndex: 'id' },
  { key: 'type', title: 'Type', dataIndex: 'typeName' },
  { key: 'machine', title: 'Machine', dataIndex: 'machineName' },
  { key: 'status', title: 'Outcome', render: (_: unknown, o: TOperation) => <OperationStatusTag operation={o} /> },
  { key: 'decision', title: 'Decision', render: (_: unknown, o: TOperation) => (o.decision ? `${o.decision} by ${o.decidedBy ?? ''}` : '') },
  { key: 'queued', title: 'Queued', render: (_: unknown, o: TOperation) => time(o.timestamp) },
  { key: 'finished', title: 'Finished', render: (_: unknown, o: TOperation) => time(o.finishTime) },
  { key: 'logs', title: 'Logs', render: (_: unknown, o: TOperation) => <OperationLogButtons operation={o} /> },
];

export function ActivityTrail({ activityId }: { activityId: number }) {
  const trail = useActivityTrail(activityId);
  if (trail.isError) return <Alert type="error" showIcon title={errorText(trail.error, 'What the activity caused could not be loaded')} style={{ marginTop: 16 }} />;
  if (!trail.data || (trail.data.tasks.length === 0 && trail.data.operations.length === 0)) return null;
  return (
    <section aria-label="Caused by this activity">
      {trail.data.tasks.length > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            Tasks
          </Typography.Title>
          <Table<TTask> rowKey="id" size="small" columns={TASK_COLUMNS} dataSource={trail.data.tasks} pagination={false} scroll={{ x: 'max-content' }} />
        </>
      )}
      {trail.data.operations.length > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            Operations
          </Typography.Title>
          <Table<TOperation>
            rowKey="id"
            size="small"
            columns={OPERATION_COLUMNS}
            dataSource={trail.data.operations}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        </>
      )}
    </section>
  );
}
