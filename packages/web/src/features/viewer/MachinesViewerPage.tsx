/**
 * The Machines viewer (`/viewer/machines`, spec 2 §2.7): a read-only table of
 * the machines, or of the selected machine: name, class name, managed, stop,
 * terminate and needsAdmin as Yes/No, launcherUrl, siteName, siteMasterUrl.
 *
 * Paged on the server (`GET /machines?machineId&classId&needsAdmin&turbo&unmanaged&startIndex&limit`,
 * 20 a page: the spec gives the Machines viewer no size) with `machine`, `page`
 * and the filters (`class`, `needsAdmin`, `turbo`, `unmanaged`:
 * use-machines-viewer-filters.ts) in the URL. Unfiltered, over the whole fleet,
 * the total is a lower bound past VIEWER_COUNT_AHEAD (300) rows ahead; filtered
 * it is exact and equals the top bar's chip that links here.
 */
import { Card, Table, type TableProps } from 'antd';
import { MACHINES_VIEWER_PAGE_SIZE, type TMachine } from '@fleet/contracts';
import { pageTotalText, ViewerToolbar } from './components/ViewerToolbar';
import { ScrollRegion } from './components/ScrollRegion';
import { useViewerParams } from './use-viewer-params';
import { yesNo } from './yes-no';
import { useFilteredViewerMachines, useMachinesViewerFilters } from './use-machines-viewer-filters';
import { MachinesViewerFilters } from './MachinesViewerFilters';

const flag = (key: 'managed' | 'stop' | 'terminate' | 'needsAdmin', title: string) => ({ key, title, render: (_: unknown, m: TMachine) => yesNo(m[key]) });

const COLUMNS: TableProps<TMachine>['columns'] = [
  { key: 'name', title: 'Name', dataIndex: 'name' },
  { key: 'className', title: 'Class', dataIndex: 'className' },
  flag('managed', 'Managed'),
  flag('stop', 'Stop'),
  flag('terminate', 'Terminate'),
  flag('needsAdmin', 'Needs admin'),
  { key: 'launcherUrl', title: 'Launcher URL', dataIndex: 'launcherUrl' },
  { key: 'siteName', title: 'Site', dataIndex: 'siteName' },
  { key: 'siteMasterUrl', title: 'Site Master URL', dataIndex: 'siteMasterUrl' },
];

export default function MachinesViewerPage() {
  const { machineId, page, setMachine, setPage } = useViewerParams();
  const filterState = useMachinesViewerFilters();
  const list = useFilteredViewerMachines(
    { machineId, startIndex: (page - 1) * MACHINES_VIEWER_PAGE_SIZE, limit: MACHINES_VIEWER_PAGE_SIZE },
    filterState.filters,
  );
  return (
    <Card title="Machines">
      <ViewerToolbar selectorId="machines-viewer-machine" machineId={machineId} onMachine={setMachine} list={list} errorFallback="Machines could not be loaded">
        <MachinesViewerFilters {...filterState} />
      </ViewerToolbar>
      <ScrollRegion label="Machines table">
        <Table<TMachine>
          rowKey="id"
          size="small"
          columns={COLUMNS}
          dataSource={list.isError ? [] : (list.data?.items ?? [])}
          loading={list.isLoading}
          locale={{ emptyText: list.isLoading ? ' ' : 'No machines' }}
          pagination={{
            current: page,
            pageSize: MACHINES_VIEWER_PAGE_SIZE,
            total: list.isError ? 0 : (list.data?.totalItems ?? 0),
            showSizeChanger: false,
            showTotal: pageTotalText('machines', list.data?.totalCapped),
            onChange: setPage,
          }}
        />
      </ScrollRegion>
    </Card>
  );
}
