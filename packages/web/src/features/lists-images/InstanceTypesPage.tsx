/**
 * Instance Types (route /lists/instance-types): the specification leaves it an
 * empty placeholder (spec 3 §2, spec 1 §2); it shows the machine instance types
 * and the Redis (cache) instance types, read-only: name, cloud code, storage
 * (GB), memory (GB, Redis only) and credit cost (cloud credits per hour).
 * The Redis table comes once the first has its rows: the first table growing
 * under it would push it down while the operator reads (issue 26, no jumps).
 */
import { Card, Space, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TInstanceType } from '@fleet/contracts';
import { useRedisInstanceTypes } from '../catalogues/api/lookups';
import { useInstanceTypes } from '../machines/api/queries';
import { LoadError } from './LoadError';

const columns = (redis: boolean): TableColumnsType<TInstanceType> => [
  { title: 'Name', dataIndex: 'name' },
  { title: 'Cloud code', dataIndex: 'cloudCode' },
  redis
    ? { title: 'Memory (GB)', dataIndex: 'memorySize', align: 'right', render: (v: number | null) => v ?? '–' }
    : { title: 'Storage (GB)', dataIndex: 'storageSize', align: 'right' },
  { title: 'Credit cost (per hour)', dataIndex: 'cloudCreditCost', align: 'right' },
];

function TypesTable({ title, query, redis }: { title: string; query: ReturnType<typeof useInstanceTypes>; redis: boolean }) {
  return (
    <Card title={title} size="small">
      {query.isError && <LoadError error={query.error} what={title.toLowerCase()} />}
      <Table<TInstanceType> rowKey="id" size="small" columns={columns(redis)} dataSource={query.data ?? []} loading={query.isLoading} pagination={false} aria-label={title} />
    </Card>
  );
}

export default function InstanceTypesPage() {
  const machineTypes = useInstanceTypes(true);
  const redisTypes = useRedisInstanceTypes();
  return (
    <Card title="Instance Types">
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <TypesTable title="Instance types" query={machineTypes} redis={false} />
        {!machineTypes.isLoading && <TypesTable title="Redis instance types" query={redisTypes} redis />}
      </Space>
    </Card>
  );
}
