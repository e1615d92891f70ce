/**
 * The "Launcher Logins" dialog (spec 1 §2 Accounts list, View Logins): userName,
 * firstName, lastName and password of the account's launcher logins from
 * `GET /accounts/{id}/launcher-logins`. A load failure is silent (an empty table).
 */
import { Modal, Table } from 'antd';
import type { TLauncherLogin } from '@fleet/contracts';
import { useLauncherLogins } from '../api/queries';

interface Props {
  account: { id: number; name: string } | undefined;
  onClose(): void;
}

const COLUMNS = [
  { key: 'userName', title: 'User name', dataIndex: 'userName' },
  { key: 'firstName', title: 'First name', dataIndex: 'firstName' },
  { key: 'lastName', title: 'Last name', dataIndex: 'lastName' },
  { key: 'password', title: 'Password', dataIndex: 'password' },
];

export function LauncherLoginsModal({ account, onClose }: Props) {
  const logins = useLauncherLogins(account?.id);
  return (
    <Modal
      title="Launcher Logins"
      open={account !== undefined}
      onCancel={onClose}
      footer={null}
      width={800}
      destroyOnHidden
    >
      {account && <p>{account.name}</p>}
      <Table<TLauncherLogin>
        rowKey="userName"
        size="small"
        columns={COLUMNS}
        dataSource={logins.data ?? []}
        loading={logins.isLoading}
        pagination={false}
      />
    </Modal>
  );
}
