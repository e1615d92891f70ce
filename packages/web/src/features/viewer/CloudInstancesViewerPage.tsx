/**
 * The Cloud Instances viewer (`/viewer/cloud-instances`, spec 2 §2.9): the
 * instances of every machine or of the selected one, 10 a page, each row
 * expandable to its raw JSON. Columns: machine, class, host name (a link when
 * it ends in the public cloud compute domain), ip address, cloud id, storage
 * size, timestamp, status, active and DNS as Yes/No.
 *
 * Paged on the server (`GET /cloud-instance?machineId&startIndex&limit`) with
 * `machine` and `page` in the URL.
 */
import { Card, Table, Typography, type TableProps } from 'antd';
import { CLOUD_INSTANCES_VIEWER_PAGE_SIZE, isComputeHostName, type TCloudInstance } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { useCloudInstancesPage } from './api/queries';
import { pageTotalText, ViewerToolbar } from './components/ViewerToolbar';
import { useViewerParams } from './use-viewer-params';
import { yesNo } from './yes-no';

function HostName({ hostName }: { hostName: string }) {
  if (!isComputeHostName(hostName)) return <>{hostName}</>;
  return (
    <Typography.Link href={`http://${hostName}`} target="_blank" rel="noopener noreferrer">
      {hostName}
    </Typography.Link>
  );
}

const COLUMNS: TableProps<TCloudInstance>['columns'] = [
  { key: 'machine', title: 'Machine', dataIndex: 'machineName' },
  { key: 'class', title: 'Class', dataIndex: 'machineClassName' },
  { key: 'hostName', title: 'Host name', render: (_, c) => <HostName hostName={c.hostName} /> },
  { key: 'ipAddress', title: 'IP address', dataIndex: 'ipAddress' },
  { key: 'cloudId', title: 'Cloud id', dataIndex: 'cloudId' },
  { key: 'storageSize', title: 'Storage size', render: (_, c) => `${c.storageSize} GB` },
  { key: 'timestamp', title: 'Timestamp', render: (_, c) => formatDateTime(c.timestamp, DATE_TIME_SECONDS_FORMAT) },
  { key: 'status', title: 'Status', dataIndex: 'status' },
  { key: 'active', title: 'Active', render: (_, c) => yesNo(c.active) },
  { key: 'dnsReady', title: 'DNS', render: (_, c) => yesNo(c.dnsReady) },
];

export default function CloudInstancesViewerPage() {
  const { machineId, page, setMachine, setPage } = useViewerParams();
  const list = useCloudInstancesPage({ machineId, startIndex: (page - 1) * CLOUD_INSTANCES_VIEWER_PAGE_SIZE, limit: CLOUD_INSTANCES_VIEWER_PAGE_SIZE });
  return (
    <Card title="Cloud Instances">
      <ViewerToolbar
        selectorId="cloud-instances-viewer-machine"
        machineId={machineId}
        onMachine={setMachine}
        list={list}
        errorFallback="Cloud instances could not be loaded"
      />
      <Table<TCloudInstance>
        rowKey="id"
        size="small"
        columns={COLUMNS}
        dataSource={list.isError ? [] : (list.data?.items ?? [])}
        loading={list.isLoading}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: list.isLoading ? ' ' : 'No cloud instances' }}
        expandable={{
          expandedRowRender: (c) => (
            <pre style={{ margin: 0, maxHeight: 400, overflow: 'auto' }}>
              {JSON.stringify(c, null, 2)}
            </pre>
          ),
        }}
        pagination={{
          current: page,
          pageSize: CLOUD_INSTANCES_VIEWER_PAGE_SIZE,
          total: list.isError ? 0 : (list.data?.totalItems ?? 0),
          showSizeChanger: false,
          showTotal: pageTotalText('cloud instances', list.data?.totalCapped),
          onChange: setPage,
        }}
      />
    </Card>
  );
}
