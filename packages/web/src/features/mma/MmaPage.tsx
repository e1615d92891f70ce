/**
 * MMA (spec 3 §2.7): the MMA classes with their instance: name (PROD tag when
 * isProduction), commit hash with time-ago text and the full hash and time (with
 * its zone) in a tooltip, image or 'None', deployer commit (`branch / hash` when
 * it names its branch) with 'updated …' and its time as a tooltip, standby, priority
 * group, CAA target machine, change windows (issue 25 point 5: one line per
 * window, `Mon–Fri 02:00–05:00 Europe/Berlin`, or 'Any time') and who runs its
 * operations (issue 27 point 1: 'Simulated', or 'Remote · N connected'); below
 * it, the registered MMAs (`components/MmaAgentsCard.tsx`). Rows on standby are highlighted as errors. The
 * edit button opens the Edit MMA Class dialog; it is hidden without `write`, and
 * for Customer Production without group CustomerProductionAccess (the server
 * refuses it too).
 */
import { useMemo, useState } from 'react';
import { Button, Card, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { EditOutlined } from '@ant-design/icons';
import { changeWindowLabel, CLASS_CUSTOMER_PRODUCTION, type TMmaClass } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { versionLabel } from '../software-versions/version-format';
import { useActionsColumnFixed } from '../../lib/use-mobile-layout';
import { useMmaClasses } from './api/queries';
import { useMmaAgents } from './api/agents';
import { MmaAgentsCard } from './components/MmaAgentsCard';
import { EditMmaClassDialog } from './EditMmaClassDialog';
import { timeAgo } from './time-ago';
import './mma.css';

export default function MmaPage() {
  const { canWrite, hasCustomerProductionAccess } = useAuth();
  const classes = useMmaClasses();
  const [editing, setEditing] = useState<TMmaClass | null>(null);
  const actionsFixed = useActionsColumnFixed();
  const agents = useMmaAgents();
  const connectedByClass = useMemo(() => {
    const counts = new Map<number, number>();
    for (const a of agents.data ?? []) if (a.connected) counts.set(a.mmaClassId, (counts.get(a.mmaClassId) ?? 0) + 1);
    return counts;
  }, [agents.data]);
  const canEdit = (c: TMmaClass) => canWrite && c.mmaInstance !== null && (c.id !== CLASS_CUSTOMER_PRODUCTION || hasCustomerProductionAccess);

  const columns: ColumnsType<TMmaClass> = [
    {
      title: 'Name',
      key: 'name',
      width: 120,
      render: (_, c) => (
        <>
          {c.name} {c.isProduction && <Tag color="red">PROD</Tag>}
        </>
      ),
    },
    {
      title: 'Commit',
      key: 'commit',
      width: 140,
      render: (_, c) =>
        c.mmaInstance && (
          <Tooltip title={`${c.mmaInstance.commitHash} — ${formatDateTime(c.mmaInstance.commitTimestamp, DATE_TIME_SECONDS_FORMAT)}`}>
            <Typography.Text code>{c.mmaInstance.commitHash.slice(0, 7)}</Typography.Text>{' '}
            <Typography.Text type="secondary">
              <time dateTime={c.mmaInstance.commitTimestamp}>{timeAgo(c.mmaInstance.commitTimestamp)}</time>
            </Typography.Text>
          </Tooltip>
        ),
    },
    { title: 'Image', dataIndex: 'image', key: 'image', render: (image: string | null) => image ?? 'None' },
    {
      title: 'Deployer Commit',
      key: 'deployer',
      width: 150,
      render: (_, c) =>
        c.mmaInstance && (
          <>
            <Typography.Text code>{versionLabel(c.mmaInstance.deployerVer)}</Typography.Text>
            {c.mmaInstance.deployerVerUpdatedAt && (
              <Tooltip title={formatDateTime(c.mmaInstance.deployerVerUpdatedAt, DATE_TIME_SECONDS_FORMAT)}>
                <div>
                  <Typography.Text type="secondary">
                    updated <time dateTime={c.mmaInstance.deployerVerUpdatedAt}>{timeAgo(c.mmaInstance.deployerVerUpdatedAt)}</time>
                  </Typography.Text>
                </div>
              </Tooltip>
            )}
          </>
        ),
    },
    {
      title: 'Standby',
      key: 'standby',
      width: 90,
      render: (_, c) => c.mmaInstance && (c.mmaInstance.standby ? <Tag color="error">Standby</Tag> : <Tag color="success">Active</Tag>),
    },
    {
      title: 'Runs Operations',
      key: 'mode',
      width: 150,
      render: (_, c) => {
        if (!c.mmaInstance) return null;
        if (c.mmaInstance.mode === 'simulated') return <Typography.Text type="secondary">Simulated</Typography.Text>;
        const connected = connectedByClass.get(c.id) ?? 0;
        return <Tag color={connected > 0 ? 'processing' : 'warning'}>{`Remote · ${connected} connected`}</Tag>;
      },
    },
    { title: 'Priority Group', key: 'priorityGroup', width: 80, render: (_, c) => c.mmaInstance?.priorityGroup },
    { title: 'CAA Target Machine', key: 'caaHost', width: 170, render: (_, c) => c.mmaInstance?.caaHost ?? '' },
    {
      title: 'Change Windows',
      key: 'changeWindows',
      width: 180,
      render: (_, c) =>
        c.changeWindows.length === 0 ? (
          <Typography.Text type="secondary">Any time</Typography.Text>
        ) : (
          c.changeWindows.map((w, i) => (
            <div key={i} className="mma-change-window-label">
              {changeWindowLabel(w)}
            </div>
          ))
        ),
    },
    {
      title: 'Actions',
      key: 'actions',
      width: 80,
      fixed: actionsFixed,
      render: (_, c) =>
        canEdit(c) && (
          <Tooltip title="Edit">
            <Button aria-label={`Edit ${c.name}`} size="small" icon={<EditOutlined />} onClick={() => setEditing(c)} />
          </Tooltip>
        ),
    },
  ];

  return (
    <>
      <Card title="MMA">
        <Table<TMmaClass>
          className="mma-classes-table"
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={classes.data ?? []}
          loading={classes.isLoading}
          pagination={false}
          scroll={{ x: 1280 }}
          rowClassName={(c) => (c.mmaInstance?.standby ? 'mma-standby-row' : '')}
          locale={{ emptyText: classes.isError ? 'MMA classes could not be loaded' : 'No MMA classes' }}
        />
        {editing && <EditMmaClassDialog mmaClass={editing} onClose={() => setEditing(null)} />}
      </Card>
      {/* Below the classes once they are in: a card drawn under the loading table would jump down when its rows arrive (issue 26). */}
      {!classes.isPending && <MmaAgentsCard classes={classes.data ?? []} />}
    </>
  );
}
