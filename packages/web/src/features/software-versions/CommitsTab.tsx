/**
 * Commits tab of the Select Version modal (spec 3 §2.1, §4, §7, §9).
 *
 * Filters: branch (from `GET /software/branches`; empty is every branch), a
 * search box applied 500 ms after the last keystroke, tags only and builds only.
 * The table pages on the server, 10 commits a page. Columns: hash (full hash in
 * a tooltip), branch, author, breaking (a checkbox that calls
 * `PUT /software/{software}/commits/{hash}/breaking` and is reverted on failure;
 * read-only without write permission), tags, builds (first letter of each build
 * type), date, message (cut at 45 characters, whole in a tooltip). Breaking rows
 * are highlighted. Clicking a row (or its radio) chooses the commit: `onChoose`
 * gets `{branch}|{shortHash}`.
 */
import { useState } from 'react';
import { Checkbox, Flex, Input, Select, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { COMMITS_PAGE_SIZE, type TCommit, type TConfigComponent } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { formatDateTime } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useBranches, useCommits } from './api/queries';
import { useSetCommitBreaking } from './api/mutations';
import { FilterSwitch } from './SelectLibraryFileDialog';
import { COMMIT_MESSAGE_MAX, commitVersion, truncate } from './version-format';

interface CommitsTabProps {
  software: TConfigComponent;
  /** The chosen version (`{branch}|{shortHash}`), if it is a commit. */
  chosen: string | null;
  onChoose(version: string): void;
}

export function CommitsTab({ software, chosen, onChoose }: CommitsTabProps) {
  const { canWrite } = useAuth();
  const [branch, setBranch] = useState<string | undefined>(undefined);
  const [text, setText] = useState('');
  const [tagsOnly, setTagsOnly] = useState(false);
  const [buildsOnly, setBuildsOnly] = useState(false);
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(text.trim());

  // A new filter starts again at the first page.
  const [seenFilters, setSeenFilters] = useState('');
  const filterKey = JSON.stringify([branch, search, tagsOnly, buildsOnly]);
  if (filterKey !== seenFilters) {
    setSeenFilters(filterKey);
    setPage(1);
  }

  const branches = useBranches();
  const commits = useCommits(software, {
    branch,
    search: search || undefined,
    tagsOnly: tagsOnly ? 'true' : undefined,
    buildsOnly: buildsOnly ? 'true' : undefined,
    startIndex: (page - 1) * COMMITS_PAGE_SIZE,
    limit: COMMITS_PAGE_SIZE,
  });
  const breaking = useSetCommitBreaking(software);

  const columns: TableColumnsType<TCommit> = [
    {
      title: 'Hash',
      dataIndex: 'shortHash',
      width: 88,
      render: (hash: string, c) => (
        <Tooltip title={c.fullHash}>
          <Typography.Text code>{hash}</Typography.Text>
        </Tooltip>
      ),
    },
    { title: 'Branch', dataIndex: 'branch', width: 160, ellipsis: { showTitle: true } },
    { title: 'Author', dataIndex: 'author', width: 140, ellipsis: { showTitle: true } },
    {
      title: 'Breaking',
      dataIndex: 'isBreaking',
      width: 96,
      align: 'center',
      render: (isBreaking: boolean, c) => (
        <span onClick={(e) => e.stopPropagation()}>
          <Tooltip title={isBreaking ? (c.breakingMsg ?? undefined) : undefined}>
            <Checkbox
              aria-label={`Breaking ${c.shortHash}`}
              checked={isBreaking}
              disabled={!canWrite}
              onChange={(e) => breaking.mutate({ fullHash: c.fullHash, isBreaking: e.target.checked })}
            />
          </Tooltip>
        </span>
      ),
    },
    {
      title: 'Tags',
      dataIndex: 'tags',
      width: 120,
      render: (tags: TCommit['tags']) => tags.map((t) => <Tag key={t.id}>{t.name}</Tag>),
    },
    {
      title: 'Builds',
      dataIndex: 'builds',
      width: 68,
      render: (builds: TCommit['builds']) =>
        builds.map((b) => (
          <Tooltip key={`${b.type}/${b.name}`} title={`${b.type}: ${b.name}`}>
            <Tag color={b.type === 'Release' ? 'green' : 'blue'}>{b.type.charAt(0)}</Tag>
          </Tooltip>
        )),
    },
    { title: 'Date', dataIndex: 'timestamp', width: 142, render: (iso: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(iso)}</span> },
    {
      title: 'Message',
      dataIndex: 'message',
      render: (message: string) =>
        message.length > COMMIT_MESSAGE_MAX ? <Tooltip title={message}>{truncate(message)}</Tooltip> : message,
    },
  ];

  const chosenKey = commits.data?.items.find((c) => commitVersion(c) === chosen)?.fullHash;

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="center">
        <Select
          aria-label="Branch"
          style={{ width: 260 }}
          allowClear
          showSearch
          placeholder="All branches"
          loading={branches.isLoading}
          value={branch}
          onChange={(value: string | undefined) => setBranch(value)}
          options={(branches.data ?? []).map((b) => ({ value: b.name, label: b.name }))}
        />
        <Input
          aria-label="Search commits"
          type="search"
          style={{ width: 280 }}
          allowClear
          placeholder="Message, author, hash or tag"
          maxLength={200}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <FilterSwitch label="Tags only" checked={tagsOnly} onChange={setTagsOnly} />
        <FilterSwitch label="Builds only" checked={buildsOnly} onChange={setBuildsOnly} />
      </Flex>
      <Table<TCommit>
        size="small"
        tableLayout="fixed"
        rowKey="fullHash"
        columns={columns}
        dataSource={commits.data?.items ?? []}
        loading={commits.isFetching}
        rowClassName={(c) => (c.isBreaking ? 'commit-row-breaking' : '')}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: chosenKey ? [chosenKey] : [],
          onChange: (_keys, rows) => rows[0] && onChoose(commitVersion(rows[0])),
          columnWidth: 36,
        }}
        onRow={(c) => ({ onClick: () => onChoose(commitVersion(c)), style: { cursor: 'pointer' } })}
        locale={{ emptyText: commits.isError ? 'Commits could not be loaded' : 'No commits' }}
        pagination={{
          current: page,
          pageSize: COMMITS_PAGE_SIZE,
          total: commits.data?.totalItems ?? 0,
          showSizeChanger: false,
          showTotal: (total, [from, to]) => `${from}-${to} of ${total} commits`,
          onChange: setPage,
        }}
      />
    </Flex>
  );
}
