/**
 * The Request Statistics viewer (`/viewer/request-statistics`, spec 2 §2.1,
 * §2.10, §9; DESIGN §14): a machine selector (the `machine` query parameter),
 * Refresh, an alert with the error when the list fails, and one row per probed
 * launcher or site master URL, 10 a page.
 *
 * Paged and filtered on the server (`GET /request-statistics?machineId&startIndex&limit`)
 * rather than the spec's 300 fetched and paged locally: at 100,000 machines
 * there are about 100,000 rows. Page and machine stay in the URL (the viewers'
 * shared selector and parameters, `features/viewer`).
 */
import { Card, Table } from 'antd';
import { REQUEST_STATISTICS_PAGE_SIZE, type TRequestStatistic } from '@fleet/contracts';
import { pageTotalText, ViewerToolbar } from '../viewer/components/ViewerToolbar';
import { useViewerParams } from '../viewer/use-viewer-params';
import { useRequestStatisticsPage } from './api/queries';
import { REQUEST_STATISTICS_COLUMNS } from './request-statistics-columns';

export default function RequestStatisticsViewerPage() {
  const { machineId, page, setMachine, setPage } = useViewerParams();
  const statistics = useRequestStatisticsPage({ machineId, startIndex: (page - 1) * REQUEST_STATISTICS_PAGE_SIZE, limit: REQUEST_STATISTICS_PAGE_SIZE });

  return (
    <Card title="Request Statistics">
      <ViewerToolbar
        selectorId="request-statistics-machine"
        machineId={machineId}
        onMachine={setMachine}
        list={statistics}
        errorFallback="Request statistics could not be loaded"
      />
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
          showTotal: pageTotalText('URLs', statistics.data?.totalCapped),
          onChange: setPage,
        }}
      />
    </Card>
  );
}
