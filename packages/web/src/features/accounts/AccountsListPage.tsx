/**
 * The accounts list, home of the console (spec 1 §2 Accounts list): filters,
 * the sortable paged table, footer statistics, Create New (write permission),
 * delete with confirmation and the Launcher Logins dialog. Filters, sort and
 * page live in the URL (`use-account-list-params`). 'Update these accounts'
 * (write permission) opens the Updater in account mode on the list's filters
 * (issue 13).
 */
import { useState } from 'react';
import { Button, Card, Flex, Modal } from 'antd';
import { CloudSyncOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { TAccountListItem } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useDeleteAccount } from './api/mutations';
import { useAccounts, useAccountsInfo } from './api/queries';
import { AccountFilters } from './components/AccountFilters';
import { AccountsFooter } from './components/AccountsFooter';
import { AccountsTable } from './components/AccountsTable';
import { LauncherLoginsModal } from './components/LauncherLoginsModal';
import { ACCOUNTS_PAGE_SIZE, useAccountListParams } from './use-account-list-params';
import { deleteConfirmText } from './delete-account';
import { updaterLinkForAccounts } from '../updater/use-updater-params';

/** The delete confirmation (spec 1 §2, §5). */

export default function AccountsListPage() {
  const { canWrite } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const list = useAccountListParams();
  const accounts = useAccounts(list.query);
  const info = useAccountsInfo(list.filter);
  const deleteAccount = useDeleteAccount();
  const [loginsFor, setLoginsFor] = useState<TAccountListItem | undefined>(undefined);
  const navigate = useNavigate();

  const confirmDelete = (account: TAccountListItem) => {
    void modal.confirm({
      title: 'Delete account',
      content: deleteConfirmText(account.name),
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      // The toast reports a failure; the dialog closes either way.
      onOk: () => deleteAccount.mutateAsync({ id: account.id, name: account.name }).catch(() => undefined),
    });
  };

  return (
    <Card
      title="Accounts"
      extra={
        canWrite && (
          <Flex gap={8}>
            <Button icon={<CloudSyncOutlined aria-hidden />} onClick={() => void navigate(updaterLinkForAccounts(list.filter))}>
              Update these accounts
            </Button>
            <Button type="primary" icon={<PlusOutlined aria-hidden />} href="#/account/new">
              Create New
            </Button>
          </Flex>
        )
      }
    >
      <AccountFilters filters={list.filters} onChange={list.setFilters} />
      <AccountsTable
        items={accounts.isError ? [] : (accounts.data?.items ?? [])}
        total={accounts.isError ? 0 : (accounts.data?.totalItems ?? 0)}
        loading={accounts.isFetching}
        page={list.page}
        pageSize={ACCOUNTS_PAGE_SIZE}
        sort={list.sort}
        canWrite={canWrite}
        onPageChange={list.setPage}
        onSortChange={list.setSort}
        onDelete={confirmDelete}
        onViewLogins={setLoginsFor}
      />
      {/* Below the table once its first page came: the rows never push the statistics down under the pointer (issue 26). */}
      <AccountsFooter info={info.isError || !accounts.data ? undefined : info.data} />
      <LauncherLoginsModal account={loginsFor} onClose={() => setLoginsFor(undefined)} />
      {modalHolder}
    </Card>
  );
}
