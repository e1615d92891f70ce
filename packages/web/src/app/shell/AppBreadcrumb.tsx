/**
 * Breadcrumb of the current route (spec 1 §2 Shell): "Dashboard" first, then the
 * title of each matched route of the router table; all but the last are links.
 * On a phone only the current page is shown, so the header keeps one line.
 */
import { Link } from 'react-router';
import { Breadcrumb } from 'antd';
import { titledMatches, useRouteMatches } from '../routes';
import { useIsPhone } from '../../lib/use-mobile-layout';

export function AppBreadcrumb() {
  const trail = titledMatches(useRouteMatches());
  const items = [
    { key: '/', title: trail.length > 0 ? <Link to="/">Dashboard</Link> : 'Dashboard' },
    ...trail.map(({ pathname, handle }, i) => ({
      key: pathname,
      title: i < trail.length - 1 ? <Link to={pathname}>{handle.title}</Link> : handle.title,
    })),
  ];
  const isPhone = useIsPhone();
  return <Breadcrumb items={isPhone ? items.slice(-1) : items} aria-label="Breadcrumb" />;
}
