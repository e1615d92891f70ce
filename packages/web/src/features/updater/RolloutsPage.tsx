/**
 * The rollouts (route `/rollouts`, permission write; DESIGN §15): newest first,
 * paged by 20, filtered by status; each row links to its page. Polled every
 * 15 s (and refreshed by RolloutProgress events while the push channel is open).
 */
import { useState } from 'react';
import { Alert, Button, Card, Select, Table, Tag, type TableProps } from 'antd';
import { Link } from 'react-router';
import { ROLLOUT_STATUSES, type TRollout } from '@fleet/contracts';
import { formatDateTime } from '../../lib/format';
import { useTaskHub } from '../machines/api/task-hub';
import { useRollouts } from './api/queries';
import { CountTags, STATE_COLORS } from './components/RolloutProgress';

const PAGE = 20;
type Row = Omit<TRollout, 'waves' | 'waitingFor'>;

const COLUMNS: TableProps<Row>['columns'] = [
  { key: 'id', title: 'Rollout', dataIndex: 'id', width: 100, render: (id: number) => <Link to={`/rollouts/${id}`}>Rollout {id}</Link> },
  { key: 'status', title: 'Status', dataIndex: 'status', width: 110, render: (s: string) => <Tag color={STATE_COLORS[s]}>{s}</Tag> },
  { key: 'kind', title: 'Targets', dataIndex: 'kind', width: 100 },
  { key: 'wave', title: 'Wave', dataIndex: 'currentWave', width: 80, render: (w: number) => w + 1 },
  { key: 'counts', title: 'Progress', render: (_, r) => <CountTags counts={r.counts} /> },
  { key: 'by', title: 'Started by', dataIndex: 'createdBy', width: 140 },
  { key: 'at', title: 'Started', dataIndex: 'createdAt', width: 160, render: (t: string) => formatDateTime(t) },
];

export default function RolloutsPage() {
  useTaskHub();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const rollouts = useRollouts({ startIndex: (page - 1) * PAGE, limit: PAGE, status });
  return (
    <Card
      title="Rollouts"
      extra={
        <Select<string>
          aria-label="Status filter"
          allowClear
          placeholder="Any status"
          style={{ width: 150 }}
          value={status}
          options={ROLLOUT_STATUSES.map((s) => ({ value: s, label: s }))}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
        />
      }
    >
      {rollouts.isError ? (
        <Alert type="error" showIcon title="The rollouts could not be loaded" action={<Button size="small" onClick={() => void rollouts.refetch()}>Retry</Button>} />
      ) : (
        <Table<Row>
          size="small"
          rowKey="id"
          aria-label="Rollouts"
          columns={COLUMNS}
          dataSource={rollouts.data?.items ?? []}
          loading={rollouts.isLoading}
          locale={{ emptyText: 'No rollouts yet: start one from the Updater with Roll out in waves' }}
          pagination={{ current: page, pageSize: PAGE, total: rollouts.data?.totalItems ?? 0, showSizeChanger: false, onChange: setPage }}
        />
      )}
    </Card>
  );
}
