/**
 * The sidebar's icons, by the name the router table gives each top-level entry
 * (`AppRoute.icon`). Here rather than in the table, which the entry chunk
 * loads for the login page too (issue 26: script per route).
 */
import type { ReactNode } from 'react';
import {
  BellOutlined,
  BookOutlined,
  CheckSquareOutlined,
  CloudSyncOutlined,
  ClusterOutlined,
  EyeOutlined,
  HistoryOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { MenuIconName } from '../routes';

export const MENU_ICONS: Record<MenuIconName, ReactNode> = {
  team: <TeamOutlined />,
  'cloud-sync': <CloudSyncOutlined />,
  'check-square': <CheckSquareOutlined />,
  book: <BookOutlined />,
  cluster: <ClusterOutlined />,
  eye: <EyeOutlined />,
  history: <HistoryOutlined />,
  'unordered-list': <UnorderedListOutlined />,
  bell: <BellOutlined />,
};
