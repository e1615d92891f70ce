/**
 * The Cloud Instances viewer (`/viewer/cloud-instances`, spec 2 §2.9; issue 24
 * point 7): the instances of every machine or of the selected one, each row
 * expandable to its raw JSON. Columns: machine, class, host name (a link when
 * it ends in the public cloud compute domain), ip address, cloud id, storage
 * size, timestamp, status, active and DNS as Yes/No.
 *
 * Paged, filtered and sorted on the server (`GET /cloud-instance?machineId&
 * classId&status&active&sort&order&startIndex&limit`): filters class, state
 * and active; newest first by default, the Timestamp column sorts by launch
 * time either way; 20 a page (20, 50, 100; the spec's 10 made the viewers'
 * one). All in the URL: `machine`, `page`, `size`, `class`, `status`,
 * `active`, `sort=timestamp` and `order`. The class is shown under the
 * machine, and long names, host names and cloud ids end in an ellipsis with
 * the whole text as a tooltip, so that every column fits at 1440 pixels.
 */
import { Card, Flex, Table, Typography, type TableProps } from 'antd';
import {
  CLOUD_INSTANCE_SORTS,
  INSTANCE_STATES,
  isComputeHostName,
  type TCloudInstance,
  type TInstanceState,
  type TSortOrder,
} from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { oneOf } from '../../lib/url-params';
import { useCloudInstancesPage } from './api/queries';
import { ClassFilter } from './components/ClassFilter';
import { FilterSelect } from './components/FilterSelect';
import { ScrollRegion } from '../../components/ScrollRegion';
import { viewerPagination, ViewerToolbar } from './components/ViewerToolbar';
import { columnSortOrder, onSortChange, readClassParam, readSort, useViewerParams } from './use-viewer-params';
import { yesNo } from './yes-no';

function HostName({ hostName }: { hostName: string }) {
  if (!isComputeHostName(hostName)) return <Typography.Text ellipsis={{ tooltip: hostName }} style={{ maxWidth: 170 }}>{hostName}</Typography.Text>;
  return (
    <Typography.Link href={`http://${hostName}`} target="_blank" rel="noopener noreferrer" ellipsis style={{ maxWidth: 170 }} title={hostName}>
      {hostName}
    </Typography.Link>
  );
}

const clipped = (text: string, width: number, secondary = false) => (
  <Typography.Text ellipsis={{ tooltip: text }} type={secondary ? 'secondary' : undefined} style={{ maxWidth: width, fontSize: secondary ? 12 : undefined }}>
    {text}
  </Typography.Text>
);

function columns(sort: { sort: string; order: TSortOrder } | undefined): TableProps<TCloudInstance>['columns'] {
  return [
    {
      key: 'machine',
      title: 'Machine',
      render: (_, c) => (
        <Flex vertical>
          {clipped(c.machineName, 150)}
          {clipped(c.machineClassName, 150, true)}
        </Flex>
      ),
    },
    { key: 'hostName', title: 'Host name', render: (_, c) => <HostName hostName={c.hostName} /> },
    { key: 'ipAddress', title: 'IP address', dataIndex: 'ipAddress' },
    { key: 'cloudId', title: 'Cloud id', render: (_, c) => clipped(c.cloudId, 140) },
    { key: 'storageSize', title: 'Storage', render: (_, c) => `${c.storageSize} GB` },
    {
      key: 'timestamp',
      title: 'Timestamp',
      sorter: true,
      sortDirections: ['descend', 'ascend'],
      sortOrder: columnSortOrder(sort, 'timestamp'),
      render: (_, c) => formatDateTime(c.timestamp, DATE_TIME_SECONDS_FORMAT),
    },
    { key: 'status', title: 'Status', dataIndex: 'status' },
    { key: 'active', title: 'Active', render: (_, c) => yesNo(c.active) },
    { key: 'dnsReady', title: 'DNS', render: (_, c) => yesNo(c.dnsReady) },
  ];
}

const asStatus = oneOf(INSTANCE_STATES);
const asActive = oneOf(['true', 'false'] as const);
const STATUS_OPTIONS = INSTANCE_STATES.map((s) => ({ value: s, label: s }));
const ACTIVE_OPTIONS = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Not active' },
];

export default function CloudInstancesViewerPage() {
  const { machineId, page, pageSize, params, setMachine, setPage, setParam, setSort } = useViewerParams();
  const classId = readClassParam(params);
  const status = asStatus(params.get('status'));
  const active = asActive(params.get('active'));
  const sort = readSort(params, CLOUD_INSTANCE_SORTS);
  const list = useCloudInstancesPage({
    machineId,
    startIndex: (page - 1) * pageSize,
    limit: pageSize,
    ...(classId !== undefined ? { classId } : {}),
    ...(status ? { status } : {}),
    ...(active ? { active: active === 'true' } : {}),
    ...(sort ? { sort: sort.sort, order: sort.order } : {}),
  });
  return (
    <Card title="Cloud Instances">
      <ViewerToolbar
        selectorId="cloud-instances-viewer-machine"
        machineId={machineId}
        onMachine={setMachine}
        list={list}
        errorFallback="Cloud instances could not be loaded"
      >
        <ClassFilter value={classId} onChange={(id) => setParam('class', id === undefined ? undefined : String(id))} />
        <FilterSelect<TInstanceState> label="Status" placeholder="All states" options={STATUS_OPTIONS} value={status} onChange={(value) => setParam('status', value)} width={150} />
        <FilterSelect<string> label="Active" placeholder="Active or not" options={ACTIVE_OPTIONS} value={active} onChange={(value) => setParam('active', value)} width={140} />
      </ViewerToolbar>
      <ScrollRegion label="Cloud instances table">
        <Table<TCloudInstance>
          rowKey="id"
          size="small"
          columns={columns(sort)}
          dataSource={list.isError ? [] : (list.data?.items ?? [])}
          loading={list.isLoading}
          locale={{ emptyText: list.isLoading ? ' ' : 'No cloud instances' }}
          expandable={{
            expandedRowRender: (c) => (
              <pre style={{ margin: 0, maxHeight: 400, overflow: 'auto' }}>
                {JSON.stringify(c, null, 2)}
              </pre>
            ),
          }}
          onChange={onSortChange(CLOUD_INSTANCE_SORTS, setSort)}
          pagination={viewerPagination({ page, pageSize, list, noun: 'cloud instances', onChange: setPage })}
        />
      </ScrollRegion>
    </Card>
  );
}
