/**
 * The States viewer (`/viewer/states`, spec 2 §2.8, §4; issue 24 point 7): a
 * radio Current, Historical or Desired, the filters class, component, branch
 * and time range, and the version states of every machine or of the selected
 * one, 20 a page (20, 50 or 100; the spec's 15 made the viewers' one):
 * machine, class, desired, timestamp (sortable either way for stored states),
 * a version column per component (deployer, siteMaster, launcher, …,
 * auditChangeLog, titled with the components' labels, each commit as
 * `branch / hash`; the filtered one first) and the siteMasterBackup and
 * launcherBackup of the state's time.
 *
 * Paged, filtered and sorted on the server (`GET /version-states?state&
 * machineId&classId&component&branch&from&to&sort&order&startIndex&limit`)
 * with everything in the URL (`states-filter.ts`).
 */
import { useMemo } from 'react';
import { Card, Table, type TableProps } from 'antd';
import { STATES_VIEWER_COMPONENTS, VERSION_STATE_SORTS, type TComponentVersion, type TViewerVersionState } from '@fleet/contracts';
import { componentLabel } from '../../lib/field-labels';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { commitVersion, versionLabel } from '../software-versions/version-format';
import { useVersionStatesPage } from './api/queries';
import { LazyTooltip } from '../../components/LazyTooltip';
import { viewerPagination, ViewerToolbar } from './components/ViewerToolbar';
import { ScrollRegion } from '../../components/ScrollRegion';
import { readStatesFilter, statesPageQuery, type StatesFilter } from './states-filter';
import { StatesViewerFilters } from './StatesViewerFilters';
import { columnSortOrder, onSortChange, useViewerParams } from './use-viewer-params';
import { yesNo } from './yes-no';

/** The component columns in the spec's order (spec 2 §2.8). */
export const STATE_COMPONENT_COLUMNS = STATES_VIEWER_COMPONENTS;

/** A component's commit as `branch / hash` (spec 3 §2.8), its time as a tooltip; empty when not installed. */
function Version({ commit }: { commit: TComponentVersion | null | undefined }) {
  if (!commit) return null;
  return (
    <LazyTooltip title={formatDateTime(commit.timestamp, DATE_TIME_SECONDS_FORMAT)}>
      <span style={{ whiteSpace: 'nowrap' }}>{versionLabel(commitVersion({ branch: commit.branchName, shortHash: commit.shortHash }))}</span>
    </LazyTooltip>
  );
}

type Column = NonNullable<TableProps<TViewerVersionState>['columns']>[number];

const componentColumn = (component: (typeof STATE_COMPONENT_COLUMNS)[number]): Column => ({
  key: component,
  title: componentLabel(component),
  render: (_: unknown, s: TViewerVersionState) => <Version commit={s.components[component]} />,
});

/**
 * The columns: machine, class, desired, timestamp (sortable either way for
 * stored states), the component filtered by (if any) next to the timestamp so
 * that it stays in view, the other components, the backups.
 */
function columns(filter: StatesFilter): Column[] {
  const stored = filter.state !== 'Desired';
  const components = filter.component ? [filter.component, ...STATE_COMPONENT_COLUMNS.filter((c) => c !== filter.component)] : STATE_COMPONENT_COLUMNS;
  return [
    { key: 'machine', title: 'Machine', render: (_, s) => s.machine.name },
    { key: 'class', title: 'Class', dataIndex: 'machineClassName' },
    { key: 'desired', title: 'Desired', render: (_, s) => yesNo(s.desired) },
    {
      key: 'timestamp',
      title: 'Timestamp',
      ...(stored ? { sorter: true, sortDirections: ['descend', 'ascend'] as const, sortOrder: columnSortOrder(filter.sort, 'timestamp') } : {}),
      render: (_, s) => formatDateTime(s.timestamp, DATE_TIME_SECONDS_FORMAT),
    },
    ...components.map(componentColumn),
    { key: 'siteMasterBackup', title: `${componentLabel('siteMaster')} backup`, dataIndex: 'siteMasterBackup' },
    { key: 'launcherBackup', title: `${componentLabel('launcher')} backup`, dataIndex: 'launcherBackup' },
  ];
}

export default function StatesViewerPage() {
  const { machineId, page, pageSize, params, setMachine, setParams, setPage, setSort } = useViewerParams();
  const filter = useMemo(() => readStatesFilter(params), [params]);
  const list = useVersionStatesPage(statesPageQuery({ machineId, page, pageSize, filter }));
  return (
    <Card title="States">
      <ViewerToolbar selectorId="states-viewer-machine" machineId={machineId} onMachine={setMachine} list={list} errorFallback="States could not be loaded">
        <StatesViewerFilters filter={filter} onChange={setParams} />
      </ViewerToolbar>
      <ScrollRegion label="Version states table">
        <Table<TViewerVersionState>
          rowKey={(s) => (s.id === null ? `desired-${s.machine.id}` : String(s.id))}
          size="small"
          columns={columns(filter)}
          dataSource={list.isError ? [] : (list.data?.items ?? [])}
          loading={list.isLoading}
          locale={{ emptyText: list.isLoading ? ' ' : 'No version states' }}
          onChange={onSortChange(VERSION_STATE_SORTS, setSort)}
          pagination={viewerPagination({ page, pageSize, list, noun: 'states', onChange: setPage })}
        />
      </ScrollRegion>
    </Card>
  );
}
