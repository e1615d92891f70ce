/**
 * The accounts table (spec 1 §2 Accounts list): server-side sort and paging
 * (page size 20, total shown). Columns in order: alert icons, name (link to
 * EditAccount), URL name, description (tooltip), version, server policy,
 * created, expires, creator, MMA class, SaaS image, billing period, actions.
 *
 * Row actions (Edit, Delete, View Logins) need permission write. Accounts of
 * class Customer Production show the name as plain text and no actions unless
 * the user is in group CustomerProductionAccess.
 */
import { Link } from 'react-router';
import { Button, Flex, Table, Tooltip, Typography, type TableProps } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { CLASS_CUSTOMER_PRODUCTION, type TAccountListItem, type TAccountSortField } from '@fleet/contracts';
import { formatDateTime } from '../../../lib/format';
import type { AccountSort } from '../use-account-list-params';
import { AlertIcons } from './AlertIcons';
import { useActionsColumnFixed } from '../../../lib/use-mobile-layout';

export const EMPTY_ACCOUNTS_TEXT = 'No accounts match these filters';

type Column = NonNullable<TableProps<TAccountListItem>['columns']>[number];

interface Props {
  items: TAccountListItem[];
  total: number;
  loading: boolean;
  page: number;
  pageSize: number;
  sort: AccountSort | undefined;
  canWrite: boolean;
  hasCustomerProductionAccess: boolean;
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
  const { sort, canWrite, hasCustomerProductionAccess } = props;
  const actionsFixed = useActionsColumnFixed();
  const mayOpen = (account: TAccountListItem) => account.classId !== CLASS_CUSTOMER_PRODUCTION || hasCustomerProductionAccess;

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
      render: (_, account) => <AlertIcons stats={account.machineStats} />,
    },
    {
      ...sortable('name'),
      title: 'Name',
      dataIndex: 'name',
      render: (name: string, account) =>
        mayOpen(account) ? <Link to={`/account/edit/${account.id}`}>{name}</Link> : <span>{name}</span>,
    },
    { key: 'urlFriendlyName', title: 'URL name', dataIndex: 'urlFriendlyName' },
    {
      ...sortable('description'),
      title: 'Description',
      dataIndex: 'description',
      render: (description: string) => (
        <Tooltip placement="topLeft" title={description}>
          <span style={DESCRIPTION_STYLE}>{description}</span>
        </Tooltip>
      ),
    },
    { key: 'bundleVersion', title: 'Version', dataIndex: 'bundleVersion' },
    { key: 'instancePolicy', title: 'Server policy', dataIndex: 'instancePolicy' },
    {
      ...sortable('creationTime'),
      title: 'Created',
      dataIndex: 'creationTime',
      render: (iso: string) => formatDateTime(iso),
    },
    {
      ...sortable('expirationTime'),
      title: 'Expires',
      dataIndex: 'expirationTime',
      render: (iso: string | null) => formatDateTime(iso),
    },
    { ...sortable('creator'), title: 'Creator', dataIndex: 'creator' },
    { ...sortable('class'), title: 'MMA class', dataIndex: ['class', 'name'] },
    { key: 'vmImageName', title: 'SaaS image', dataIndex: 'vmImageName' },
    { key: 'billingPeriod', title: 'Billing period', dataIndex: 'billingPeriod' },
  ];

  if (canWrite) {
    columns.push({
      key: 'actions',
      title: 'Actions',
      fixed: actionsFixed,
      render: (_, account) =>
        mayOpen(account) ? (
          <Flex gap={4} wrap={false}>
            <Link to={`/account/edit/${account.id}`}>Edit</Link>
            <Button type="link" size="small" danger onClick={() => props.onDelete(account)}>
              Delete
            </Button>
            <Button type="link" size="small" onClick={() => props.onViewLogins(account)}>
              View Logins
            </Button>
          </Flex>
        ) : null,
    });
  }

  const onChange: TableProps<TAccountListItem>['onChange'] = (pagination, _filters, sorter, extra) => {
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
    <Table<TAccountListItem>
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
