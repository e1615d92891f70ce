/**
 * The logs drawer of the Issue viewer (spec 2 §2.5, §3 Issue log): a right
 * drawer with the selected issue's logs, newest first: timestamp, content,
 * tags, size and Complete (Yes/No), 10 a page, paged on the server.
 */
import { useState } from 'react';
import { Alert, Descriptions, Drawer, Table, Tag, Typography, type TableProps } from 'antd';
import { ISSUE_LOGS_PAGE_SIZE, type TIssue, type TIssueLog } from '@fleet/contracts';
import { errorText } from '../../../app/api-client';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { useIssueLogs } from '../api/queries';

const COLUMNS: TableProps<TIssueLog>['columns'] = [
  { key: 'timestamp', title: 'Timestamp', render: (_, l) => formatDateTime(l.timestamp, DATE_TIME_SECONDS_FORMAT) },
  {
    key: 'content',
    title: 'Content',
    render: (_, l) => <Typography.Paragraph className="issue-log-content">{l.content}</Typography.Paragraph>,
  },
  { key: 'tags', title: 'Tags', render: (_, l) => l.tags.map((t) => <Tag key={t}>{t}</Tag>) },
  { key: 'size', title: 'Size', dataIndex: 'size' },
  { key: 'complete', title: 'Complete', render: (_, l) => (l.complete ? 'Yes' : 'No') },
];

export function IssueLogsDrawer({ issue, onClose }: { issue: TIssue | undefined; onClose: () => void }) {
  return (
    <Drawer placement="right" size="large" open={issue !== undefined} onClose={onClose} title={issue ? `Logs: ${issue.description}` : 'Logs'} destroyOnHidden>
      {issue && <IssueLogs issue={issue} />}
    </Drawer>
  );
}

function IssueLogs({ issue }: { issue: TIssue }) {
  const [page, setPage] = useState(1);
  const logs = useIssueLogs(issue.id, (page - 1) * ISSUE_LOGS_PAGE_SIZE, ISSUE_LOGS_PAGE_SIZE);
  return (
    <>
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'machine', label: 'Machine', children: issue.machineName },
          { key: 'source', label: 'Source', children: issue.source },
          { key: 'count', label: 'Count', children: issue.count },
        ]}
      />
      {logs.isError && <Alert type="error" showIcon title={errorText(logs.error, 'Issue logs could not be loaded')} style={{ marginBottom: 12 }} />}
      <Table<TIssueLog>
        rowKey="id"
        size="small"
        aria-label="Issue logs"
        columns={COLUMNS}
        dataSource={logs.data?.items ?? []}
        loading={logs.isLoading}
        locale={{ emptyText: logs.isLoading ? ' ' : 'No logs' }}
        pagination={{ current: page, pageSize: ISSUE_LOGS_PAGE_SIZE, total: logs.data?.totalItems ?? 0, showSizeChanger: false, onChange: setPage }}
      />
    </>
  );
}
