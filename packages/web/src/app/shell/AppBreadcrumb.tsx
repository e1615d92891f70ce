/**
 * Breadcrumb of the current route (spec 1 §2 Shell): "Dashboard" first, then the
 * title of each matched route of the router table; all but the last are links.
 */
import { Link, useMatches } from 'react-router';
import { Breadcrumb } from 'antd';
import { titledMatches } from '../routes';

export function AppBreadcrumb() {
  const trail = titledMatches(useMatches());
  const items = [
    { key: '/', title: trail.length > 0 ? <Link to="/">Dashboard</Link> : 'Dashboard' },
    ...trail.map(({ pathname, handle }, i) => ({
      key: pathname,
      title: i < trail.length - 1 ? <Link to={pathname}>{handle.title}</Link> : handle.title,
    })),
  ];
  return <Breadcrumb items={items} aria-label="Breadcrumb" />;
}
