/**
 * The Component Configs and Deployer Configs lists (`/lists/component-configs`,
 * `/lists/deployer-configs`; spec 3 §2.5): definitions sorted by
 * `rootKey.subKey`, a search box (debounced 500 ms) matching a substring of that
 * key, Create New, and per row Edit and Delete ('Are you sure you want to delete
 * this component config?').
 *
 * Columns: Root Key, Sub Key, Data Type (blank for string), Protected, Site
 * Specific (component configs), Version and Deprecated tags coloured by the
 * version's status, and the defaults: SAAS, On-prem and Linux ('Inherits
 * default' when null) for component configs, one Default for deployer configs.
 *
 * Paged on the server, 20 a page, with `search` and `page` in the URL. Users
 * without `write` see the lists only (the server refuses their changes).
 */
import { Suspense, useEffect, useState } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import { Alert, Button, Card, Input, Popconfirm, Space, Table, Tag, Typography, type TableProps } from 'antd';
import { CheckOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, type TConfigVersionRef } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { errorText } from '../../app/api-client';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { readPage, writeParam } from '../../lib/url-params';
import type { ConfigKind } from './api/keys';
import { useDeleteConfigDefinition, type TConfigDefinitionOf } from './api/mutations';
import { useConfigDefinitionPage } from './api/queries';
import { VERSION_STATUS_COLOURS } from './components/config-values';
import { lazyNamed } from '../../lib/lazy-named';

type Row = TConfigDefinitionOf<'component'> & TConfigDefinitionOf<'deployer'>;

/** The create and edit dialog, loaded when first opened (its Form is not the list's: issue 26, script per route). */
const ConfigDefinitionDialog = lazyNamed(() => import('./components/ConfigDefinitionDialog'), 'ConfigDefinitionDialog');

const TITLES: Record<ConfigKind, string> = { component: 'Component Configs', deployer: 'Deployer Configs' };

function VersionTag({ version }: { version: TConfigVersionRef | null }) {
  if (!version) return null;
  return (
    <Tag color={VERSION_STATUS_COLOURS[version.status]} title={version.status}>
      {version.name}
    </Tag>
  );
}

function DefaultValue({ value, inherits }: { value: string | null; inherits?: boolean }) {
  if (value === null) return inherits ? <Typography.Text type="secondary">Inherits default</Typography.Text> : null;
  return (
    <Typography.Text code ellipsis={{ tooltip: value }} style={{ maxWidth: 260 }}>
      {value}
    </Typography.Text>
  );
}

function columns(kind: ConfigKind, actions: TableProps<Row>['columns']): TableProps<Row>['columns'] {
  const yes = (on: boolean) => (on ? <CheckOutlined aria-label="Yes" /> : null);
  return [
    { key: 'rootKey', title: 'Root Key', dataIndex: 'rootKey' },
    { key: 'subKey', title: 'Sub Key', dataIndex: 'subKey' },
    { key: 'dataType', title: 'Data Type', render: (_, r) => r.dataType ?? '' },
    { key: 'protected', title: 'Protected', align: 'center', render: (_, r) => yes(r.protected) },
    ...(kind === 'component' ? [{ key: 'siteSpecific', title: 'Site Specific', align: 'center' as const, render: (_: unknown, r: Row) => yes(r.siteSpecific) }] : []),
    {
      key: 'version',
      title: 'Version',
      render: (_, r) => (
        <Space size={2} wrap>
          <VersionTag version={r.version} />
          {r.deprecatedAtVersion && (
            <>
              <Typography.Text type="secondary">Deprecated</Typography.Text>
              <VersionTag version={r.deprecatedAtVersion} />
            </>
          )}
        </Space>
      ),
    },
    ...(kind === 'component'
      ? [
          { key: 'saas', title: 'SAAS', render: (_: unknown, r: Row) => <DefaultValue value={r.saasDefaultValue} /> },
          { key: 'onPrem', title: 'On-prem', render: (_: unknown, r: Row) => <DefaultValue value={r.onPremDefaultValue} /> },
          { key: 'linux', title: 'Linux', render: (_: unknown, r: Row) => <DefaultValue value={r.linuxSpecificValue} inherits /> },
        ]
      : [{ key: 'default', title: 'Default', render: (_: unknown, r: Row) => <DefaultValue value={r.defaultValue} /> }]),
    ...(actions ?? []),
  ];
}

export function ConfigCataloguePage({ kind }: { kind: ConfigKind }) {
  const { canWrite } = useAuth();
  const [params, setParams] = useSearchParams();
  const page = readPage(params);
  const [search, setSearch] = useState(params.get('search') ?? '');
  const settled = useDebouncedValue(search.trim());
  const [editing, setEditing] = useState<Row | null | undefined>(undefined);
  const remove = useDeleteConfigDefinition(kind);

  // The debounced search goes to the URL (and back to page 1) once it settles.
  useEffect(() => {
    setParams(
      (current) => {
        if (settled === (current.get('search') ?? '')) return current;
        const next = new URLSearchParams(current);
        writeParam(next, 'search', settled || undefined);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, [settled, setParams]);

  const list = useConfigDefinitionPage(kind, { search: params.get('search') ?? '', startIndex: (page - 1) * DEFAULT_PAGE_SIZE, limit: DEFAULT_PAGE_SIZE });
  const setPage = (n: number) => {
    const next = new URLSearchParams(params);
    writeParam(next, 'page', n > 1 ? String(n) : undefined);
    setParams(next);
  };

  const actions: TableProps<Row>['columns'] = canWrite
    ? [
        {
          key: 'actions',
          title: '',
          width: 96,
          render: (_, r) => (
            <Space size={4}>
              <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${r.rootKey}.${r.subKey}`} onClick={() => setEditing(r)} />
              <Popconfirm
                title="Are you sure you want to delete this component config?"
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
              >
                <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${r.rootKey}.${r.subKey}`} />
              </Popconfirm>
            </Space>
          ),
        },
      ]
    : [];

  return (
    <Card
      title={TITLES[kind]}
      extra={
        canWrite && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            Create New
          </Button>
        )
      }
    >
      <Input.Search
        aria-label="Search rootKey.subKey"
        placeholder="Search rootKey.subKey"
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ maxWidth: 360, marginBottom: 12 }}
        maxLength={200}
      />
      {list.isError && <Alert type="error" showIcon message={errorText(list.error, `${TITLES[kind]} could not be loaded`)} style={{ marginBottom: 12 }} />}
      <Table<Row>
        rowKey="id"
        size="small"
        columns={columns(kind, actions)}
        dataSource={list.isError ? [] : ((list.data?.items ?? []) as Row[])}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: list.isLoading ? ' ' : 'No configs' }}
        pagination={{
          current: page,
          pageSize: DEFAULT_PAGE_SIZE,
          total: list.isError ? 0 : (list.data?.totalItems ?? 0),
          showSizeChanger: false,
          showTotal: (total) => `${total} ${total === 1 ? 'config' : 'configs'}`,
          onChange: setPage,
        }}
      />
      {editing !== undefined && (
        <Suspense fallback={null}>
          <ConfigDefinitionDialog kind={kind} definition={editing} onClose={() => setEditing(undefined)} />
        </Suspense>
      )}
    </Card>
  );
}
