/**
 * The accounts table (spec 1 §2 Accounts list): server-side sort and paging
 * (page size 20, total shown). Columns in order: alert icons, name (link to
 * EditAccount), URL name, description (tooltip), version, server policy,
 * created, expires, creator, MMA class, SaaS image, billing period, actions.
 *
 * Row actions (Edit, Delete, View Logins) need permission write. Accounts of
 * class Customer Production, for a user outside group CustomerProductionAccess,
 * come as restricted rows (`restricted: true`, spec 1 §2): the name as plain
 * text, the MMA class, a lock explaining why, and nothing else: no link, no
 * other column, no actions.
 *
 * The rows' tooltips (description, lock, alert icons) mount at the first hover
 * or focus (`LazyTooltip`): a page of rows drew a popup trigger per cell before
 * anyone pointed at one (issue 26, Total Blocking Time).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Flex, Table, Tooltip, Typography, type TableProps } from 'antd';
import { LockOutlined, WarningOutlined } from '@ant-design/icons';
import type { TAccountListItem, TAccountListRow, TAccountSortField } from '@fleet/contracts';
import { formatDateTime } from '../../../lib/format';
import type { AccountSort } from '../use-account-list-params';
import { AlertIcons } from './AlertIcons';
import { LazyTooltip } from '../../../components/LazyTooltip';
import { useActionsColumnFixed } from '../../../lib/use-mobile-layout';

export const EMPTY_ACCOUNTS_TEXT = 'No accounts match these filters';

/** Why a restricted row shows only its name and class (spec 1 §2, §6). */
export const RESTRICTED_ACCOUNT_TEXT = 'Customer Production: only members of group CustomerProductionAccess may open this account';

type Column = NonNullable<TableProps<TAccountListRow>['columns']>[number];

/** A cell of a column restricted rows do not show: empty for them. */
const shown =
  (render: (account: TAccountListItem) => ReactNode) =>
  (_: unknown, row: TAccountListRow): ReactNode =>
    row.restricted ? null : render(row);

interface Props {
  items: TAccountListRow[];
  total: number;
  loading: boolean;
  page: number;
  pageSize: number;
  sort: AccountSort | undefined;
  canWrite: boolean;
  onPageChange(page: number): void;
  onSortChange(sort: AccountSort | undefined): void;
  onDelete(account: TAccountListItem): void;
  onViewLogins(account: TAccountListItem): void;
}

/** One line, cut with an ellipsis; the full text is in the tooltip. */
const DESCRIPTION_STYLE = {
  display: 'block',
  maxWidth: 240,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;

const SORT_FIELDS: Record<string, TAccountSortField> = {
  name: 'name',
  description: 'description',
  creationTime: 'creationTime',
  expirationTime: 'expirationTime',
  creator: 'creator',
  class: 'class',
};

export function AccountsTable(props: Props) {
  const { sort, canWrite } = props;
  const actionsFixed = useActionsColumnFixed();

  const sortable = (key: TAccountSortField): Partial<Column> => ({
    key,
    sorter: true,
    sortDirections: ['ascend', 'descend'],
    sortOrder: sort?.sortBy === key ? (sort.sortDirection === 'Ascending' ? 'ascend' : 'descend') : null,
  });

  const columns: Column[] = [
    {
      key: 'alerts',
      title: (
        <Tooltip title="Machine alerts">
          <WarningOutlined aria-label="Alerts" />
        </Tooltip>
      ),
      width: 90,
      render: (_, row) =>
        row.restricted ? (
          <LazyTooltip title={RESTRICTED_ACCOUNT_TEXT}>
            <span>
              <LockOutlined aria-label={RESTRICTED_ACCOUNT_TEXT} />
            </span>
          </LazyTooltip>
        ) : (
          <AlertIcons stats={row.machineStats} />
        ),
    },
    {
      ...sortable('name'),
      title: 'Name',
      render: (_, row) => (row.restricted ? <span>{row.name}</span> : <Link to={`/account/edit/${row.id}`}>{row.name}</Link>),
    },
    { key: 'urlFriendlyName', title: 'URL name', render: shown((a) => a.urlFriendlyName) },
    {
      ...sortable('description'),
      title: 'Description',
      render: shown((a) => (
        <LazyTooltip title={a.description}>
          <span style={DESCRIPTION_STYLE}>{a.description}</span>
        </LazyTooltip>
      )),
    },
    { key: 'bundleVersion', title: 'Version', render: shown((a) => a.bundleVersion) },
    { key: 'instancePolicy', title: 'Server policy', render: shown((a) => a.instancePolicy) },
    { ...sortable('creationTime'), title: 'Created', render: shown((a) => formatDateTime(a.creationTime)) },
    { ...sortable('expirationTime'), title: 'Expires', render: shown((a) => formatDateTime(a.expirationTime)) },
    { ...sortable('creator'), title: 'Creator', render: shown((a) => a.creator) },
    { ...sortable('class'), title: 'MMA class', render: (_, row) => row.class.name },
    { key: 'vmImageName', title: 'SaaS image', render: shown((a) => a.vmImageName) },
    { key: 'billingPeriod', title: 'Billing period', render: shown((a) => a.billingPeriod) },
  ];

  if (canWrite) {
    columns.push({
      key: 'actions',
      title: 'Actions',
      fixed: actionsFixed,
      render: shown((account) => (
        <Flex gap={4} wrap={false}>
          <Link to={`/account/edit/${account.id}`}>Edit</Link>
          <Button type="link" size="small" danger onClick={() => props.onDelete(account)}>
            Delete
          </Button>
          <Button type="link" size="small" onClick={() => props.onViewLogins(account)}>
            View Logins
          </Button>
        </Flex>
      )),
    });
  }

  const onChange: TableProps<TAccountListRow>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'paginate') {
      props.onPageChange(pagination.current ?? 1);
      return;
    }
    if (extra.action !== 'sort') return;
    const active = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = active?.columnKey !== undefined ? SORT_FIELDS[String(active.columnKey)] : undefined;
    props.onSortChange(
      field && active?.order ? { sortBy: field, sortDirection: active.order === 'ascend' ? 'Ascending' : 'Descending' } : undefined,
    );
  };

  return (
    <Table<TAccountListRow>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={props.items}
      loading={props.loading}
      onChange={onChange}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: props.loading ? ' ' : <Typography.Text type="secondary">{EMPTY_ACCOUNTS_TEXT}</Typography.Text> }}
      pagination={{
        current: props.page,
        pageSize: props.pageSize,
        total: props.total,
        showSizeChanger: false,
        showTotal: (total, [from, to]) => `${from}-${to} of ${total} accounts`,
      }}
    />
  );
}
