/**
 * The tasks drawer (spec 1 §2 Edit account, spec 2 §2.4, §4): a bottom drawer,
 * half the screen high, listing the machine's tasks newest first (id, type,
 * status, progress, queued, started and completed times) from
 * `GET /machines/{id}/tasks`, 20 per page. Cancel (write permission) is enabled
 * only for a New task and calls `POST /machines/{id}/tasks/{taskId}/cancel`; an
 * error shows a toast with the server's detail. The push channel keeps the rows
 * current.
 */
import { useState } from 'react';
import { Button, Drawer, Progress, Table, Tag, Tooltip, Typography, type TableProps } from 'antd';
import { ScrollRegion } from '../../../components/ScrollRegion';
import { DEFAULT_PAGE_SIZE, type TTask, type TTaskStatus } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { useCancelTask } from '../api/mutations';
import { useMachineTasks } from '../api/queries';

/** Drawer height (spec 2 §9: half the screen). */
export const TASKS_DRAWER_HEIGHT = '50vh';

const STATUS_COLORS: Record<TTaskStatus, string> = {
  New: 'default',
  Running: 'processing',
  Completed: 'success',
  Failed: 'error',
  Cancelled: 'warning',
};

const PROGRESS_STATUS: Partial<Record<TTaskStatus, 'active' | 'exception' | 'success'>> = {
  Running: 'active',
  Failed: 'exception',
  Completed: 'success',
};

interface Props {
  machine: { id: number; name: string } | undefined;
  canWrite: boolean;
  onClose(): void;
}

const time = (iso: string | null) => formatDateTime(iso, DATE_TIME_SECONDS_FORMAT);

export function TasksDrawer({ machine, canWrite, onClose }: Props) {
  const [page, setPage] = useState(1);
  const tasks = useMachineTasks(machine?.id, { startIndex: (page - 1) * DEFAULT_PAGE_SIZE, limit: DEFAULT_PAGE_SIZE });
  const cancel = useCancelTask();

  const columns: NonNullable<TableProps<TTask>['columns']> = [
    { key: 'id', title: 'ID', dataIndex: 'id', width: 80 },
    { key: 'type', title: 'Type', dataIndex: 'type' },
    {
      key: 'status',
      title: 'Status',
      render: (_, t) => {
        const tag = <Tag color={STATUS_COLORS[t.status]}>{t.status}</Tag>;
        return t.error ? <Tooltip title={t.error}>{tag}</Tooltip> : tag;
      },
    },
    { key: 'description', title: 'Description', dataIndex: 'description', ellipsis: { showTitle: true }, width: 320 },
    {
      key: 'progress',
      title: 'Progress',
      width: 180,
      render: (_, t) => <Progress percent={t.progress} size="small" status={PROGRESS_STATUS[t.status]} aria-label={`Progress of task ${t.id}`} />,
    },
    { key: 'queuedAt', title: 'Queued', render: (_, t) => time(t.queuedAt) },
    { key: 'startedAt', title: 'Started', render: (_, t) => time(t.startedAt) },
    { key: 'completedAt', title: 'Completed', render: (_, t) => time(t.completedAt) },
  ];
  if (canWrite) {
    columns.push({
      key: 'cancel',
      title: 'Actions',
      render: (_, t) => (
        <Button
          size="small"
          disabled={t.status !== 'New'}
          loading={cancel.isPending && cancel.variables.id === t.id}
          aria-label={`Cancel task ${t.id}`}
          onClick={() => cancel.mutate(t)}
        >
          Cancel
        </Button>
      ),
    });
  }

  return (
    <Drawer
      title={machine ? `Tasks of ${machine.name}` : 'Tasks'}
      placement="bottom"
      size={TASKS_DRAWER_HEIGHT}
      open={machine !== undefined}
      onClose={onClose}
      afterOpenChange={(open) => {
        if (!open) setPage(1);
      }}
      destroyOnHidden
    >
      {/* A focusable region scrolls the table (a drawer of finished tasks has nothing else to focus). */}
      <ScrollRegion label={`Tasks of ${machine?.name ?? 'the machine'}`}>
        <Table<TTask>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={tasks.data?.items ?? []}
          loading={tasks.isLoading}
          locale={{ emptyText: tasks.isLoading ? ' ' : <Typography.Text type="secondary">{tasks.isError ? 'Tasks could not be loaded' : 'This machine has no tasks'}</Typography.Text> }}
          pagination={{
            current: page,
            pageSize: DEFAULT_PAGE_SIZE,
            total: tasks.data?.totalItems ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
        />
      </ScrollRegion>
    </Drawer>
  );
}
