/**
 * One operation's own page (`/operations/:id`, issue 24 point 1 "every
 * operation's output has its own URL"): what it is and where it runs (machine,
 * account, class, type, who queued it and when), its status and, while queued,
 * what it waits for and who can release it (the server's start rules); Cancel
 * while it has not started (write permission); its parameters as fields; its
 * output and deployer log. Read again every 2 s until it finishes. The toast
 * after queueing and the operation tables link here.
 */
import { useEffect } from 'react';
import { Alert, Card, Descriptions, Empty, Flex, Spin, Tabs, Typography } from 'antd';
import { Link, useParams } from 'react-router';
import type { TOperation } from '@fleet/contracts';
import { errorText } from '../../app/api-client';
import { useAuth } from '../../app/auth/auth-context';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { useDecideOperation } from '../machines/api/operation-mutations';
import type { OperationLogKind } from './api/keys';
import { OPERATION_PAGE_REFRESH_MS, useOperation, useOperationLog } from './api/queries';
import { ActivityLink, OperationStatusTag } from './components/operation-columns';
import { LOG_TITLES } from './components/OperationLogDialog';
import { CancelOperationButton, isCancellable, OperationWaitingText } from './components/OperationWaiting';
import { formatSeconds, logText, operationModeName } from './operation-rules';
import './components/operations.css';

const time = (iso: string | null) => formatDateTime(iso, DATE_TIME_SECONDS_FORMAT) || '—';

/** A parameter's value as text: strings and numbers as they are, lists and objects as compact JSON. */
const paramText = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value));

/** A log of the operation, read again while it runs and once more when it has finished (its last lines come with the finish). */
function OperationLog({ kind, operation }: { kind: OperationLogKind; operation: TOperation }) {
  const log = useOperationLog(kind, operation.id, operation.finishTime === null ? OPERATION_PAGE_REFRESH_MS : false);
  const { refetch } = log;
  useEffect(() => {
    if (operation.finishTime !== null) void refetch();
  }, [operation.finishTime, refetch]);
  if (log.isLoading) return <Spin />;
  if (log.isError) return <Alert type="error" showIcon title={errorText(log.error, 'The log could not be loaded')} />;
  return (
    <pre className="operation-log" aria-label={LOG_TITLES[kind]}>
      {logText(log.data?.content)}
    </pre>
  );
}

export default function OperationPage() {
  const id = Number(useParams().id);
  const operation = useOperation(id);
  const { canWrite } = useAuth();
  const decide = useDecideOperation();

  if (operation.isLoading) return <Spin />;
  if (operation.isError || !operation.data) {
    return <Alert type="error" showIcon title={errorText(operation.error, `Operation ${id} could not be loaded`)} />;
  }
  const op = operation.data;
  const params = Object.entries(op.params);
  return (
    <Card
      title={`Operation ${op.id}: ${op.typeName} on ${op.machineName}`}
      extra={
        canWrite && isCancellable(op) ? (
          <CancelOperationButton operation={op} loading={decide.isPending} onCancel={(o) => decide.mutate({ operation: o, decision: 'CANCEL' })} />
        ) : null
      }
    >
      <Flex vertical gap={16}>
        <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="Status">
            <Flex vertical gap={4} align="flex-start">
              <OperationStatusTag operation={op} />
              <OperationWaitingText operation={op} />
            </Flex>
          </Descriptions.Item>
          <Descriptions.Item label="Operation">
            {op.typeName} <Typography.Text type="secondary">({op.operationTypeDescription})</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="Machine">
            <Link to={`/viewer/machines?machine=${op.machineId}`}>{op.machineName}</Link>
          </Descriptions.Item>
          <Descriptions.Item label="Account">
            <Link to={`/account/edit/${op.accountId}`}>Account {op.accountId}</Link>
          </Descriptions.Item>
          <Descriptions.Item label="MMA class">{op.machineClassName}</Descriptions.Item>
          <Descriptions.Item label="Queued">
            {time(op.timestamp)} by {op.user}
          </Descriptions.Item>
          {op.notBefore && <Descriptions.Item label="Not before">{time(op.notBefore)}</Descriptions.Item>}
          <Descriptions.Item label="Started">{time(op.startTime)}</Descriptions.Item>
          <Descriptions.Item label="Finished">{time(op.finishTime)}</Descriptions.Item>
          <Descriptions.Item label="Running time">{formatSeconds(op.runningTime) || '—'}</Descriptions.Item>
          <Descriptions.Item label="Timeout">{formatSeconds(op.timeout)}</Descriptions.Item>
          <Descriptions.Item label="Failures">{op.failCounter}</Descriptions.Item>
          <Descriptions.Item label="Operation mode">{operationModeName(op.operationMode)}</Descriptions.Item>
          {op.decision && (
            <Descriptions.Item label="Decision">
              {op.decision} by {op.decidedBy ?? 'an operator'}
            </Descriptions.Item>
          )}
          <Descriptions.Item label="Caused by">{op.activityId === null ? '—' : <ActivityLink activityId={op.activityId} />}</Descriptions.Item>
        </Descriptions>
        {params.length === 0 ? (
          <Typography.Text type="secondary">No parameters</Typography.Text>
        ) : (
          <Descriptions size="small" title="Parameters" bordered column={1}>
            {params.map(([key, value]) => (
              <Descriptions.Item key={key} label={key}>
                {paramText(value)}
              </Descriptions.Item>
            ))}
          </Descriptions>
        )}
        {op.status === null ? (
          <Empty description="No output yet: the operation has not started" />
        ) : (
          <Tabs
            items={(Object.keys(LOG_TITLES) as OperationLogKind[]).map((kind) => ({
              key: kind,
              label: LOG_TITLES[kind],
              children: <OperationLog kind={kind} operation={op} />,
            }))}
          />
        )}
      </Flex>
    </Card>
  );
}
