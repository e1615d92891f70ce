/**
 * The States viewer (`/viewer/states`, spec 2 §2.8, §4): a radio Current,
 * Historical or Desired, and the version states of every machine or of the
 * selected one, 20 a page (20, 50 or 100; issue 24 point 7 made the spec's 15
 * the viewers' one): machine, class, desired, timestamp, a version column
 * per component (deployer, siteMaster, launcher, …, auditChangeLog, titled
 * with the components' labels, each commit as `branch / hash`) and the
 * siteMasterBackup and launcherBackup of the state's time.
 *
 * Paged on the server (`GET /version-states?state&machineId&startIndex&limit`)
 * with `machine`, `state`, `page` and `size` in the URL.
 */
import { Card, Radio, Table, Tooltip, type TableProps } from 'antd';
import {
  VERSION_STATE_KINDS,
  type TComponentVersion,
  type TVersionStateKind,
  type TViewerVersionState,
} from '@fleet/contracts';
import { componentLabel } from '../../lib/field-labels';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { commitVersion, versionLabel } from '../software-versions/version-format';
import { oneOf } from '../../lib/url-params';
import { useVersionStatesPage } from './api/queries';
import { viewerPagination, ViewerToolbar } from './components/ViewerToolbar';
import { ScrollRegion } from './components/ScrollRegion';
import { useViewerParams } from './use-viewer-params';
import { yesNo } from './yes-no';

/** The component columns in the spec's order (spec 2 §2.8). */
export const STATE_COMPONENT_COLUMNS = [
  'deployer',
  'siteMaster',
  'launcher',
  'client',
  'pdfExport',
  'reporting',
  'populate',
  'sqlExport',
  'discovery',
  'linkware',
  'smchk',
  'fiberSenSys',
  'fiberMountain',
  'serviceNow',
  'commScope',
  'apSensing',
  'voltServer',
  'cadImport',
  'auditChangeLog',
] as const;

/** The URL's `state` parameter: lower-case kind names (`current`, `historical`, `desired`), Current by default. */
const STATE_PARAM = 'state';
const readKind = (raw: string | null): TVersionStateKind =>
  VERSION_STATE_KINDS.find((k) => k.toLowerCase() === raw) ?? oneOf(VERSION_STATE_KINDS)(raw) ?? 'Current';

/** A component's commit as `branch / hash` (spec 3 §2.8), its time as a tooltip; empty when not installed. */
function Version({ commit }: { commit: TComponentVersion | null | undefined }) {
  if (!commit) return null;
  return (
    <Tooltip title={formatDateTime(commit.timestamp, DATE_TIME_SECONDS_FORMAT)}>
      <span style={{ whiteSpace: 'nowrap' }}>{versionLabel(commitVersion({ branch: commit.branchName, shortHash: commit.shortHash }))}</span>
    </Tooltip>
  );
}

const COLUMNS: TableProps<TViewerVersionState>['columns'] = [
  { key: 'machine', title: 'Machine', render: (_, s) => s.machine.name },
  { key: 'class', title: 'Class', dataIndex: 'machineClassName' },
  { key: 'desired', title: 'Desired', render: (_, s) => yesNo(s.desired) },
  { key: 'timestamp', title: 'Timestamp', render: (_, s) => formatDateTime(s.timestamp, DATE_TIME_SECONDS_FORMAT) },
  ...STATE_COMPONENT_COLUMNS.map((component) => ({
    key: component,
    title: componentLabel(component),
    render: (_: unknown, s: TViewerVersionState) => <Version commit={s.components[component]} />,
  })),
  { key: 'siteMasterBackup', title: `${componentLabel('siteMaster')} backup`, dataIndex: 'siteMasterBackup' },
  { key: 'launcherBackup', title: `${componentLabel('launcher')} backup`, dataIndex: 'launcherBackup' },
];

export default function StatesViewerPage() {
  const { machineId, page, pageSize, params, setMachine, setParam, setPage } = useViewerParams();
  const state = readKind(params.get(STATE_PARAM));
  const list = useVersionStatesPage({ state, machineId, startIndex: (page - 1) * pageSize, limit: pageSize });
  return (
    <Card title="States">
      <ViewerToolbar selectorId="states-viewer-machine" machineId={machineId} onMachine={setMachine} list={list} errorFallback="States could not be loaded">
        <Radio.Group
          aria-label="Version states"
          optionType="button"
          value={state}
          onChange={(e) => setParam(STATE_PARAM, e.target.value === 'Current' ? undefined : String(e.target.value).toLowerCase())}
          options={VERSION_STATE_KINDS.map((k) => ({ value: k, label: k }))}
        />
      </ViewerToolbar>
      <ScrollRegion label="Version states table">
        <Table<TViewerVersionState>
          rowKey={(s) => (s.id === null ? `desired-${s.machine.id}` : String(s.id))}
          size="small"
          columns={COLUMNS}
          dataSource={list.isError ? [] : (list.data?.items ?? [])}
          loading={list.isLoading}
          locale={{ emptyText: list.isLoading ? ' ' : 'No version states' }}
          pagination={viewerPagination({ page, pageSize, list, noun: 'states', onChange: setPage })}
        />
      </ScrollRegion>
    </Card>
  );
}
