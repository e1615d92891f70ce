/**
 * The one router table of the console (spec 1 §2 "Screens and routes", spec 2
 * §2.1, spec 3 §2): path, title, permission, sidebar entry and lazily loaded page.
 * The sidebar (`shell/SideMenu`), the breadcrumb, the document title and the
 * permission guard all read this table; `router.tsx` turns it into routes.
 * `build/route-pages.ts` reads it at build time (the route preload, the benches):
 * keep one entry with its `page: () => import()` per line.
 */
import { createContext, lazy, Suspense, useContext, type ComponentType, type ReactNode } from 'react';
import { Spin } from 'antd';
import type { QueryClient } from '@tanstack/react-query';
import { Navigate, type RouteObject } from 'react-router';
import { PERMISSION_ADMIN, PERMISSION_WRITE } from '@fleet/contracts/constants';

/** The sidebar's icons (`shell/menu-icons.tsx` draws each). */
export type MenuIconName = 'team' | 'cloud-sync' | 'check-square' | 'book' | 'cluster' | 'eye' | 'history' | 'unordered-list' | 'bell';

/** A page module: its default export is the page component. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/**
 * Starts a page's first reads from its URL query (`search`) while its code still
 * loads, when it is the first screen of a page load (app/first-screen.ts).
 */
export type PagePrefetch = (client: QueryClient, search: URLSearchParams) => void;
/** A module whose default export is a page's {@link PagePrefetch}: loaded only for a first screen. */
export type PrefetchLoader = () => Promise<{ default: PagePrefetch }>;

/** What each matched route carries (`useRouteMatches()[i].handle`). */
export interface RouteHandle {
  title: string;
  /** Permission the user must hold; without it the guard sends the user to /. */
  permission?: string;
  prefetch?: PrefetchLoader;
}

export interface AppRoute {
  /** Path segment relative to the parent route, e.g. `account`, `edit/:id`. */
  path: string;
  title: string;
  permission?: string;
  /** Icon of a top-level sidebar entry, by name (the shell draws it: `shell/menu-icons.tsx`, so that the entry does not carry the icons). */
  icon?: MenuIconName;
  /** Reachable, but not listed in the sidebar. */
  hideInMenu?: boolean;
  /** Where the parent route itself redirects (absolute path). */
  redirect?: string;
  /** Query parameters the sidebar keeps when moving between the children of this group. */
  keepParams?: string[];
  /** The page of the parent route itself, instead of a plain redirect (e.g. `/viewer`, which loads the lookup first). */
  indexPage?: PageLoader;
  page?: PageLoader;
  /** The page's first reads, started before its code has loaded (issue 26). */
  prefetch?: PrefetchLoader;
  children?: AppRoute[];
}

/** The default screen: `/` redirects here (spec 1 §2). */
export const HOME_PATH = '/account/list';

export const APP_ROUTES: AppRoute[] = [
  {
    path: 'account',
    title: 'Accounts',
    icon: 'team',
    redirect: HOME_PATH,
    children: [
      { path: 'list', title: 'List Accounts', prefetch: () => import('../features/accounts/prefetch'), page: () => import('../features/accounts/AccountsListPage') },
      { path: 'new', title: 'New Account', permission: PERMISSION_WRITE, page: () => import('../features/account-create/CreateAccountPage') },
      { path: 'edit/:id', title: 'Edit Account', hideInMenu: true, page: () => import('../features/account-edit/EditAccountPage') },
    ],
  },
  { path: 'updater', title: 'Updater', permission: PERMISSION_WRITE, icon: 'cloud-sync', page: () => import('../features/updater/UpdaterPage') },
  // Reachable from the Updater (its Rollouts button) and from a submitted rollout.
  { path: 'rollouts', title: 'Rollouts', permission: PERMISSION_WRITE, hideInMenu: true, page: () => import('../features/updater/RolloutsPage') },
  { path: 'rollouts/:id', title: 'Rollout', permission: PERMISSION_WRITE, hideInMenu: true, page: () => import('../features/updater/RolloutPage') },
  { path: 'approvals', title: 'Approvals', permission: PERMISSION_WRITE, icon: 'check-square', page: () => import('../features/approvals/ApprovalsPage') },
  { path: 'library-manager', title: 'Library Manager', icon: 'book', page: () => import('../features/library-manager/LibraryManagerPage') },
  { path: 'mma', title: 'MMA', icon: 'cluster', page: () => import('../features/mma/MmaPage') },
  {
    path: 'viewer',
    title: 'Viewer',
    icon: 'eye',
    redirect: '/viewer/issues',
    // Loads the machine lookup, then redirects to /viewer/issues keeping `machine` (spec 2 §2.1).
    indexPage: () => import('../features/viewer/ViewerIndexPage'),
    // The sidebar carries the selected machine from one viewer to the next.
    keepParams: ['machine'],
    children: [
      { path: 'issues', title: 'Issues', page: () => import('../features/issues/IssuesViewerPage') },
      { path: 'operations', title: 'Operations', page: () => import('../features/operations/OperationsViewerPage') },
      { path: 'machines', title: 'Machines', page: () => import('../features/viewer/MachinesViewerPage') },
      { path: 'states', title: 'States', page: () => import('../features/viewer/StatesViewerPage') },
      { path: 'cloud-instances', title: 'Cloud Instances', page: () => import('../features/viewer/CloudInstancesViewerPage') },
      { path: 'request-statistics', title: 'Request Statistics', page: () => import('../features/request-statistics/RequestStatisticsViewerPage') },
    ],
  },
  // An operation's own page: linked from the toast after queueing and from the operation tables.
  { path: 'operations/:id', title: 'Operation', hideInMenu: true, page: () => import('../features/operations/OperationPage') },
  { path: 'activity', title: 'Activity Logs', icon: 'history', page: () => import('../features/activity/ActivityPage') },
  {
    path: 'lists',
    title: 'Lists',
    icon: 'unordered-list',
    redirect: '/lists/component-configs',
    children: [
      { path: 'component-configs', title: 'Component Configs', page: () => import('../features/config-catalogues/ComponentConfigsPage') },
      { path: 'deployer-configs', title: 'Deployer Configs', page: () => import('../features/config-catalogues/DeployerConfigsPage') },
      { path: 'irmn-versions', title: 'IRMN Versions', page: () => import('../features/lists-images/IrmnVersionsPage') },
      { path: 'instance-types', title: 'Instance Types', page: () => import('../features/lists-images/InstanceTypesPage') },
      { path: 'saas-images', title: 'SaaS Images', page: () => import('../features/lists-images/SaasImagesPage') },
      { path: 'cloud-images', title: 'Cloud Images', page: () => import('../features/lists-images/CloudImagesPage') },
    ],
  },
  // Notification channels (issue 28 point 3): admins only (`PERMISSION_ADMIN`: the admin role, see auth/AuthProvider).
  { path: 'notifications', title: 'Notifications', permission: PERMISSION_ADMIN, icon: 'bell', page: () => import('../features/notification-channels/NotificationChannelsPage') },
  { path: 'account-settings', title: 'Account Settings', hideInMenu: true, page: () => import('./AccountSettingsPage') },
];

/** What the content area shows while a page's code loads (a first visit; a later one keeps the previous page up meanwhile). */
function PageLoading() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: 320 }}>
      <Spin aria-label="Loading page" />
    </div>
  );
}

/**
 * The element of a page (issue 26 point 2): the page's module loads under
 * Suspense (`React.lazy`) on its first visit, showing `fallback` meanwhile (a
 * spinner in the content area; the whole page for the sign-in page and the
 * shell). So the shell (side menu, fleet counters, standby banner) paints as
 * soon as its own code and reads are in, not when the page's are. The hash
 * router updates its location in a transition, so moving to a page whose code
 * has not loaded yet keeps the current page up until it has.
 */
export function lazyPageElement(load: PageLoader, fallback: ReactNode = <PageLoading />): ReactNode {
  const Page = lazy(load);
  return (
    <Suspense fallback={fallback}>
      <Page />
    </Suspense>
  );
}

/** Turns a table entry into a React Router route (index redirect, handle, the page under Suspense). */
export function toRouteObject(route: AppRoute): RouteObject {
  const handle: RouteHandle = { title: route.title, permission: route.permission, prefetch: route.prefetch };
  if (route.children) {
    const index: RouteObject[] = route.indexPage
      ? [{ index: true, element: lazyPageElement(route.indexPage) }]
      : route.redirect
        ? [{ index: true, element: <Navigate to={route.redirect} replace /> }]
        : [];
    return { path: route.path, handle, children: [...index, ...route.children.map(toRouteObject)] };
  }
  return { path: route.path, handle, element: route.page ? lazyPageElement(route.page) : undefined };
}

/** A route matched at the current location: the part of the path it matched, and its handle. */
export interface RouteMatch {
  pathname: string;
  handle?: unknown;
}

/** The routes matched at the current location, outermost first (provided by `RootLayout`, router.tsx). */
export const RouteMatchesContext = createContext<RouteMatch[]>([]);

/** The routes matched at the current location, outermost first: the guard's permissions, the breadcrumb, the title. */
export function useRouteMatches(): RouteMatch[] {
  return useContext(RouteMatchesContext);
}

/** The handle of a matched route, if it has one. */
export function routeHandle(match: RouteMatch): RouteHandle | undefined {
  const handle = match.handle as Partial<RouteHandle> | undefined;
  return handle && typeof handle.title === 'string' ? (handle as RouteHandle) : undefined;
}

/** Matched routes that carry a title, outermost first (breadcrumb, document title). */
export function titledMatches(matches: RouteMatch[]): { pathname: string; handle: RouteHandle }[] {
  return matches.flatMap((match) => {
    const handle = routeHandle(match);
    return handle ? [{ pathname: match.pathname, handle }] : [];
  });
}

/**
 * The sidebar entries the user may see: hidden entries and entries whose
 * permission the user lacks are dropped (spec 1 §2, §6); a group left without
 * children is dropped too.
 */
export function visibleMenuRoutes(routes: AppRoute[], hasPermission: (p: string) => boolean): AppRoute[] {
  return routes.flatMap((route) => {
    if (route.hideInMenu) return [];
    if (route.permission && !hasPermission(route.permission)) return [];
    if (!route.children) return [route];
    const children = visibleMenuRoutes(route.children, hasPermission);
    return children.length > 0 ? [{ ...route, children }] : [];
  });
}
