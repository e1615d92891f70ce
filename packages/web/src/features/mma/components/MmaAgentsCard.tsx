/**
 * The registered MMAs of the MMA screen (issue 27 point 1): one row per MMA
 * with its class, host and version, its token's first characters, its
 * connection ('Connected', else 'Last seen …', or 'Revoked by …'), the
 * operations it runs, and who registered it when. Admins register an MMA
 * (`RegistrationTokenDialog`) and revoke a credential after a confirmation;
 * the list is read again every 10 s.
 */
import { useState } from 'react';
import { Button, Card, Modal, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { CLASS_CUSTOMER_PRODUCTION, type TMmaAgent, type TMmaClass } from '@fleet/contracts';
import { useAuth, useIsAdmin } from '../../../app/auth/auth-context';
import { formatDateTime } from '../../../lib/format';
import { useMmaAgents, useRevokeMmaAgent } from '../api/agents';
import { timeAgo } from '../time-ago';
import { RegistrationTokenDialog } from './RegistrationTokenDialog';

function Connection({ agent }: { agent: TMmaAgent }) {
  if (agent.revokedAt) {
    return (
      <Tooltip title={formatDateTime(agent.revokedAt)}>
        <Tag>Revoked by {agent.revokedBy}</Tag>
      </Tooltip>
    );
  }
  if (agent.connected) return <Tag color="success">Connected</Tag>;
  return (
    <Tooltip title={agent.lastSeenAt ? formatDateTime(agent.lastSeenAt) : undefined}>
      <Tag color="warning">{agent.lastSeenAt ? `Last seen ${timeAgo(agent.lastSeenAt)}` : 'Never seen'}</Tag>
    </Tooltip>
  );
}

export function MmaAgentsCard({ classes }: { classes: TMmaClass[] }) {
  const { hasCustomerProductionAccess } = useAuth();
  const admin = useIsAdmin();
  const agents = useMmaAgents();
  const revoke = useRevokeMmaAgent();
  const [registering, setRegistering] = useState(false);
  const [modal, holder] = Modal.useModal();
  const canChange = (classId: number) => admin && (classId !== CLASS_CUSTOMER_PRODUCTION || hasCustomerProductionAccess);

  const confirmRevoke = (agent: TMmaAgent) =>
    void modal.confirm({
      title: `Revoke the credential of ${agent.host}?`,
      content: `The MMA (class ${agent.mmaClassName}) is refused from its next call${
        agent.runningOperations > 0 ? `; its ${agent.runningOperations} running operation(s) end when their lease runs out` : ''
      }. It needs a new registration token to connect again.`,
      okText: 'Revoke',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => revoke.mutateAsync(agent.id).catch(() => undefined),
    });

  const columns: ColumnsType<TMmaAgent> = [
    { title: 'Class', dataIndex: 'mmaClassName', key: 'class', width: 150 },
    {
      title: 'Host',
      key: 'host',
      width: 240,
      render: (_, a) => (
        <>
          {a.host}
          {a.lastAddress && (
            <div>
              <Typography.Text type="secondary">{a.lastAddress}</Typography.Text>
            </div>
          )}
        </>
      ),
    },
    { title: 'Version', dataIndex: 'version', key: 'version', width: 110 },
    {
      title: 'Token',
      key: 'token',
      width: 170,
      render: (_, a) => (
        <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
          {`mmat_${a.tokenHint}…`}
        </Typography.Text>
      ),
    },
    { title: 'Connection', key: 'connection', width: 200, render: (_, a) => <Connection agent={a} /> },
    { title: 'Running', dataIndex: 'runningOperations', key: 'running', width: 90 },
    {
      title: 'Registered',
      key: 'registered',
      width: 190,
      render: (_, a) => (
        <Tooltip title={formatDateTime(a.registeredAt)}>
          {timeAgo(a.registeredAt)}
          <div>
            <Typography.Text type="secondary">token by {a.registeredBy}</Typography.Text>
          </div>
        </Tooltip>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      width: 100,
      render: (_, a) =>
        !a.revokedAt &&
        canChange(a.mmaClassId) && (
          <Button size="small" danger aria-label={`Revoke ${a.host}`} onClick={() => confirmRevoke(a)}>
            Revoke
          </Button>
        ),
    },
  ];

  return (
    <Card
      title="Registered MMAs"
      style={{ marginTop: 16 }}
      extra={
        admin && (
          <Button icon={<PlusOutlined />} onClick={() => setRegistering(true)}>
            Register an MMA
          </Button>
        )
      }
    >
      <Table<TMmaAgent>
        className="mma-agents-table"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={agents.data ?? []}
        loading={agents.isLoading}
        pagination={false}
        scroll={{ x: 1100 }}
        locale={{
          emptyText: agents.isError ? (
            'The registered MMAs could not be loaded'
          ) : (
            <Typography.Text type="secondary">No MMA is registered: every class runs its operations in the worker (simulated).</Typography.Text>
          ),
        }}
      />
      {registering && <RegistrationTokenDialog classes={classes.filter((c) => canChange(c.id))} onClose={() => setRegistering(false)} />}
      {holder}
    </Card>
  );
}
