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
import { MENU_ICONS } from './menu-icons';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(routes: AppRoute[], parentPath: string, keep: string[] = []): MenuItem[] {
  return routes.map((route) => {
    const path = `${parentPath}/${route.path}`;
    const icon = route.icon && MENU_ICONS[route.icon];
    if (route.children) {
      return { key: path, icon, label: route.title, children: toItems(route.children, path, route.keepParams) };
    }
    return { key: path, icon, label: <MenuLink to={path} group={parentPath} keep={keep} title={route.title} /> };
  });
}

/**
 * A sidebar link. Inside a group with `keepParams` (the viewers' selected
 * machine, spec 2 §2.1), a link to a sibling of the current page, or from the
 * group's own path, keeps those query parameters. It reads the location itself, so that its address follows
 * the page even where the menu does not render it again (a closed group).
 */
function MenuLink({ to, group, keep, title }: { to: string; group: string; keep: string[]; title: string }) {
  const { pathname, search } = useLocation();
  let kept = '';
  // The group's own path too (`/viewer?machine=…`, which redirects to its first page): a page's code loads
  // under Suspense in a transition (app/routes.tsx), so the menu may still show that location while the
  // address already names the page.
  if (keep.length > 0 && (pathname === group || pathname.startsWith(`${group}/`))) {
    const from = new URLSearchParams(search);
    const params = new URLSearchParams();
    for (const key of keep) {
      const value = from.get(key);
      if (value !== null && value !== '') params.set(key, value);
    }
    kept = params.size > 0 ? `?${params.toString()}` : '';
  }
  return <Link to={to + kept}>{title}</Link>;
}

export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { hasPermission } = useAuth();
  const { pathname } = useLocation();
  const items = useMemo(() => toItems(visibleMenuRoutes(APP_ROUTES, hasPermission), ''), [hasPermission]);
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
