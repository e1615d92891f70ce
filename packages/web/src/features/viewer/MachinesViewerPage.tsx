/**
 * The Machines viewer (`/viewer/machines`, spec 2 §2.7): a read-only table of
 * the machines, or of the selected machine: name, class name, managed, stop,
 * terminate and needsAdmin as Yes/No, launcherUrl, siteName, siteMasterUrl.
 *
 * Paged and sorted on the server (`GET /machines?machineId&classId&needsAdmin&
 * turbo&unmanaged&sort&order&startIndex&limit`, 20 a page with the 20/50/100
 * size changer: the spec gives the Machines viewer no size; issue 24 point 7)
 * with `machine`, `page`, `size`, the Name column's order (`sort=name`,
 * `order`; by account then name without it) and the filters (`class`,
 * `needsAdmin`, `turbo`, `unmanaged`: use-machines-viewer-filters.ts) in the URL. Unfiltered, over the whole fleet,
 * the total is a lower bound past VIEWER_COUNT_AHEAD (300) rows ahead; filtered
 * it is exact and equals the top bar's chip that links here.
 */
import { Card, Table, type TableProps } from 'antd';
import { MACHINE_SORTS, type TMachine, type TSortOrder } from '@fleet/contracts';
import { viewerPagination, ViewerToolbar } from './components/ViewerToolbar';
import { ScrollRegion } from '../../components/ScrollRegion';
import { columnSortOrder, onSortChange, readSort, useViewerParams } from './use-viewer-params';
import { yesNo } from './yes-no';
import { useFilteredViewerMachines, useMachinesViewerFilters } from './use-machines-viewer-filters';
import { MachinesViewerFilters } from './MachinesViewerFilters';

const flag = (key: 'managed' | 'stop' | 'terminate' | 'needsAdmin', title: string) => ({ key, title, render: (_: unknown, m: TMachine) => yesNo(m[key]) });

const columns = (sort: { sort: string; order: TSortOrder } | undefined): TableProps<TMachine>['columns'] => [
  { key: 'name', title: 'Name', dataIndex: 'name', sorter: true, sortDirections: ['ascend', 'descend'], sortOrder: columnSortOrder(sort, 'name') },
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
  const { machineId, page, pageSize, params, setMachine, setPage, setSort } = useViewerParams();
  const sort = readSort(params, MACHINE_SORTS);
  const filterState = useMachinesViewerFilters();
  const list = useFilteredViewerMachines(
    { machineId, startIndex: (page - 1) * pageSize, limit: pageSize, ...(sort ? { sort: sort.sort, order: sort.order } : {}) },
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
          columns={columns(sort)}
          dataSource={list.isError ? [] : (list.data?.items ?? [])}
          loading={list.isLoading}
          locale={{ emptyText: list.isLoading ? ' ' : 'No machines' }}
          onChange={onSortChange(MACHINE_SORTS, setSort)}
          pagination={viewerPagination({ page, pageSize, list, noun: 'machines', onChange: setPage })}
        />
      </ScrollRegion>
    </Card>
  );
}
