/**
 * The signed-in shell (spec 1 §2 Shell, spec 3 §2.9): a collapsible sidebar whose
 * open state is kept in a cookie, a navbar with the hamburger button, the
 * breadcrumb and the user menu, the fleet counters and the standby banner, and
 * the routed page. In the mobile layout (body narrower than 1021 px) the sidebar
 * closes and, when opened, lies over the page; choosing an entry closes it.
 *
 * No jumps (issue 26): the counters bar has its final size from the first
 * paint (placeholders), and the page stays invisible (laid out, its data
 * loading) until the answers that decide the banners above it have come (the
 * standby and freeze states, at most {@link BANNERS_WAIT_MS}), so a banner never
 * pushes the page down under the operator's pointer.
 */
import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { Button, Flex, Layout, Typography, theme } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { APP_NAME } from './RootLayout';
import { AppBreadcrumb } from './shell/AppBreadcrumb';
import { FleetCounters } from './shell/FleetCounters';
import { PendingApprovalsChip } from './shell/PendingApprovalsChip';
import { SideMenu } from './shell/SideMenu';
import { StandbyBanner } from './shell/StandbyBanner';
import { FreezeBanner } from './shell/FleetFreeze';
import { UserMenu } from './shell/UserMenu';
import { useSidebar } from './shell/use-sidebar';
import { prefetchShellQueries, useFleetFreeze, useMmaStats } from '../features/fleet/api/queries';
import { useQueryClient } from '@tanstack/react-query';
import { preloadToasts } from './ToastProvider';
import { whenIdle } from '../lib/when-idle';

const SIDER_WIDTH = 220;
const SIDER_COLLAPSED_WIDTH = 64;
/** Text at the foot of the sidebar (spec 1 §2 Shell). */
export const SIDEBAR_FOOTER = 'DotNet5';
/** The longest the page waits for the banners' answers before it shows anyway, ms. */
export const BANNERS_WAIT_MS = 1500;

/** Whether the banners above the page are known: the standby and freeze answers came (or failed), or {@link BANNERS_WAIT_MS} passed. */
function useBannersKnown(): boolean {
  const client = useQueryClient();
  // Before the page's queries: the banners' answers come first.
  useState(() => prefetchShellQueries(client));
  const standby = useMmaStats(true);
  const freeze = useFleetFreeze();
  const answered = !standby.isPending && !freeze.isPending;
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (answered) return;
    const timer = setTimeout(() => setWaited(true), BANNERS_WAIT_MS);
    return () => clearTimeout(timer);
  }, [answered]);
  return waited || answered;
}

/**
 * The routed page, invisible until the banners are known ({@link useBannersKnown}). A component of its own, so
 * that the banners' answers (and their refetches every 30 s) render this and not the whole shell: the side menu,
 * the header and the counters are about 270 components.
 */
function PageContent({ padding }: { padding: number }) {
  const bannersKnown = useBannersKnown();
  return (
    <Layout.Content style={{ padding, minWidth: 0, visibility: bannersKnown ? 'visible' : 'hidden' }}>
      <Outlet />
    </Layout.Content>
  );
}

/** The longest the toasts' code waits for an idle moment before the shell fetches it anyway, ms. */
const TOASTS_PRELOAD_WAIT_MS = 3000;

export default function Shell() {
  const sidebar = useSidebar();
  // The toasts' code, fetched once the first screen has drawn (app/ToastProvider.tsx).
  useEffect(() => whenIdle(preloadToasts, TOASTS_PRELOAD_WAIT_MS), []);
  const { token } = theme.useToken();
  const overlay = sidebar.isMobile && sidebar.open;

  return (
    <Layout style={{ minHeight: '100vh' }} className={sidebar.isMobile ? 'layout-mobile' : 'layout-desktop'}>
      {overlay && (
        <div
          aria-hidden
          onClick={sidebar.close}
          style={{ position: 'fixed', inset: 0, background: 'rgba(0,0,0,0.3)', zIndex: 99 }}
        />
      )}
      <Layout.Sider
        collapsible
        trigger={null}
        collapsed={!sidebar.open}
        width={SIDER_WIDTH}
        collapsedWidth={sidebar.isMobile ? 0 : SIDER_COLLAPSED_WIDTH}
        style={{
          position: sidebar.isMobile ? 'fixed' : 'sticky',
          top: 0,
          left: 0,
          height: '100vh',
          zIndex: 100,
        }}
      >
        <Flex vertical style={{ height: '100%' }}>
          <Typography.Title level={5} style={{ color: '#fff', margin: 0, padding: '20px 16px', whiteSpace: 'nowrap', overflow: 'hidden' }}>
            {sidebar.open ? APP_NAME : 'FC'}
          </Typography.Title>
          <nav style={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
            <SideMenu collapsed={!sidebar.open} onNavigate={sidebar.isMobile ? sidebar.close : undefined} />
          </nav>
          <div style={{ color: 'rgba(255,255,255,0.65)', padding: '12px 4px', fontSize: 12, textAlign: 'center', whiteSpace: 'nowrap' }}>
            {SIDEBAR_FOOTER}
          </div>
        </Flex>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            padding: '0 16px',
            display: 'flex',
            alignItems: 'center',
            gap: 12,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Button
            type="text"
            aria-label="Toggle sidebar"
            aria-expanded={sidebar.open}
            icon={sidebar.open ? <MenuFoldOutlined aria-hidden /> : <MenuUnfoldOutlined aria-hidden />}
            onClick={sidebar.toggle}
          />
          <div style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
            <AppBreadcrumb />
          </div>
          <PendingApprovalsChip />
          <UserMenu />
        </Layout.Header>
        <div style={{ background: token.colorBgContainer, padding: '6px 16px', minHeight: 35, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          <FleetCounters />
        </div>
        <StandbyBanner />
        <FreezeBanner />
        <PageContent padding={sidebar.isMobile ? 8 : 16} />
      </Layout>
    </Layout>
  );
}
