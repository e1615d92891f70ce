/**
 * Sidebar menu built from the router table (spec 1 §2, §6): entries the user's
 * permissions do not allow are hidden, and entries marked hidden (EditAccount,
 * Account Settings) are never listed. Entries are real links; inside a group
 * with `keepParams` (the viewers) they keep those query parameters. A collapsed
 * sidebar shows groups as pop-ups on hover only, never the expanded groups.
 */
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Menu, type MenuProps } from 'antd';
import { useAuth } from '../auth/auth-context';
import { APP_ROUTES, visibleMenuRoutes, type AppRoute } from '../routes';

type MenuItem = Required<MenuProps>['items'][number];

/**
 * Menu items of the routes. `search` is the current query string when the
 * current page is inside `parentPath`: links to its siblings keep the group's
 * `keepParams` from it (the viewers' selected machine, spec 2 §2.1).
 */
function toItems(routes: AppRoute[], parentPath: string, current: { pathname: string; search: string }, keep: string[] = []): MenuItem[] {
  return routes.map((route) => {
    const path = `${parentPath}/${route.path}`;
    if (route.children) {
      return { key: path, icon: route.icon, label: route.title, children: toItems(route.children, path, current, route.keepParams) };
    }
    return { key: path, icon: route.icon, label: <Link to={path + keptSearch(keep, parentPath, current)}>{route.title}</Link> };
  });
}

function keptSearch(keep: string[], parentPath: string, { pathname, search }: { pathname: string; search: string }): string {
  if (keep.length === 0 || !pathname.startsWith(`${parentPath}/`)) return '';
  const from = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const key of keep) {
    const value = from.get(key);
    if (value !== null && value !== '') kept.set(key, value);
  }
  const text = kept.toString();
  return text === '' ? '' : `?${text}`;
}

export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { hasPermission } = useAuth();
  const { pathname, search } = useLocation();
  const items = useMemo(() => toItems(visibleMenuRoutes(APP_ROUTES, hasPermission), '', { pathname, search }), [hasPermission, pathname, search]);
  const section = `/${pathname.split('/')[1] ?? ''}`;

  // The group of the current route opens whenever the route moves into it; the
  // user may still close or open groups by hand.
  const [openKeys, setOpenKeys] = useState<string[]>([section]);
  const [seenSection, setSeenSection] = useState(section);
  if (section !== seenSection) {
    setSeenSection(section);
    if (!openKeys.includes(section)) setOpenKeys([...openKeys, section]);
  }
  // Collapsed, open keys are pop-ups: kept apart, so that a page opened on a
  // narrow screen (sidebar closed) shows no pop-up and expanding restores the groups.
  const [popupKeys, setPopupKeys] = useState<string[]>([]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      openKeys={collapsed ? popupKeys : openKeys}
      onOpenChange={collapsed ? setPopupKeys : setOpenKeys}
      onClick={onNavigate}
      aria-label="Main navigation"
    />
  );
}
