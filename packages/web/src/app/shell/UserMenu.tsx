/**
 * The user menu of the navbar (spec 1 §2 Shell): a button with the user's name
 * opening "Account Settings" (navigates to /account-settings) and "Log Out"
 * (signs out and reloads the page).
 */
import { useNavigate } from 'react-router';
import { Button, Dropdown, type MenuProps } from 'antd';
import { DownOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useAuth } from '../auth/auth-context';

export function UserMenu() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();

  const items: MenuProps['items'] = [
    { key: 'settings', icon: <SettingOutlined />, label: 'Account Settings' },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: 'Log Out' },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'settings') void navigate('/account-settings');
    if (key === 'logout') void logout();
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <Button type="text" icon={<UserOutlined aria-hidden />}>
        {user?.name ?? ''} <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
