/**
 * The Request Statistics viewer (`/viewer/request-statistics`, spec 2 §2.1,
 * §2.10, §9; DESIGN §14): a machine selector (the `machine` query parameter),
 * Refresh, an alert with the error when the list fails, and one row per probed
 * launcher or site master URL, 10 a page.
 *
 * Paged and filtered on the server (`GET /request-statistics?machineId&startIndex&limit`)
 * rather than the spec's 300 fetched and paged locally: at 100,000 machines
 * there are about 100,000 rows. Page and machine stay in the URL. The machine
 * selector and its URL parameter are the Operations viewer's.
 */
import { Alert, Button, Card, Flex, Select, Table, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { REQUEST_STATISTICS_PAGE_SIZE, type TRequestStatistic } from '@fleet/contracts';
import { errorText } from '../../app/api-client';
import { useMachineLookup } from '../operations/api/queries';
import { useOperationsParams } from '../operations/use-operations-params';
import { useRequestStatisticsPage } from './api/queries';
import { REQUEST_STATISTICS_COLUMNS } from './request-statistics-columns';

export default function RequestStatisticsViewerPage() {
  const { machineId, page, setMachine, setPage } = useOperationsParams();
  const machines = useMachineLookup();
  const statistics = useRequestStatisticsPage({ machineId, startIndex: (page - 1) * REQUEST_STATISTICS_PAGE_SIZE, limit: REQUEST_STATISTICS_PAGE_SIZE });
  // A machine id from the URL that the lookup does not list still filters; the selector shows its id.
  const options = (machines.data ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.className})` }));
  if (machineId !== undefined && machines.isSuccess && !options.some((o) => o.value === machineId)) {
    options.unshift({ value: machineId, label: `Machine ${machineId}` });
  }

  return (
    <Card title="Request Statistics">
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <label htmlFor="request-statistics-machine">
          <Typography.Text>Machine</Typography.Text>
        </label>
        <Select
          id="request-statistics-machine"
          style={{ width: 360, maxWidth: '100%' }}
          placeholder="All machines"
          allowClear
          value={machineId}
          onChange={(v: number | undefined) => setMachine(v)}
          loading={machines.isLoading}
          showSearch={{ optionFilterProp: 'label' }}
          options={options}
        />
        <Button icon={<ReloadOutlined aria-hidden />} loading={statistics.isFetching} onClick={() => void statistics.refetch()}>
          Refresh
        </Button>
      </Flex>
      {statistics.isError && (
        <Alert type="error" showIcon title={errorText(statistics.error, 'Request statistics could not be loaded')} style={{ marginBottom: 12 }} />
      )}
      <Table<TRequestStatistic>
        rowKey={(s) => `${s.machineId}:${s.kind}`}
        size="small"
        columns={REQUEST_STATISTICS_COLUMNS}
        dataSource={statistics.isError ? [] : (statistics.data?.items ?? [])}
        loading={statistics.isLoading}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: statistics.isLoading ? ' ' : 'No request statistics' }}
        pagination={{
          current: page,
          pageSize: REQUEST_STATISTICS_PAGE_SIZE,
          total: statistics.isError ? 0 : (statistics.data?.totalItems ?? 0),
          showSizeChanger: false,
          // A capped total is a lower bound: the server counts only 100 rows past the page.
          showTotal: (n, [from, to]) => `${from}-${to} of ${statistics.data?.totalCapped ? 'at least ' : ''}${n} URLs`,
          onChange: setPage,
        }}
      />
    </Card>
  );
}
